package dev.slipstream.stress.queue;

import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The check a user runs on a FIFO queue with many threads: P producers each offer their own
 * sequence 0, 1, 2, ... in order; C consumers poll, and each consumer checks, per producer,
 * that the values it receives only increase (a queue that hands one consumer a producer's
 * element {@code s + 1} and then {@code s} is not linearizable: the offer of {@code s} returned
 * before the offer of {@code s + 1} began). At the end every value must have been received
 * exactly once. More threads than cores: producers and consumers yield when they find the
 * queue full or empty.
 */
final class FifoOrderCheck {
    /** The two operations the check needs, so that any queue (or a mutant copy) can be plugged in. */
    interface Subject {
        boolean offer(Long e);

        Long poll();
    }

    /** What one run found. */
    static final class Result {
        final long orderViolations;
        final long duplicates;
        final long lost;
        final String firstViolation;

        Result(final long orderViolations, final long duplicates, final long lost, final String firstViolation) {
            this.orderViolations = orderViolations;
            this.duplicates = duplicates;
            this.lost = lost;
            this.firstViolation = firstViolation;
        }

        boolean clean() {
            return orderViolations == 0 && duplicates == 0 && lost == 0;
        }

        @Override
        public String toString() {
            return orderViolations + " order violations, " + duplicates + " duplicated, " + lost + " lost"
                    + (firstViolation == null ? "" : "; first: " + firstViolation);
        }
    }

    private static final long SEQ_MASK = (1L << 40) - 1;

    private FifoOrderCheck() {
    }

    /**
     * Runs one round.
     *
     * @param subject the queue, new and empty
     * @param producers producer threads
     * @param consumers consumer threads
     * @param perProducer values each producer offers
     * @param stopAtFirstViolation whether to end the round as soon as one consumer sees a
     *     violation (for a proof that only needs one)
     * @param timeout how long the round may take before what is missing counts as lost
     * @return what the round found
     * @throws InterruptedException if interrupted while joining
     */
    static Result run(final Subject subject, final int producers, final int consumers, final int perProducer,
            final boolean stopAtFirstViolation, final long timeout, final TimeUnit unit) throws InterruptedException {
        final long total = (long) producers * perProducer;
        final AtomicLong received = new AtomicLong();
        final AtomicLong violations = new AtomicLong();
        final AtomicReference<String> first = new AtomicReference<>();
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        final BitSet[][] seen = new BitSet[consumers][producers];
        final Thread[] threads = new Thread[producers + consumers];
        for (int p = 0; p < producers; p++) {
            final long id = p;
            threads[p] = new Thread(() -> {
                for (long s = 0; s < perProducer; s++) {
                    final Long value = (id << 40) | s;
                    while (!subject.offer(value)) {
                        if (System.nanoTime() > deadline || (stopAtFirstViolation && first.get() != null)) {
                            return;
                        }
                        Thread.yield();
                    }
                }
            }, "fifo-producer-" + p);
        }
        for (int c = 0; c < consumers; c++) {
            final BitSet[] mine = seen[c];
            for (int p = 0; p < producers; p++) {
                mine[p] = new BitSet();
            }
            final int consumer = c;
            threads[producers + c] = new Thread(() -> {
                final long[] last = new long[producers];
                java.util.Arrays.fill(last, -1L);
                while (received.get() < total && System.nanoTime() < deadline) {
                    if (stopAtFirstViolation && first.get() != null) {
                        return;
                    }
                    final Long v = subject.poll();
                    if (v == null) {
                        Thread.yield();
                        continue;
                    }
                    received.incrementAndGet();
                    final int p = (int) (v >>> 40);
                    final long s = v & SEQ_MASK;
                    if (s <= last[p]) {
                        violations.incrementAndGet();
                        first.compareAndSet(null, "consumer " + consumer + " received producer " + p + "'s element "
                                + last[p] + ", then " + s);
                    }
                    last[p] = Math.max(last[p], s);
                    mine[p].set((int) s);
                }
            }, "fifo-consumer-" + c);
        }
        for (final Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        for (final Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()) + 1_000));
        }
        long duplicates = 0;
        long lost = 0;
        for (int p = 0; p < producers; p++) {
            final BitSet all = new BitSet();
            long count = 0;
            for (int c = 0; c < consumers; c++) {
                count += seen[c][p].cardinality();
                all.or(seen[c][p]);
            }
            duplicates += count - all.cardinality();
            lost += perProducer - all.cardinality();
        }
        if (stopAtFirstViolation && first.get() != null) {
            lost = 0; // the round was cut short on purpose: what was not received is not lost
        }
        return new Result(violations.get(), duplicates, lost, first.get());
    }
}
