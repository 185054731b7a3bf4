package dev.slipstream.examples.orderbook;

/**
 * An order-sensitive 64-bit checksum over the order stream (sequence and every order field).
 * The replica computes it live; the verification step recomputes it from the journal file.
 */
final class StreamChecksum {
    private long value = 0xCBF29CE484222325L;
    private long count;

    void add(final long sequence, final byte type, final Side side, final long orderId, final long price,
             final long quantity, final int clientId) {
        long h = value;
        h = (h ^ sequence) * 0x100000001B3L;
        h = (h ^ ((long) type << 8 | side.ordinal())) * 0x100000001B3L;
        h = (h ^ orderId) * 0x100000001B3L;
        h = (h ^ price) * 0x100000001B3L;
        h = (h ^ quantity) * 0x100000001B3L;
        h = (h ^ clientId) * 0x100000001B3L;
        value = h ^ (h >>> 31);
        count++;
    }

    long value() {
        return value;
    }

    long count() {
        return count;
    }
}
