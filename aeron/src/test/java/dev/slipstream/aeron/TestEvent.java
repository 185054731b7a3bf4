package dev.slipstream.aeron;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A test event: who sent it, its number in that sender's stream, a value, and optional filler bytes. */
final class TestEvent {
    int producer;
    long number;
    long value;
    /** Filler bytes after the fixed fields, each {@code (byte) (number + i)}: makes long messages checkable. */
    int filler;

    static final int FIXED = 4 + 8 + 8 + 4;

    static final MessageEncoder<TestEvent> ENCODER = new MessageEncoder<>() {
        @Override
        public int encodedLength(final TestEvent e) {
            return FIXED + e.filler;
        }

        @Override
        public int encode(final TestEvent e, final MutableDirectBuffer buffer, final int offset) {
            buffer.putInt(offset, e.producer, ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(offset + 4, e.number, ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(offset + 12, e.value, ByteOrder.LITTLE_ENDIAN);
            buffer.putInt(offset + 20, e.filler, ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < e.filler; i++) {
                buffer.putByte(offset + FIXED + i, (byte) (e.number + i));
            }
            return FIXED + e.filler;
        }
    };

    /** Decodes, and checks the filler (counting a bad byte into {@code value}'s sign is not enough: mark it). */
    static final MessageDecoder<TestEvent> DECODER = (buffer, offset, length, e) -> {
        e.producer = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
        e.number = buffer.getLong(offset + 4, ByteOrder.LITTLE_ENDIAN);
        e.value = buffer.getLong(offset + 12, ByteOrder.LITTLE_ENDIAN);
        e.filler = buffer.getInt(offset + 20, ByteOrder.LITTLE_ENDIAN);
        if (length != FIXED + e.filler || !fillerIntact(buffer, offset + FIXED, e)) {
            e.producer = -1;    // the checking stage reports it
        }
    };

    private static boolean fillerIntact(final DirectBuffer buffer, final int at, final TestEvent e) {
        for (int i = 0; i < e.filler; i++) {
            if (buffer.getByte(at + i) != (byte) (e.number + i)) {
                return false;
            }
        }
        return true;
    }

    static long valueOf(final int producer, final long number) {
        long h = (producer + 1L) * 0x9E3779B97F4A7C15L ^ number * 0xC2B2AE3D27D4EB4FL;
        return h ^ (h >>> 31);
    }
}
