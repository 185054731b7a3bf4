package dev.slipstream.stress.queue;

import dev.slipstream.queue.LprqQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Producers offering while another thread closes the queue, then drains it until
 * {@code isDrained()}; over many rounds, with exact accounting. Each producer offers its values
 * {@code (id << 40) | seq} until an offer is refused, or until it has made one offer that began
 * after {@code close()} returned (waiting for the close once it has offered as many as the
 * round allows, so that the backlog stays small). Counted per round: accepted values the drain did not get
 * (lost, or polled only after {@code isDrained()} said true), values polled that no offer
 * accepted or polled twice, and offers that began after {@code close()} returned and succeeded.
 */
public final class LprqCloseRace {
    /** What a round needs of the queue. */
    public interface Subject {
        /**
         * Offers.
         *
         * @param e the value
         * @return whether accepted
         */
        boolean offer(Long e);

        /**
         * Polls.
         *
         * @return the value, or null
         */
        Long poll();

        /** Closes the queue to producers. */
        void close();

        /**
         * Whether closed and every accepted value taken.
         *
         * @return the answer
         */
        boolean isDrained();
    }

    /** How long a drain or a producer may take after the close before the round counts it as stuck. */
    private static final long STUCK_NANOS = TimeUnit.SECONDS.toNanos(5);

    private LprqCloseRace() {
    }

    /**
     * The subject over a real {@link LprqQueue}.
     *
     * @param q the queue
     * @return the subject
     */
    static Subject of(final LprqQueue<Long> q) {
        return new Subject() {
            @Override
            public boolean offer(final Long e) {
                return q.offer(e);
            }

            @Override
            public Long poll() {
                return q.poll();
            }

            @Override
            public void close() {
                q.close();
            }

            @Override
            public boolean isDrained() {
                return q.isDrained();
            }
        };
    }

    /**
     * What the rounds found.
     *
     * @param rounds rounds run
     * @param accepted offers that returned true, all rounds
     * @param roundsWithLoss rounds where an accepted value was not drained before isDrained()
     * @param lost accepted values not drained before isDrained(), all rounds
     * @param phantoms values polled twice, or polled without an offer that returned true
     * @param lateAccepted offers that began after close() returned and returned true
     * @param stuck rounds whose drain or producers did not end
     */
    record Outcome(long rounds, long accepted, long roundsWithLoss, long lost, long phantoms, long lateAccepted,
            long stuck) {
        boolean clean() {
            return roundsWithLoss == 0 && lost == 0 && phantoms == 0 && lateAccepted == 0 && stuck == 0;
        }
    }

    /**
     * Runs rounds until {@code rounds} have run or {@code budgetNanos} has passed.
     *
     * @param factory a fresh queue per round
     * @param rounds the most rounds
     * @param budgetNanos the most time
     * @param producers producer threads
     * @param maxAcceptedBeforeClose the close comes after a random number of accepted values,
     *     up to this; each producer offers at most this many before the close returns
     * @param maxJitterNanos and after a random time, up to this (so that the close does not
     *     always follow an offer's return)
     * @return the findings
     * @throws InterruptedException if interrupted
     */
    static Outcome run(final Supplier<Subject> factory, final int rounds, final long budgetNanos, final int producers,
            final int maxAcceptedBeforeClose, final long maxJitterNanos) throws InterruptedException {
        final long deadline = System.nanoTime() + budgetNanos;
        long done = 0;
        long accepted = 0;
        long roundsWithLoss = 0;
        long lost = 0;
        long phantoms = 0;
        long lateAccepted = 0;
        long stuck = 0;
        while (done < rounds && System.nanoTime() < deadline) {
            final Subject q = factory.get();
            final AtomicBoolean go = new AtomicBoolean();
            final AtomicBoolean closeReturned = new AtomicBoolean();
            final AtomicLong acceptedNow = new AtomicLong();
            final AtomicLong late = new AtomicLong();
            final List<List<Long>> acceptedBy = new ArrayList<>();
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                final long id = p;
                final List<Long> mine = new ArrayList<>();
                acceptedBy.add(mine);
                final Thread t = new Thread(() -> {
                    while (!go.get()) {
                        Thread.onSpinWait();
                    }
                    for (long seq = 0; ; seq++) {
                        if (seq == maxAcceptedBeforeClose) {
                            // enough for the round: keep the backlog small, make one more
                            // offer once the close has returned
                            while (!closeReturned.get()) {
                                Thread.yield(); // let the closing thread run on two cores
                            }
                        }
                        // read before the offer begins: true means close() had returned
                        final boolean afterClose = closeReturned.get();
                        final Long value = (id << 40) | seq;
                        final boolean ok = q.offer(value);
                        if (ok) {
                            mine.add(value);
                            acceptedNow.incrementAndGet();
                            if (afterClose) {
                                late.incrementAndGet();
                            }
                        }
                        if (!ok || afterClose) {
                            break;
                        }
                    }
                }, "close-race producer " + p);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            final long closeAfter = ThreadLocalRandom.current().nextInt(maxAcceptedBeforeClose + 1);
            go.set(true);
            final long waitUntil = System.nanoTime() + STUCK_NANOS;
            while (acceptedNow.get() < closeAfter && System.nanoTime() < waitUntil) {
                Thread.onSpinWait();
            }
            final long jitterUntil = System.nanoTime() + ThreadLocalRandom.current().nextLong(maxJitterNanos + 1);
            while (System.nanoTime() < jitterUntil) {
                Thread.onSpinWait();
            }
            q.close();
            closeReturned.set(true);
            final List<Long> drained = new ArrayList<>();
            boolean roundStuck = false;
            final long drainUntil = System.nanoTime() + STUCK_NANOS;
            while (!q.isDrained()) {
                final Long v = q.poll();
                if (v != null) {
                    drained.add(v);
                } else if (System.nanoTime() > drainUntil) {
                    roundStuck = true;
                    break;
                } else {
                    Thread.onSpinWait();
                }
            }
            for (final Thread t : threads) {
                t.join(TimeUnit.NANOSECONDS.toMillis(STUCK_NANOS));
                if (t.isAlive()) {
                    roundStuck = true;
                }
            }
            if (roundStuck) {
                stuck++;
                done++;
                continue;
            }
            final Set<Long> acceptedValues = new HashSet<>();
            for (final List<Long> mine : acceptedBy) {
                acceptedValues.addAll(mine);
            }
            final Set<Long> seen = new HashSet<>();
            for (final Long v : drained) {
                if (!seen.add(v) || !acceptedValues.contains(v)) {
                    phantoms++;
                }
            }
            long lostNow = 0;
            for (final Long v : acceptedValues) {
                if (!seen.contains(v)) {
                    lostNow++;
                }
            }
            accepted += acceptedValues.size();
            lost += lostNow;
            if (lostNow > 0) {
                roundsWithLoss++;
            }
            lateAccepted += late.get();
            done++;
        }
        return new Outcome(done, accepted, roundsWithLoss, lost, phantoms, lateAccepted, stuck);
    }
}
