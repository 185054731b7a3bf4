package dev.slipstream.aeron;

import org.agrona.DirectBuffer;

/**
 * Reads a message's payload into a claimed ring slot, for {@link AeronInbound}. Called on the
 * receiver's thread inside Aeron's poll, once per message; it must copy what it needs (the
 * buffer is Aeron's and is reused after the call) and should not allocate.
 *
 * <pre>{@code
 * MessageDecoder<Trade> decoder = (buffer, offset, length, trade) -> {
 *     trade.price = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
 *     trade.quantity = buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN);
 * };
 * }</pre>
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface MessageDecoder<E> {
    /**
     * Overwrites {@code event} with the payload.
     *
     * @param buffer the message's buffer
     * @param offset where the payload starts (after the {@link WireFormat} header)
     * @param length the payload's length
     * @param event the ring slot's preallocated event, to overwrite completely
     */
    void decode(DirectBuffer buffer, int offset, int length, E event);
}
