package dev.slipstream.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.EnumMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the lock-free queues did besides moving elements, counted for a benchmark or a diagnosis:
 * positions an enqueuer or dequeuer took in vain, cells a dequeuer made unusable, cells an
 * enqueuer found still occupied, rings closed
 * and added, CASes that failed on the slow paths. Off unless the JVM starts with
 * {@code -Dslipstream.queue.counters=true}; off, every count is a test of a {@code static final}
 * false that the JIT removes, and the counts sit only on the queues' slow paths (a position that
 * missed, a ring that filled), never on an offer or poll that succeeds at its first position.
 *
 * <p>The counts are the whole JVM's (every {@link LprqQueue}, {@link LscqQueue} and
 * {@link ScqQueue} together), kept per thread so that counting adds no contention. Read them once
 * the threads that did the work have finished (joined): the totals are then exact.
 *
 * <pre>{@code
 * // java -Dslipstream.queue.counters=true ...
 * QueueCounters.reset();
 * runWorkload(queue);                                  // its threads joined
 * Map<QueueCounters.Event, Long> counts = QueueCounters.snapshot();
 * long perMillion = counts.get(QueueCounters.Event.ENQUEUE_RETRY) * 1_000_000 / operations;
 * }</pre>
 *
 * <p>Memory ordering: each thread's counts are written with opaque stores by that thread alone
 * and read with opaque loads by {@link #snapshot()}, so a reading thread never sees a torn value;
 * joining the counting threads first makes the reading exact.
 */
public final class QueueCounters {
    /** The system property that turns counting on: {@code -Dslipstream.queue.counters=true}. */
    public static final String PROPERTY = "slipstream.queue.counters";

    /** Read once: the JIT folds every count away when it is false. */
    static final boolean ENABLED = Boolean.getBoolean(PROPERTY);

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final Queue<long[]> ALL_THREADS = new ConcurrentLinkedQueue<>();
    private static final ThreadLocal<long[]> THIS_THREAD = ThreadLocal.withInitial(() -> {
        final long[] counts = new long[Event.values().length];
        ALL_THREADS.add(counts);
        return counts;
    });

    /** What is counted. */
    public enum Event {
        /** An enqueuer's position that could not take its element (it takes another). */
        ENQUEUE_RETRY,
        /** A dequeuer's position that gave no element (it takes another, or finds the queue empty). */
        DEQUEUE_RETRY,
        /** A cell a dequeuer passed and made unusable for its lap (an enqueuer of that lap retries). */
        CELL_PASSED,
        /**
         * An LPRQ enqueuer's position whose cell still held an older lap's element or another
         * enqueuer's claim, so that its claim failed (it takes another position, also counted as
         * an {@link #ENQUEUE_RETRY}): what separates a ring too small or consumers too slow from
         * positions lost to dequeuers that passed.
         */
        CELL_OCCUPIED,
        /** A spin of a dequeuer waiting for the enqueuer that holds its position. */
        ENQUEUER_WAIT,
        /** A ring closed to enqueuers because it was full or an enqueuer was starving. */
        RING_CLOSED,
        /** A new ring linked after a closed one. */
        RING_ADDED,
        /** A tail moved up to the head after dequeuers overran it. */
        TAIL_FIXED,
        /** A CAS on a slow path that lost to another thread. */
        CAS_FAILED
    }

    private QueueCounters() {
    }

    /** @return whether counting is on (the system property {@value #PROPERTY} was true at start) */
    public static boolean enabled() {
        return ENABLED;
    }

    /** Counts one {@code event} for the calling thread; nothing when counting is off. */
    static void count(final Event event) {
        if (ENABLED) {
            final long[] counts = THIS_THREAD.get();
            // the owner is the only writer: a plain read of its own count, an opaque store for readers
            COUNTS.setOpaque(counts, event.ordinal(), (long) COUNTS.getOpaque(counts, event.ordinal()) + 1);
        }
    }

    /**
     * @return every event's total over all threads since the start or the last {@link #reset()};
     *         all zero when counting is off
     */
    public static Map<Event, Long> snapshot() {
        final Map<Event, Long> totals = new EnumMap<>(Event.class);
        for (final Event event : Event.values()) {
            long total = 0;
            for (final long[] counts : ALL_THREADS) {
                total += (long) COUNTS.getOpaque(counts, event.ordinal());
            }
            totals.put(event, total);
        }
        return totals;
    }

    /** Sets every count to zero; call it while no queue is in use (a count made meanwhile may be lost). */
    public static void reset() {
        for (final long[] counts : ALL_THREADS) {
            for (int i = 0; i < counts.length; i++) {
                COUNTS.setOpaque(counts, i, 0L);
            }
        }
    }
}
