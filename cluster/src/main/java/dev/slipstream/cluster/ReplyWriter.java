package dev.slipstream.cluster;

import org.agrona.MutableDirectBuffer;

/**
 * Writes a reply's payload into the outbox's preallocated reply buffer, on the stage's thread.
 *
 * <pre>{@code
 * ReplyWriter<Fill> writer = (buffer, offset, fill) -> {
 *     buffer.putLong(offset, fill.quantity);
 *     return Long.BYTES;                                  // bytes written
 * };
 * }</pre>
 *
 * @param <A> the argument the stage passes along
 */
@FunctionalInterface
public interface ReplyWriter<A> {
    /**
     * Writes the payload.
     *
     * @param buffer the reply buffer
     * @param offset where the payload starts
     * @param arg the stage's argument
     * @return the number of bytes written, at most the outbox's maximum payload length
     */
    int write(MutableDirectBuffer buffer, int offset, A arg);
}
