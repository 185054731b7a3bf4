package dev.slipstream.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class SlipstreamMetricsTest {
    static final class Cell {
        long value;
    }

    private static Slipstream<Cell> pipeline(final int ringSize) {
        return Slipstream.builder(Cell::new).name("orders").ringSize(ringSize).producers(ProducerType.SINGLE).build();
    }

    @Test
    void stageCountersAndGaugesFollowThePipeline() {
        final Slipstream<Cell> pipeline = pipeline(64);
        final EventHandler<Cell> failing = (cell, sequence, end) -> {
            if (cell.value % 10 == 0) {
                throw new IllegalArgumentException("rejected " + cell.value);
            }
        };
        pipeline.handleEventsWith(StageSpec.of("journal", (Cell cell, long sequence, boolean end) -> { }))
                .then(StageSpec.of("match", failing));
        final MeterRegistry registry = new SimpleMeterRegistry();
        new SlipstreamMetrics(pipeline, Tags.of("service", "test")).bindTo(registry);
        pipeline.start();
        for (long i = 1; i <= 100; i++) {
            pipeline.publishEvent((cell, sequence, value) -> cell.value = value, i);
        }
        await("match handled 100", () -> counter(registry, "slipstream.stage.events", "match") == 100.0);

        assertEquals(100.0, counter(registry, "slipstream.stage.events", "journal"));
        assertEquals(10.0, counter(registry, "slipstream.stage.exceptions", "match"));
        assertEquals(0.0, counter(registry, "slipstream.stage.exceptions", "journal"));
        final double batches = counter(registry, "slipstream.stage.batches", "match");
        assertTrue(batches >= 1 && batches <= 100, "batches " + batches);
        assertEquals(0.0, gauge(registry, "slipstream.stage.lag", "match"));
        assertEquals(99.0, gauge(registry, "slipstream.stage.sequence", "match"));
        assertEquals(1.0, gauge(registry, "slipstream.stage.workers", "journal"));
        assertEquals(64.0, registry.get("slipstream.ring.size").gauge().value());
        assertEquals(64.0, registry.get("slipstream.ring.remaining.capacity").gauge().value());
        assertEquals(99.0, registry.get("slipstream.ring.cursor").gauge().value());
        final Gauge tagged = registry.get("slipstream.stage.lag")
                .tags("pipeline", "orders", "service", "test", "stage", "journal").gauge();
        assertNotNull(tagged);
        final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(10));
        // the match stage's 10 exceptions were skipped events: drained, but not clean
        assertTrue(result.isDrained() && result.isTerminated(), result::toString);
        assertEquals(10L, result.eventsSkipped("match"), result::toString);
    }

    @Test
    void lagAndRemainingCapacityShowABlockedStage() throws InterruptedException {
        final Slipstream<Cell> pipeline = pipeline(16);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);
        pipeline.handleEventsWith(StageSpec.of("slow", (Cell cell, long sequence, boolean end) -> {
            entered.countDown();
            release.await();
        }));
        final MeterRegistry registry = new SimpleMeterRegistry();
        new SlipstreamMetrics(pipeline).bindTo(registry);
        pipeline.start();
        for (long i = 0; i < 10; i++) {
            pipeline.publishEvent((cell, sequence, value) -> cell.value = value, i);
        }
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        // the stage holds event 0: ten events are published and none is finished
        assertEquals(10.0, gauge(registry, "slipstream.stage.lag", "slow"));
        assertEquals(6.0, registry.get("slipstream.ring.remaining.capacity").gauge().value());
        release.countDown();
        await("slow caught up", () -> gauge(registry, "slipstream.stage.lag", "slow") == 0.0);
        assertEquals(16.0, registry.get("slipstream.ring.remaining.capacity").gauge().value());
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
    }

    @Test
    void bindingAgainAddsNewStagesWithoutDuplicates() {
        final Slipstream<Cell> pipeline = pipeline(64);
        pipeline.handleEventsWith(StageSpec.of("a", (Cell cell, long sequence, boolean end) -> { }));
        final MeterRegistry registry = new SimpleMeterRegistry();
        final SlipstreamMetrics binder = new SlipstreamMetrics(pipeline);
        binder.bindTo(registry);
        final int before = registry.getMeters().size();
        pipeline.start();
        pipeline.addHandler(StageSpec.of("b", (Cell cell, long sequence, boolean end) -> { }));
        binder.bindTo(registry);
        assertEquals(before + 6, registry.getMeters().size(), "six meters for the new stage, none twice");
        assertNotNull(registry.find("slipstream.stage.events").tags("stage", "b").functionCounter());
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
    }

    @Test
    void producerWaitsCountClaimsOnAFullRing() throws InterruptedException {
        final Slipstream<Cell> pipeline = pipeline(4);
        final CountDownLatch release = new CountDownLatch(1);
        pipeline.handleEventsWith(StageSpec.of("slow", (Cell cell, long sequence, boolean end) -> release.await()));
        final MeterRegistry registry = new SimpleMeterRegistry();
        new SlipstreamMetrics(pipeline).bindTo(registry);
        pipeline.start();
        assertEquals(0.0, registry.get("slipstream.producer.waits").functionCounter().count());
        final Thread producer = new Thread(() -> {
            for (long i = 0; i < 8; i++) {
                pipeline.publishEvent((cell, sequence, value) -> cell.value = value, i);
            }
        }, "producer");
        producer.start();
        // the ring holds 4 and the stage holds the first event: the fifth claim has to wait
        await("a producer wait", () -> registry.get("slipstream.producer.waits").functionCounter().count() >= 1.0);
        release.countDown();
        producer.join(10_000);
        assertEquals(pipeline.ringBuffer().producerWaitCount(), registry.get("slipstream.producer.waits").functionCounter().count());
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
    }

    @Test
    void rejectsNulls() {
        final Slipstream<Cell> pipeline = pipeline(64);
        assertThrows(NullPointerException.class, () -> new SlipstreamMetrics(null));
        assertThrows(NullPointerException.class, () -> new SlipstreamMetrics(pipeline, null));
        assertThrows(NullPointerException.class, () -> new SlipstreamMetrics(pipeline).bindTo(null));
    }

    private static double counter(final MeterRegistry registry, final String name, final String stage) {
        final FunctionCounter counter = registry.get(name).tags("stage", stage).functionCounter();
        return counter.count();
    }

    private static double gauge(final MeterRegistry registry, final String name, final String stage) {
        return registry.get(name).tags("stage", stage).gauge().value();
    }

    private static void await(final String what, final BooleanSupplier condition) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
