package dev.slipstream.journal;

import java.nio.ByteBuffer;

/** A test event whose whole content is a function of its journal sequence, so any copy can be checked byte for byte. */
final class Message {
    static final int MAX_BODY = 200;

    long sequence;
    int bodyLength;
    final byte[] body = new byte[MAX_BODY];

    /** Fills this message with the content that belongs to {@code sequence}. */
    Message fill(final long sequence) {
        this.sequence = sequence;
        this.bodyLength = bodyLength(sequence);
        for (int i = 0; i < bodyLength; i++) {
            body[i] = byteAt(sequence, i);
        }
        return this;
    }

    static int bodyLength(final long sequence) {
        return (int) ((sequence * 7) % 121);
    }

    static byte byteAt(final long sequence, final int i) {
        return (byte) (sequence * 31 + i * 17 + (sequence >>> 8));
    }

    /** Null if this message is exactly what {@code sequence} should hold, else what differs. */
    String differenceFrom(final long expectedSequence) {
        if (sequence != expectedSequence) {
            return "sequence field " + sequence + ", expected " + expectedSequence;
        }
        if (bodyLength != bodyLength(expectedSequence)) {
            return "body length " + bodyLength + ", expected " + bodyLength(expectedSequence);
        }
        for (int i = 0; i < bodyLength; i++) {
            if (body[i] != byteAt(expectedSequence, i)) {
                return "body byte " + i + " is " + body[i] + ", expected " + byteAt(expectedSequence, i);
            }
        }
        return null;
    }

    /** Encodes the sequence, the body length and the body: 12 to 132 bytes. */
    static class Codec implements JournalCodec<Message> {
        @Override
        public int encodedLength(final Message m) {
            return 12 + m.bodyLength;
        }

        @Override
        public void encode(final Message m, final ByteBuffer out) {
            out.putLong(m.sequence).putInt(m.bodyLength).put(m.body, 0, m.bodyLength);
        }

        @Override
        public void decode(final ByteBuffer in, final Message m) {
            m.sequence = in.getLong();
            m.bodyLength = in.getInt();
            in.get(m.body, 0, m.bodyLength);
        }
    }
}
