package dev.slipstream.stress.checksum;

/**
 * The event of the checksum runs: one long that packs the producer id (top 16 bits) and that
 * producer's own running count (low 48 bits).
 */
final class ChecksumEvent {
    static final int PRODUCER_SHIFT = 48;
    static final long COUNT_MASK = (1L << PRODUCER_SHIFT) - 1;
    /** Written by the consumer after reading: a slot handed out again without a new write shows up. */
    static final long CONSUMED = -1L;

    long value = CONSUMED;

    static long encode(final int producer, final long count) {
        return ((long) producer << PRODUCER_SHIFT) | count;
    }
}
