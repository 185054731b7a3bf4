package dev.slipstream.stress.topology;

import dev.slipstream.ring.ProducerType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The race of a shutdown (or halt, or close from another thread) against producers that are still
 * publishing, with exact accounting per stage and per producer:
 * <pre>
 *   accepted (publishes that returned normally) == handled by the stage + reported left by the stage
 * </pre>
 * and, when the result says clean, every accepted event of every producer was handled by every
 * stage. A publish that threw was not accepted and must not be counted. The subject is either the
 * real pipeline or a mutant (a copy of the lifecycle logic with one check removed): the same check
 * must find no loss in the first and some in the second.
 */
final class ShutdownRace {
    /** How the round ends. */
    enum Stop { SHUTDOWN, HALT, CLOSE_FROM_ANOTHER_THREAD }

    /** Something that runs two stages (a, then b) and can be stopped. */
    interface Subject {
        /** Publishes; returns normally if and only if accepted. */
        void publish(int producer, long index);

        /** Stops as asked and reports. */
        Report stop(Stop how) throws InterruptedException;
    }

    /** What the subject said when it stopped. */
    record Report(boolean clean, boolean terminated, long[] leftPerStage) {
    }

    /** Makes a fresh subject per round around the two ledgers. */
    interface Factory {
        Subject create(ProducerType type, int ringSize, StageLedger a, StageLedger b);
    }

    /** The totals of a run. */
    record Outcome(int rounds, long accepted, int roundsWithLoss, long lost, int cleanButLost, long overReported,
                   long duplicates, int notTerminated) {
        boolean exact() {
            return roundsWithLoss == 0 && cleanButLost == 0 && overReported == 0 && duplicates == 0;
        }
    }

    private ShutdownRace() {
    }

    /**
     * Runs rounds until {@code rounds} or the budget is spent.
     *
     * @param slowEvery one publish in this many takes 20 microseconds to {@code maxSlowNanos} in
     *     its translator
     */
    static Outcome run(final Factory factory, final ProducerType type, final Stop how, final int rounds,
                       final long budgetNanos, final long seed, final int slowEvery, final long maxSlowNanos)
            throws InterruptedException {
        final int producers = type == ProducerType.SINGLE ? 1 : 3;
        final SplittableRandom random = new SplittableRandom(seed);
        final long deadline = System.nanoTime() + budgetNanos;
        int done = 0;
        int withLoss = 0;
        int cleanButLost = 0;
        int notTerminated = 0;
        long lost = 0;
        long over = 0;
        long accepted = 0;
        long duplicates = 0;
        while (done < rounds && System.nanoTime() < deadline) {
            final StageLedger a = new StageLedger(producers);
            final StageLedger b = new StageLedger(producers);
            final Subject subject = factory.create(type, 64, a, b);
            final long[] acceptedPer = new long[producers];
            final List<Thread> threads = new ArrayList<>();
            final long roundSeed = random.nextLong();
            for (int p = 0; p < producers; p++) {
                final int producer = p;
                final Thread t = new Thread(() -> {
                    final SplittableRandom r = new SplittableRandom(roundSeed + producer);
                    long index = 0;
                    try {
                        while (index < 1_000_000) {
                            final boolean slow = r.nextInt(slowEvery) == 0;
                            if (slow) {
                                SlowTranslator.nanos.set(r.nextLong(20_000, maxSlowNanos));
                            }
                            subject.publish(producer, index);
                            index++;
                        }
                    } catch (IllegalStateException notAccepted) {
                        // SequencerClosedException or a pool's refusal: not accepted, not counted
                    }
                    acceptedPer[producer] = index;
                }, "race-producer-" + p);
                threads.add(t);
                t.start();
            }
            LockSupport.parkNanos(random.nextLong(50_000, 3_000_000));
            final Report report = subject.stop(how);
            for (final Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            long total = 0;
            for (final long n : acceptedPer) {
                total += n;
            }
            accepted += total;
            if (!report.terminated()) {
                notTerminated++;
                done++;
                continue;
            }
            boolean roundLost = false;
            final StageLedger[] ledgers = {a, b};
            for (int s = 0; s < 2; s++) {
                final long handled = ledgers[s].handledAccepted(acceptedPer);
                final long missing = total - handled - report.leftPerStage()[s];
                if (missing > 0) {
                    lost += missing;
                    roundLost = true;
                } else if (missing < 0) {
                    over -= missing;
                }
                duplicates += ledgers[s].duplicates;
                if (report.clean() && handled != total) {
                    cleanButLost++;
                }
            }
            if (roundLost) {
                withLoss++;
            }
            done++;
        }
        return new Outcome(done, accepted, withLoss, lost, cleanButLost, over, duplicates, notTerminated);
    }

    /** The translator's delay for the next publish of this thread (0: none). */
    static final class SlowTranslator {
        static final ThreadLocal<Long> nanos = ThreadLocal.withInitial(() -> 0L);

        private SlowTranslator() {
        }

        static void write(final AccountEvent event, final long sequence, final int producer, final long index) {
            final long delay = nanos.get();
            if (delay > 0) {
                nanos.set(0L);
                LockSupport.parkNanos(delay);
            }
            AccountEvent.set(event, sequence, producer, index);
        }
    }
}
