package dev.slipstream.cluster;

import org.agrona.DirectBuffer;

/**
 * Decodes a command's payload bytes (the ingress message after its client and correlation ids)
 * into the ring slot's preallocated payload. Runs on the cluster's service thread, once per
 * committed command on every member; it must depend on the bytes only.
 *
 * <pre>{@code
 * IngressDecoder<Order> decoder = (buffer, offset, length, order) -> {
 *     order.side = buffer.getByte(offset);
 *     order.price = buffer.getLong(offset + 1);
 *     order.quantity = buffer.getLong(offset + 9);
 * };
 * }</pre>
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface IngressDecoder<T> {
    /**
     * Fills {@code into} from the payload bytes.
     *
     * @param buffer the message buffer
     * @param offset where the payload starts
     * @param length the payload's length in bytes
     * @param into the slot's payload, holding the previous command's values
     */
    void decode(DirectBuffer buffer, int offset, int length, T into);
}
