package dev.slipstream.queue;

/**
 * Opens the package-private constructors that start the counters at a chosen position, for the
 * soak tests in {@code dev.slipstream.stress.queue}. Lives in the test sources of the stress
 * module only; the library does not export these constructors.
 */
public final class QueueTestAccess {
    private QueueTestAccess() {
    }

    /**
     * A bounded queue whose ring counters start at {@code start}.
     *
     * @param <E> element type
     * @param capacity a power of two
     * @param start any 64-bit value
     * @return the queue
     */
    public static <E> ScqQueue<E> scq(final int capacity, final long start) {
        return new ScqQueue<>(capacity, true, start);
    }

    /**
     * An unbounded queue whose every segment's counters start at {@code start}.
     *
     * @param <E> element type
     * @param segmentCapacity a power of two
     * @param start 0 to 2^62
     * @return the queue
     */
    public static <E> LscqQueue<E> lscq(final int segmentCapacity, final long start) {
        return new LscqQueue<>(segmentCapacity, true, start);
    }

    /**
     * Segments allocated so far.
     *
     * @param q the queue
     * @return the count, the first segment included
     */
    public static long segmentsAllocated(final LscqQueue<?> q) {
        return q.segmentsAllocated();
    }
}
