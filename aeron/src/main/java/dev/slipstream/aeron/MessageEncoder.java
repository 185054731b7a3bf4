package dev.slipstream.aeron;

import org.agrona.MutableDirectBuffer;

/**
 * Writes an event's payload into an Aeron buffer, for {@link AeronOutbound}. Called on the
 * outbound stage's thread, once per event; it must not allocate if the pipeline is to stay
 * allocation-free.
 *
 * <p>The outbound asks for the length first, so that a message that fits one frame is encoded
 * straight into the publication's term buffer ({@code tryClaim}), with no copy.
 *
 * <pre>{@code
 * MessageEncoder<Trade> encoder = new MessageEncoder<>() {
 *     public int encodedLength(Trade trade) {
 *         return 16;
 *     }
 *     public int encode(Trade trade, MutableDirectBuffer buffer, int offset) {
 *         buffer.putLong(offset, trade.price, ByteOrder.LITTLE_ENDIAN);
 *         buffer.putLong(offset + 8, trade.quantity, ByteOrder.LITTLE_ENDIAN);
 *         return 16;
 *     }
 * };
 * }</pre>
 *
 * @param <E> the event type
 */
public interface MessageEncoder<E> {
    /**
     * How many payload bytes {@link #encode} will write for this event.
     *
     * @param event the event
     * @return the payload length, zero or more
     */
    int encodedLength(E event);

    /**
     * Writes the event's payload.
     *
     * @param event the event (valid only during this call)
     * @param buffer where to write
     * @param offset where the payload starts in {@code buffer}
     * @return the bytes written, which must equal {@link #encodedLength}
     */
    int encode(E event, MutableDirectBuffer buffer, int offset);
}
