package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageGroup;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.topology.WakePolicy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.LiteBlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Soak tests of every topology through the DSL: a large, bounded number of events with checksums
 * (no loss, no duplicate, order kept where the topology promises it, downstream stages never ahead
 * of upstream ones), a seeded 1% of handler calls throwing, and either a full drain or a shutdown
 * at a seeded random moment while the producers are still publishing: every event whose publish
 * returned before the shutdown call must have gone through every stage.
 *
 * <p>Threads outnumber the two cores of the CI machine, so the stages wait with yielding,
 * blocking or hybrid strategies, never busy-spin. Sizes keep each case well under a minute.
 */
@Timeout(120)
class TopologySoakTest {
    private static final long SEED = Long.getLong("soak.seed", 20_261_120L);
    private static final int EVENTS_PER_PRODUCER = Integer.getInteger("soak.events", 200_000);

    enum Topology { PIPELINE, MULTICAST, DIAMOND, FAN_IN, WORK_POOL, POOL_IN_PIPELINE }

    static Stream<Arguments> cases() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Topology topology : Topology.values()) {
            cases.add(Arguments.of(topology, false));
            cases.add(Arguments.of(topology, true));
        }
        return cases.stream();
    }

    /** Counts exceptions instead of logging them: 1% of a soak run would flood the log. */
    private static final class Counting implements ExceptionHandler<SoakEvent> {
        final AtomicLong count = new AtomicLong();

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final SoakEvent event) {
            count.incrementAndGet();
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
        }
    }

    @ParameterizedTest(name = "{0}, shutdown under load: {1}")
    @MethodSource("cases")
    void everyPublishedEventGoesThroughEveryStage(final Topology topology, final boolean shutdownUnderLoad)
            throws Exception {
        final int producers = topology == Topology.FAN_IN ? 3 : 1;
        final SplittableRandom random = new SplittableRandom(SEED ^ topology.ordinal() * 31L ^ (shutdownUnderLoad ? 7 : 0));
        final Supplier<WaitStrategy> waits = switch (topology) {
            case PIPELINE -> YieldingWaitStrategy::new;
            case MULTICAST -> BlockingWaitStrategy::new;
            case DIAMOND, FAN_IN -> HybridWaitStrategy::new;
            case WORK_POOL -> LiteBlockingWaitStrategy::new;
            case POOL_IN_PIPELINE -> YieldingWaitStrategy::new;
        };
        final Counting exceptions = new Counting();
        final Slipstream<SoakEvent> pipeline = Slipstream.builder(SoakEvent::new)
                .name("soak-" + topology.name().toLowerCase())
                .ringSize(1024)
                .producers(producers > 1 || topology == Topology.DIAMOND ? ProducerType.MULTI : ProducerType.SINGLE)
                .waitStrategy(waits.get())
                .exceptionHandler(exceptions)
                .build();

        // stages whose every event must be seen (ordered) and pool workers (each event once between them)
        final List<Recorder> ordered = new ArrayList<>();
        final List<Recorder> pool = new ArrayList<>();
        switch (topology) {
            case PIPELINE -> {
                final Recorder a = new Recorder(producers, 0, SEED + 1);
                final Recorder b = new Recorder(producers, 1, SEED + 2, 0);
                final Recorder c = new Recorder(producers, -1, SEED + 3, 0, 1);
                pipeline.handleEventsWith(StageSpec.of("a", a)).then(StageSpec.of("b", b)).then(StageSpec.of("c", c));
                ordered.addAll(List.of(a, b, c));
            }
            case MULTICAST -> {
                final Recorder a = new Recorder(producers, 0, SEED + 1);
                final Recorder b = new Recorder(producers, 1, SEED + 2);
                final Recorder c = new Recorder(producers, 2, SEED + 3);
                pipeline.handleEventsWith(StageSpec.of("a", a), StageSpec.of("b", b), StageSpec.of("c", c));
                ordered.addAll(List.of(a, b, c));
            }
            case DIAMOND -> {
                final Recorder a = new Recorder(producers, 0, SEED + 1);
                final Recorder b = new Recorder(producers, 1, SEED + 2);
                final Recorder c = new Recorder(producers, -1, SEED + 3, 0, 1);
                final StageGroup<SoakEvent> ab = pipeline.handleEventsWith(StageSpec.of("a", a), StageSpec.of("b", b));
                pipeline.after(ab).handleEventsWith(StageSpec.of("c", c));
                ordered.addAll(List.of(a, b, c));
            }
            case FAN_IN -> {
                final Recorder c = new Recorder(producers, -1, SEED + 1);
                pipeline.handleEventsWith(StageSpec.of("c", c));
                ordered.add(c);
            }
            case WORK_POOL, POOL_IN_PIPELINE -> {
                for (int i = 0; i < 3; i++) {
                    pool.add(new Recorder(producers, 1, SEED + 10 + i, topology == Topology.WORK_POOL ? new int[0] : new int[] {0}));
                }
                final EventHandler<SoakEvent>[] workers = pool.toArray(new Recorder[0]);
                final StageSpec<SoakEvent> poolSpec = StageSpec.workerPool("pool", workers).maxBatchSize(16)
                        .wakePolicy(topology == Topology.WORK_POOL ? WakePolicy.BIASED : WakePolicy.UNBIASED);
                if (topology == Topology.WORK_POOL) {
                    pipeline.handleEventsWith(poolSpec);
                } else {
                    final Recorder a = new Recorder(producers, 0, SEED + 1);
                    final Recorder c = new Recorder(producers, -1, SEED + 3, 0, 1);
                    pipeline.handleEventsWith(StageSpec.of("a", a)).then(poolSpec).then(StageSpec.of("c", c));
                    ordered.add(a);
                    ordered.add(c);
                }
            }
            default -> throw new AssertionError(topology);
        }

        pipeline.start();
        final AtomicLongArray published = new AtomicLongArray(producers);
        final AtomicLongArray confirmedBeforeShutdown = new AtomicLongArray(producers);
        final long[] stopAfter = {shutdownUnderLoad
                ? random.nextLong(EVENTS_PER_PRODUCER / 10, EVENTS_PER_PRODUCER / 2) * producers : Long.MAX_VALUE};
        final java.util.concurrent.atomic.AtomicBoolean shutdownCalled = new java.util.concurrent.atomic.AtomicBoolean();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int producer = p;
            final Thread thread = new Thread(() -> {
                try {
                    for (long v = 0; v < EVENTS_PER_PRODUCER; v++) {
                        pipeline.publishEvent(SoakEvent::fill, producer, v);
                        published.incrementAndGet(producer);
                        // read after the publish returned: if false, shutdown had not been called yet
                        if (!shutdownCalled.get()) {
                            confirmedBeforeShutdown.incrementAndGet(producer);
                        }
                    }
                } catch (SequencerClosedException closed) {
                    // the shutdown closed the ring under us: expected when shutting down under load
                }
            }, "soak-producer-" + p);
            threads.add(thread);
            thread.start();
        }

        final ShutdownResult result;
        if (shutdownUnderLoad) {
            while (totalOf(published) < stopAfter[0] && anyAlive(threads)) {
                Thread.onSpinWait();
                Thread.yield();
            }
            shutdownCalled.set(true);
            result = pipeline.shutdown(Duration.ofSeconds(60));
            for (final Thread thread : threads) {
                thread.join();
            }
        } else {
            for (final Thread thread : threads) {
                thread.join();
            }
            shutdownCalled.set(true);
            result = pipeline.shutdown(Duration.ofSeconds(60));
        }

        // the seeded failures are skipped events: drained, ended and without failure, but not clean
        assertTrue(result.isDrained() && result.failures().isEmpty(), result::toString);
        assertTrue(result.isTerminated(), result::toString);
        assertFalse(result.isClean(), "seeded exceptions were skipped: " + result);
        if (!shutdownUnderLoad) {
            for (int p = 0; p < producers; p++) {
                assertEquals(EVENTS_PER_PRODUCER, published.get(p));
            }
        }
        long expectedThrows = 0;
        for (final Recorder stage : ordered) {
            for (int p = 0; p < producers; p++) {
                final long seen = stage.count[p];
                // every event confirmed before the shutdown call went through; nothing beyond what was published
                assertTrue(seen >= confirmedBeforeShutdown.get(p),
                        "stage saw " + seen + " of producer " + p + ", confirmed before shutdown " + confirmedBeforeShutdown.get(p));
                assertTrue(seen <= published.get(p), "stage saw " + seen + " but only " + published.get(p) + " were published");
                // ordered stages see exactly the prefix 0..seen-1 of each producer, once each, in order
                assertEquals(seen * (seen - 1) / 2, stage.sum[p], "checksum of producer " + p);
                assertEquals(seen, stage.seen[p].cardinality());
            }
            assertEquals(0, stage.orderViolations, "order kept");
            assertEquals(0, stage.duplicates, "no duplicate");
            assertEquals(0, stage.upstreamViolations, "never ahead of an upstream stage");
        }
        if (!pool.isEmpty()) {
            for (int p = 0; p < producers; p++) {
                final BitSet union = new BitSet();
                long total = 0;
                for (final Recorder worker : pool) {
                    assertFalse(union.intersects(worker.seen[p]), "an event went to two workers");
                    union.or(worker.seen[p]);
                    total += worker.count[p];
                    assertEquals(0, worker.upstreamViolations, "a worker saw an event before its upstream stage");
                    assertEquals(0, worker.duplicates);
                }
                assertEquals(total, union.cardinality());
                assertTrue(total >= confirmedBeforeShutdown.get(p) && total <= published.get(p), "pool handled " + total);
                assertEquals(total, union.nextClearBit(0), "the pool handled a prefix of the events, without gaps");
            }
        }
        for (final Recorder stage : ordered) {
            expectedThrows += expectedFailures(stage);
        }
        for (final Recorder worker : pool) {
            expectedThrows += expectedFailures(worker);
        }
        assertTrue(expectedThrows > 0, "the seeded failures happened");
        assertEquals(expectedThrows, exceptions.count.get(), "every thrown exception reached the exception handler");
        assertEquals(expectedThrows, result.totalEventsSkipped(), "the result counts every skipped event: " + result);
    }

    /** How many of the events a stage saw its seeded 1% failure rule made it throw on; checks its own count. */
    private static long expectedFailures(final Recorder stage) {
        long expected = 0;
        for (int p = 0; p < stage.seen.length; p++) {
            final BitSet seen = stage.seen[p];
            for (int v = seen.nextSetBit(0); v >= 0; v = seen.nextSetBit(v + 1)) {
                if (Recorder.fails(p, v, stage.failSeed())) {
                    expected++;
                }
            }
        }
        assertEquals(expected, stage.thrown, "throws of one stage");
        return expected;
    }

    private static long totalOf(final AtomicLongArray counts) {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) {
            total += counts.get(i);
        }
        return total;
    }

    private static boolean anyAlive(final List<Thread> threads) {
        for (final Thread thread : threads) {
            if (thread.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
