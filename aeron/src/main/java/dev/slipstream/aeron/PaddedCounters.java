package dev.slipstream.aeron;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A few single-writer counters, each on its own pair of cache lines: counter {@code i} lives at
 * index {@code (i + 1) * STRIDE} of one array, so the hot-path writer of one counter never
 * invalidates the line that holds another (or the array header), and a monitoring reader does
 * not slow the writer down more than one line's worth.
 */
final class PaddedCounters {
    /** 16 longs = 128 bytes: two cache lines, which also defeats adjacent-line prefetch. */
    private static final int STRIDE = 16;

    private final AtomicLongArray values;

    PaddedCounters(final int counters) {
        this.values = new AtomicLongArray((counters + 2) * STRIDE);
    }

    /** Adds one. Only the counter's one writing thread may call this. */
    void increment(final int counter) {
        add(counter, 1L);
    }

    /** Adds {@code delta}. Only the counter's one writing thread may call this. */
    void add(final int counter, final long delta) {
        final int index = (counter + 1) * STRIDE;
        // plain load: this thread is the only writer, so it reads its own last store; release
        // store: a reader's acquire load sees the count with everything written before it (no
        // atomic read-modify-write needed with one writer, so no lock-prefixed instruction)
        values.setRelease(index, values.getPlain(index) + delta);
    }

    /** The counter's value, from any thread. */
    long get(final int counter) {
        // acquire load: pairs with the writer's release store
        return values.getAcquire((counter + 1) * STRIDE);
    }
}
