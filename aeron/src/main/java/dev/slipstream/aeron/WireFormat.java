package dev.slipstream.aeron;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The bridge's wire format: every Aeron message that {@link AeronOutbound} sends, and that
 * {@link AeronInbound} expects, is
 *
 * <pre>
 *   offset  length  field
 *   0       8       stream sequence: signed 64-bit, little-endian; 0 for the first message of a
 *                   stream (or the outbound's initial sequence), +1 for each message after it
 *   8       n       payload: what the {@link MessageEncoder} wrote, n = encodedLength(event)
 * </pre>
 *
 * <p>The message length is Aeron's (its frame header carries it), so the bridge adds no length
 * field. Little-endian because that is the native order of the machines Aeron runs on, so the
 * header is one plain store and one plain load. The sequence counts messages of one outbound
 * stage (one {@code ExclusivePublication}), not ring sequences: a ring stage downstream of a
 * filter would otherwise look like a gap.
 *
 * <pre>{@code
 * long streamSequence = WireFormat.sequence(buffer, offset);       // in a raw Aeron handler
 * int payloadOffset = offset + WireFormat.HEADER_LENGTH;
 * }</pre>
 */
public final class WireFormat {
    /** Bytes before the payload: the 8-byte stream sequence. */
    public static final int HEADER_LENGTH = 8;
    /** Offset of the stream sequence in a message. */
    public static final int SEQUENCE_OFFSET = 0;
    /** The byte order of the header. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private WireFormat() {
    }

    /**
     * Reads the stream sequence of a message.
     *
     * @param buffer the message's buffer
     * @param messageOffset where the message starts
     * @return the stream sequence
     */
    public static long sequence(final DirectBuffer buffer, final int messageOffset) {
        return buffer.getLong(messageOffset + SEQUENCE_OFFSET, BYTE_ORDER);
    }

    /**
     * Writes the stream sequence of a message.
     *
     * @param buffer the message's buffer
     * @param messageOffset where the message starts
     * @param sequence the stream sequence
     */
    public static void putSequence(final MutableDirectBuffer buffer, final int messageOffset, final long sequence) {
        buffer.putLong(messageOffset + SEQUENCE_OFFSET, sequence, BYTE_ORDER);
    }
}
