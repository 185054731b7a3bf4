package dev.slipstream.journal;

import java.nio.ByteBuffer;

/**
 * Turns an event into the payload of a journal record and back. The journal calls it on the
 * stage's thread for every event, so it must not allocate if the pipeline is to stay
 * allocation-free.
 *
 * <p>{@link #encode} writes straight into the memory-mapped segment: {@code out}'s position is
 * where the payload starts and its limit is exactly {@link #encodedLength} bytes further, so a
 * codec that writes past the length it declared gets a {@link java.nio.BufferOverflowException}
 * (which the stage reports as a {@link JournalException} naming the file, the offset and the
 * sequence). Write with relative puts ({@code out.putLong(v)}); the buffer is little-endian. A
 * codec must write exactly the bytes it declared: one that leaves the position short of the limit
 * (fewer bytes, or absolute puts without moving the position) is refused the same way, because
 * replay would hand its decoder bytes that were never written. A payload of 0 bytes is a valid
 * record; its decoder gets an empty buffer. A decoder that fails during a replay gets its
 * exception wrapped in a {@link JournalException} naming the codec, the file, the offset and the
 * sequence.
 *
 * <pre>{@code
 * final class TradeCodec implements JournalCodec<Trade> {
 *     public int encodedLength(Trade t) { return 24; }
 *     public void encode(Trade t, ByteBuffer out) { out.putLong(t.id).putLong(t.price).putLong(t.quantity); }
 *     public void decode(ByteBuffer in, Trade t) { t.id = in.getLong(); t.price = in.getLong(); t.quantity = in.getLong(); }
 * }
 * }</pre>
 *
 * @param <E> the event type
 */
public interface JournalCodec<E> {
    /**
     * How many bytes {@link #encode} will write for this event.
     *
     * @param event the event about to be journalled
     * @return the payload length, {@code >= 0}
     */
    int encodedLength(E event);

    /**
     * Writes the event's payload.
     *
     * @param event the event
     * @param out positioned at the payload's first byte, limited to {@link #encodedLength} bytes;
     *     valid only during this call; its position must reach its limit
     */
    void encode(E event, ByteBuffer out);

    /**
     * Reads a payload back into an event (a reused scratch event or a ring slot).
     *
     * @param in positioned at the payload's first byte, limited to its last; valid only during
     *     this call
     * @param event the event to fill
     */
    void decode(ByteBuffer in, E event);
}
