package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SlipstreamTopologyTest {
    private static final int EVENTS = 50_000;
    private static final long SUM = (long) EVENTS * (EVENTS - 1) / 2;

    /** Marks slot {@code mark} with the sequence, after checking that the {@code required} marks are there. */
    private static final class Marking implements EventHandler<TestEvent> {
        final int mark;
        final int[] required;
        final AtomicLong violations = new AtomicLong();
        final Handlers.Summing summing = new Handlers.Summing();

        Marking(final int mark, final int... required) {
            this.mark = mark;
            this.required = required;
        }

        @Override
        public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
            for (final int r : required) {
                if (event.marks[r] != sequence) {
                    violations.incrementAndGet();
                }
            }
            summing.onEvent(event, sequence, endOfBatch);
            if (mark >= 0) {
                event.marks[mark] = sequence;
            }
        }
    }

    private static Slipstream<TestEvent> pipeline(final ProducerType type, final int ringSize) {
        return Slipstream.builder(TestEvent::new).ringSize(ringSize).producers(type)
                .waitStrategy(new YieldingWaitStrategy()).build();
    }

    private static void publish(final Slipstream<TestEvent> s, final int from, final int count) {
        for (int i = from; i < from + count; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
    }

    private static void assertSaw(final Marking stage, final long count, final long sum, final boolean inOrder) {
        assertEquals(count, stage.summing.count.get(), "events seen");
        assertEquals(sum, stage.summing.sum.get(), "checksum");
        assertEquals(0, stage.violations.get(), "events seen before an upstream stage finished them");
        if (inOrder) {
            assertFalse(stage.summing.outOfOrder, "sequence order kept");
        }
    }

    @Test
    void pipelineRunsEachEventThroughEveryStageInOrder() {
        final Marking a = new Marking(0);
        final Marking b = new Marking(1, 0);
        final Marking c = new Marking(-1, 0, 1);
        assertEveryStageSeesEveryEvent(s -> s.handleEventsWith(a).then(b).then(c), a, b, c);
    }

    @Test
    void multicastGivesEveryStageEveryEvent() {
        final Marking a = new Marking(0);
        final Marking b = new Marking(1);
        final Marking c = new Marking(2);
        assertEveryStageSeesEveryEvent(s -> s.handleEventsWith(a, b, c), a, b, c);
    }

    /** Wires the stages with {@code wiring}, publishes {@code EVENTS} events, shuts down clean, checks each stage. */
    private static void assertEveryStageSeesEveryEvent(final Consumer<Slipstream<TestEvent>> wiring,
                                                       final Marking... stages) {
        try (Slipstream<TestEvent> s = pipeline(ProducerType.SINGLE, 128)) {
            wiring.accept(s);
            s.start();
            publish(s, 0, EVENTS);
            assertTrue(s.shutdown(Duration.ofSeconds(30)).isClean());
        }
        for (final Marking stage : stages) {
            assertSaw(stage, EVENTS, SUM, true);
        }
    }

    @Test
    void diamondStageSeesAnEventOnlyAfterBothUpstreamStages() {
        final Marking a = new Marking(0);
        final Marking b = new Marking(1);
        final Marking c = new Marking(-1, 0, 1);
        try (Slipstream<TestEvent> s = pipeline(ProducerType.SINGLE, 64)) {
            final StageGroup<TestEvent> ga = s.handleEventsWith(a);
            final StageGroup<TestEvent> gb = s.handleEventsWith(b);
            s.after(ga, gb).handleEventsWith(c);
            s.start();
            publish(s, 0, EVENTS);
            assertTrue(s.shutdown(Duration.ofSeconds(30)).isClean());
        }
        assertSaw(c, EVENTS, SUM, true);
    }

    @Test
    void afterHandlersAndAndBuildTheSameDiamond() {
        final Marking a = new Marking(0);
        final Marking b = new Marking(1);
        final Marking c = new Marking(-1, 0, 1);
        try (Slipstream<TestEvent> s = pipeline(ProducerType.SINGLE, 64)) {
            final StageGroup<TestEvent> ga = s.handleEventsWith(a);
            s.handleEventsWith(b);
            s.after(a, b).handleEventsWith(c);
            assertEquals(List.of("Marking-1", "Marking-2"), s.stage("Marking-3").upstream());
            assertEquals(2, ga.and(s.after(b)).stages().size());
            s.start();
            publish(s, 0, 10_000);
            assertTrue(s.shutdown(Duration.ofSeconds(30)).isClean());
        }
        assertSaw(c, 10_000, 10_000L * 9_999 / 2, true);
    }

    @Test
    void fanInFromThreeProducersKeepsEachProducersOrder() throws Exception {
        final int perProducer = 20_000;
        final long[] lastByProducer = {-1, -1, -1};
        final AtomicLong violations = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        final EventHandler<TestEvent> consumer = (e, seq, end) -> {
            final int producer = (int) (e.value >>> 32);
            final long n = e.value & 0xffffffffL;
            if (n != lastByProducer[producer] + 1) {
                violations.incrementAndGet();
            }
            lastByProducer[producer] = n;
            count.incrementAndGet();
        };
        try (Slipstream<TestEvent> s = pipeline(ProducerType.MULTI, 256)) {
            s.handleEventsWith(consumer);
            s.start();
            final List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                final long id = p;
                final Thread t = new Thread(() -> {
                    for (long n = 0; n < perProducer; n++) {
                        s.publishEvent(TestEvent::set, (id << 32) | n);
                    }
                });
                producers.add(t);
                t.start();
            }
            for (final Thread t : producers) {
                t.join();
            }
            assertTrue(s.shutdown(Duration.ofSeconds(30)).isClean());
        }
        assertEquals(3L * perProducer, count.get());
        assertEquals(0, violations.get());
    }

    @Test
    void aWorkPoolInTheMiddleGatesTheNextStageAndHandlesEachEventOnce() {
        final AtomicIntegerArray handled = new AtomicIntegerArray(EVENTS);
        final List<EventHandler<TestEvent>> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add((e, seq, end) -> {
                if (e.marks[0] != seq) {
                    throw new AssertionError("worker saw " + seq + " before stage a");
                }
                handled.incrementAndGet((int) seq);
                e.marks[1] = seq;
            });
        }
        final Marking a = new Marking(0);
        final Marking c = new Marking(-1, 0, 1);
        try (Slipstream<TestEvent> s = pipeline(ProducerType.SINGLE, 64)) {
            @SuppressWarnings("unchecked")
            final EventHandler<TestEvent>[] pool = workers.toArray(new EventHandler[0]);
            s.handleEventsWith(a).then(StageSpec.workerPool("pool", pool).maxBatchSize(4)).then(c);
            s.start();
            publish(s, 0, EVENTS);
            final ShutdownResult result = s.shutdown(Duration.ofSeconds(30));
            assertTrue(result.isClean(), result::toString);
            assertEquals(EVENTS, s.stage("pool").metrics().eventsProcessed());
            assertEquals(0, s.stage("pool").metrics().exceptionsHandled());
        }
        for (int i = 0; i < EVENTS; i++) {
            assertEquals(1, handled.get(i), "times " + i + " was handled by the pool");
        }
        assertSaw(c, EVENTS, SUM, true);
    }

    @Test
    void aPoolAsTheLastStageGatesTheProducers() {
        final AtomicLong sum = new AtomicLong();
        try (Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).ringSize(16).producers(ProducerType.MULTI)
                .waitStrategy(new BlockingWaitStrategy()).build()) {
            final List<EventHandler<TestEvent>> workers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                workers.add((e, seq, end) -> {
                    sum.addAndGet(e.value);
                    // keep the pool slower than the producer, so the ring fills and must be respected
                    Thread.onSpinWait();
                });
            }
            @SuppressWarnings("unchecked")
            final EventHandler<TestEvent>[] pool = workers.toArray(new EventHandler[0]);
            s.handleEventsWith(StageSpec.workerPool("pool", pool).wakePolicy(WakePolicy.UNBIASED).maxBatchSize(2));
            s.start();
            publish(s, 0, EVENTS);
            assertTrue(s.shutdown(Duration.ofSeconds(30)).isClean());
        }
        assertEquals(SUM, sum.get());
    }
}
