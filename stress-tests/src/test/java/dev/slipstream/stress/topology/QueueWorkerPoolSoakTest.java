package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.topology.QueueWorkerPool;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.WakePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Soak test of the queue-fed work pool: two producers that never block, three workers, a seeded
 * 1% of handler calls throwing, and a full drain or a shutdown at a seeded moment under load.
 * Every item whose offer returned before the shutdown call is handled exactly once.
 */
@Timeout(120)
class QueueWorkerPoolSoakTest {
    private static final long SEED = Long.getLong("soak.seed", 20_261_120L);
    private static final int PER_PRODUCER = Integer.getInteger("soak.events", 200_000);
    private static final int PRODUCERS = 2;

    /** Records items per producer; items are {@code producer << 32 | value}. */
    private static final class Worker implements EventHandler<Long> {
        final BitSet[] seen = {new BitSet(), new BitSet()};
        long duplicates;
        long thrown;

        @Override
        public void onEvent(final Long item, final long sequence, final boolean endOfBatch) {
            final int producer = (int) (item >>> 32);
            final int value = (int) (long) item;
            if (seen[producer].get(value)) {
                duplicates++;
            }
            seen[producer].set(value);
            if (Recorder.fails(producer, value, SEED)) {
                thrown++;
                throw new IllegalStateException("seeded failure");
            }
        }
    }

    @ParameterizedTest(name = "{0}, shutdown under load: {1}")
    @CsvSource({"BIASED, false", "BIASED, true", "UNBIASED, false", "UNBIASED, true"})
    void everyAcceptedItemIsHandledOnce(final WakePolicy policy, final boolean shutdownUnderLoad) throws Exception {
        final AtomicLong exceptions = new AtomicLong();
        final List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        final QueueWorkerPool<Long> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Long>())
                .handlers(workers.get(0), workers.get(1), workers.get(2))
                .wakePolicy(policy).batchSize(16).name("soak-pool")
                .exceptionHandler(new ExceptionHandler<Long>() {
                    @Override
                    public void handleEventException(final Throwable ex, final long sequence, final Long event) {
                        exceptions.incrementAndGet();
                    }

                    @Override
                    public void handleOnStartException(final Throwable ex) {
                    }

                    @Override
                    public void handleOnShutdownException(final Throwable ex) {
                    }
                }).build();
        pool.start();
        final AtomicLongArray accepted = new AtomicLongArray(PRODUCERS);
        final AtomicLongArray acceptedBeforeShutdown = new AtomicLongArray(PRODUCERS);
        final AtomicBoolean shutdownCalled = new AtomicBoolean();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            final long producer = p;
            final Thread thread = new Thread(() -> {
                try {
                    for (long v = 0; v < PER_PRODUCER; v++) {
                        assertTrue(pool.offer(producer << 32 | v));
                        accepted.incrementAndGet((int) producer);
                        if (!shutdownCalled.get()) {
                            acceptedBeforeShutdown.incrementAndGet((int) producer);
                        }
                    }
                } catch (IllegalStateException shutDown) {
                    // offers after the shutdown are refused
                }
            });
            threads.add(thread);
            thread.start();
        }
        if (shutdownUnderLoad) {
            final long stopAfter = new SplittableRandom(SEED ^ policy.ordinal()).nextLong(PER_PRODUCER / 10, PER_PRODUCER);
            while (accepted.get(0) + accepted.get(1) < stopAfter && (threads.get(0).isAlive() || threads.get(1).isAlive())) {
                Thread.yield();
            }
        } else {
            for (final Thread thread : threads) {
                thread.join();
            }
        }
        shutdownCalled.set(true);
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(60));
        for (final Thread thread : threads) {
            thread.join();
        }
        assertTrue(result.isTerminated(), result::toString);
        long thrown = 0;
        long handledTotal = 0;
        for (int p = 0; p < PRODUCERS; p++) {
            final BitSet union = new BitSet();
            for (final Worker worker : workers) {
                assertFalse(union.intersects(worker.seen[p]), "an item went to two workers");
                union.or(worker.seen[p]);
            }
            final long handled = union.cardinality();
            assertTrue(handled >= acceptedBeforeShutdown.get(p), "handled " + handled + " of "
                    + acceptedBeforeShutdown.get(p) + " accepted before the shutdown");
            // the queue is FIFO and the workers stop only once it is empty: what they left is the newest
            assertEquals(handled, union.nextClearBit(0), "handled items are a prefix of what was offered");
            handledTotal += handled;
        }
        assertEquals(accepted.get(0) + accepted.get(1), handledTotal + result.eventsLeft("soak-pool"),
                "every accepted item was handled or is reported as left in the queue");
        for (final Worker worker : workers) {
            assertEquals(0, worker.duplicates);
            thrown += worker.thrown;
        }
        assertTrue(thrown > 0, "the seeded failures happened");
        assertEquals(thrown, exceptions.get());
        assertEquals(thrown, result.eventsSkipped("soak-pool"), "the result counts every skipped item: " + result);
        if (!shutdownUnderLoad) {
            assertTrue(result.isDrained() && result.isTerminated() && result.failures().isEmpty(), result::toString);
            assertFalse(result.isClean(), "seeded exceptions were skipped: " + result);
            assertEquals(2L * PER_PRODUCER, pool.eventsProcessed());
        }
    }
}
