package dev.slipstream.stress.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.QueueWorkerPool;
import dev.slipstream.topology.ShutdownResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Offers racing a shutdown of a queue-fed pool, with exact accounting: accepted offers (returned
 * true) == items handled by the workers + items the result reports as left; and a clean result
 * means every accepted item was handled. The real {@link QueueWorkerPool} against
 * {@link NoInFlightMutant}, a copy of its shutdown without the wait for offers in flight.
 */
final class QueueOfferRace {
    private static final int PRODUCERS = 3;
    private static final int WORKERS = 2;

    /** An item: producer and index. */
    record Item(int producer, long index) {
    }

    /** One worker's ledger (each item goes to one worker). */
    static final class WorkerLedger implements EventHandler<Item> {
        final java.util.BitSet[] seen = new java.util.BitSet[PRODUCERS];

        WorkerLedger() {
            for (int p = 0; p < PRODUCERS; p++) {
                seen[p] = new java.util.BitSet();
            }
        }

        @Override
        public void onEvent(final Item item, final long sequence, final boolean endOfBatch) {
            seen[item.producer()].set((int) item.index());
        }
    }

    interface Subject {
        /** Offers; returns normally if accepted, throws IllegalStateException if refused. */
        void offer(Item item);

        /** left, or -1 if not terminated; and clean. */
        long[] shutdown() throws InterruptedException;
    }

    interface Factory {
        Subject create(WorkerLedger[] ledgers);
    }

    record Outcome(int rounds, long accepted, int roundsWithLoss, long lost, int cleanButLost, long duplicates) {
        boolean exact() {
            return roundsWithLoss == 0 && cleanButLost == 0 && duplicates == 0;
        }
    }

    private QueueOfferRace() {
    }

    static Outcome run(final Factory factory, final int rounds, final long budgetNanos, final long seed)
            throws InterruptedException {
        final SplittableRandom random = new SplittableRandom(seed);
        final long deadline = System.nanoTime() + budgetNanos;
        int done = 0;
        int withLoss = 0;
        int cleanButLost = 0;
        long lost = 0;
        long accepted = 0;
        long duplicates = 0;
        while (done < rounds && System.nanoTime() < deadline) {
            final WorkerLedger[] ledgers = new WorkerLedger[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                ledgers[w] = new WorkerLedger();
            }
            final Subject subject = factory.create(ledgers);
            final long[] acceptedPer = new long[PRODUCERS];
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                final int producer = p;
                final Thread t = new Thread(() -> {
                    long index = 0;
                    try {
                        while (index < 2_000_000) {
                            subject.offer(new Item(producer, index));
                            index++;
                            if ((index & 63) == 0) {
                                // keep the queue short so the workers often find it empty
                                Thread.yield();
                            }
                        }
                    } catch (IllegalStateException refused) {
                        // not accepted
                    }
                    acceptedPer[producer] = index;
                }, "offer-producer-" + p);
                threads.add(t);
                t.start();
            }
            LockSupport.parkNanos(random.nextLong(50_000, 2_000_000));
            final long[] report = subject.shutdown();
            for (final Thread t : threads) {
                t.join(30_000);
            }
            long total = 0;
            for (final long n : acceptedPer) {
                total += n;
            }
            accepted += total;
            if (report[0] >= 0) {
                long handled = 0;
                long union = 0;
                for (int p = 0; p < PRODUCERS; p++) {
                    final java.util.BitSet all = new java.util.BitSet();
                    for (final WorkerLedger ledger : ledgers) {
                        final java.util.BitSet mine = ledger.seen[p].get(0, (int) acceptedPer[p]);
                        handled += mine.cardinality();
                        all.or(mine);
                    }
                    union += all.cardinality();
                }
                duplicates += handled - union;
                final long missing = total - union - report[0];
                if (missing != 0) {
                    withLoss++;
                    lost += Math.abs(missing);
                }
                if (report[1] == 1 && union != total) {
                    cleanButLost++;
                }
            }
            done++;
        }
        return new Outcome(done, accepted, withLoss, lost, cleanButLost, duplicates);
    }

    /** The real pool. */
    static final class Real implements Subject {
        private final QueueWorkerPool<Item> pool;

        Real(final WorkerLedger[] ledgers) {
            pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Item>()).name("offers")
                    .handlers(ledgers).build();
            pool.start();
        }

        @Override
        public void offer(final Item item) {
            pool.offer(item);
        }

        @Override
        public long[] shutdown() {
            final ShutdownResult result = pool.shutdown(Duration.ofSeconds(10));
            return new long[] {result.isTerminated() ? result.eventsLeft("offers") : -1, result.isClean() ? 1 : 0};
        }
    }

    /**
     * MUTANT: a copy of the queue pool's shutdown without the wait for offers in flight: an offer
     * that passed the stopped check just before the shutdown lands in the queue after the workers
     * ended and after the result was taken. To make that window reachable in a few seconds on two
     * cores, the mutant yields between the check and the queue offer. Test code only.
     */
    static final class NoInFlightMutant implements Subject {
        private final ConcurrentLinkedQueue<Item> queue = new ConcurrentLinkedQueue<>();
        private final List<Thread> workers = new ArrayList<>();
        private volatile boolean stopping;
        private volatile boolean draining;

        NoInFlightMutant(final WorkerLedger[] ledgers) {
            for (final WorkerLedger ledger : ledgers) {
                final Thread t = new Thread(() -> {
                    long n = 0;
                    while (true) {
                        final Item item = queue.poll();
                        if (item == null) {
                            if (draining) {
                                return;
                            }
                            LockSupport.parkNanos(10_000L);
                            continue;
                        }
                        ledger.onEvent(item, n++, true);
                    }
                }, "mutant-worker");
                workers.add(t);
                t.start();
            }
        }

        @Override
        public void offer(final Item item) {
            if (stopping) {
                throw new IllegalStateException("stopped");
            }
            Thread.yield();   // widens the window the real pool closes with its in-flight count
            queue.offer(item);
        }

        @Override
        public long[] shutdown() throws InterruptedException {
            stopping = true;
            // the bug: no wait for offers that passed the check above
            draining = true;
            for (final Thread t : workers) {
                t.join(10_000);
            }
            final long left = queue.size();
            return new long[] {left, left == 0 ? 1 : 0};
        }
    }
}
