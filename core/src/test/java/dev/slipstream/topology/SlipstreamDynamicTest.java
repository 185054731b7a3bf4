package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SlipstreamDynamicTest {
    private static Slipstream<TestEvent> pipeline(final String name, final int ringSize) {
        return Slipstream.builder(TestEvent::new).name(name).ringSize(ringSize).producers(ProducerType.MULTI)
                .waitStrategy(new YieldingWaitStrategy()).build();
    }

    private static void publish(final Slipstream<TestEvent> s, final int from, final int count) {
        for (int i = from; i < from + count; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
    }

    /** Handles an event only while {@code open}; parks otherwise (slow, never stuck for good). */
    private static final class Gate implements EventHandler<TestEvent> {
        volatile boolean open;
        final AtomicLong count = new AtomicLong();

        @Override
        public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
            while (!open) {
                LockSupport.parkNanos(100_000L);
            }
            count.incrementAndGet();
        }
    }

    @Test
    void aHandlerAddedWhileRunningStartsAtTheCursor() {
        final Handlers.Summing first = new Handlers.Summing();
        final Handlers.Summing late = new Handlers.Summing();
        try (Slipstream<TestEvent> s = pipeline("grow", 64)) {
            s.handleEventsWith(first);
            s.start();
            publish(s, 0, 100);
            Await.until("first handled 100", () -> first.count.get() == 100);
            final Stage added = s.addHandler(StageSpec.of("late", late));
            assertEquals(99, added.metrics().sequence(), "starts at the cursor");
            publish(s, 100, 100);
            final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
            assertTrue(result.isClean(), result::toString);
            assertEquals(List.of("Summing-1", "late"), s.describe().stageNames());
        }
        assertEquals(200, first.count.get());
        assertEquals(100, late.count.get(), "sees exactly the events published after it joined");
        assertEquals(14_950, late.sum.get(), "values 100..199");
        assertFalse(late.outOfOrder);
    }

    @Test
    void aRemovedStageNoLongerGatesTheProducers() throws Exception {
        final Handlers.Summing fast = new Handlers.Summing();
        final Gate slow = new Gate();
        try (Slipstream<TestEvent> s = pipeline("shrink", 8)) {
            s.handleEventsWith(StageSpec.of("fast", fast), StageSpec.of("slow", slow).maxBatchSize(1));
            s.start();
            final Thread producer = new Thread(() -> publish(s, 0, 1000));
            producer.start();
            Await.until("the ring is full behind the slow stage", () -> s.ringBuffer().remainingCapacity() <= 0
                    && s.stage("slow").metrics().lag() >= 7);
            // a removal halts the stage and joins it before it stops gating: open the slow stage
            // while removeStage waits, so its thread finishes its batch and ends
            final Thread opener = new Thread(() -> {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
                slow.open = true;
            });
            opener.start();
            final long left = s.removeStage(s.stage("slow"));
            assertTrue(left > 0, "the slow stage left " + left);
            producer.join(20_000);
            assertFalse(producer.isAlive(), "producer finished once the slow stage stopped gating it");
            final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
            assertTrue(result.isClean(), result::toString);
            assertEquals(List.of("fast"), List.copyOf(result.eventsLeft().keySet()));
        }
        assertEquals(1000, fast.count.get());
        assertTrue(slow.count.get() < 1000);
    }

    @Test
    void removingTheOnlyFollowerOfAStageMakesItGateTheProducersAgain() {
        final AtomicLong sum = new AtomicLong();
        final EventHandler<TestEvent> slowA = (e, seq, end) -> {
            for (int i = 0; i < 100; i++) {
                Thread.onSpinWait();
            }
            sum.addAndGet(e.value);
        };
        try (Slipstream<TestEvent> s = pipeline("regate", 8)) {
            final Stage b = s.handleEventsWith(StageSpec.of("a", slowA)).then(StageSpec.of("b", Handlers.noop())).stage();
            s.start();
            publish(s, 0, 100);
            s.removeStage(b);
            // with b gone, only a keeps the producer from overwriting what a has not read
            publish(s, 100, 5_000);
            final ShutdownResult result = s.shutdown(Duration.ofSeconds(30));
            assertTrue(result.isClean(), result::toString);
        }
        assertEquals(5_100L * 5_099 / 2, sum.get(), "a saw every value once: no slot was overwritten early");
    }

    @Test
    void removeAndAddRejectWhatCannotBeDone() {
        final EventHandler<TestEvent> unknown = Handlers.noop();
        final Slipstream<TestEvent> other = pipeline("other", 8);
        final Stage foreign = other.handleEventsWith(StageSpec.of("foreign", Handlers.noop())).stage();
        try (Slipstream<TestEvent> s = pipeline("rules", 8)) {
            final EventHandler<TestEvent> aHandler = Handlers.noop();
            final Stage a = s.handleEventsWith(StageSpec.of("a", aHandler)).then(StageSpec.of("b", Handlers.noop())).stage();
            final Stage upstream = s.stage("a");
            final IllegalArgumentException followed =
                    assertThrows(IllegalArgumentException.class, () -> s.removeStage(upstream));
            assertTrue(followed.getMessage().contains("stage 'a' is followed by [b]"), followed.getMessage());
            final IllegalArgumentException notHere =
                    assertThrows(IllegalArgumentException.class, () -> s.removeStage(foreign));
            assertTrue(notHere.getMessage().contains("belongs to pipeline 'other', not to 'rules'"), notHere.getMessage());
            final IllegalArgumentException noHandler =
                    assertThrows(IllegalArgumentException.class, () -> s.removeHandler(unknown));
            assertTrue(noHandler.getMessage().contains("is not in pipeline 'rules'"), noHandler.getMessage());
            assertThrows(IllegalArgumentException.class, () -> s.addHandler(aHandler));
            s.start();
            assertEquals(0, s.removeStage(a));
            final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> s.removeStage(a));
            assertTrue(twice.getMessage().contains("was removed"), twice.getMessage());
            assertThrows(IllegalArgumentException.class, () -> s.after(a));
            s.removeHandler(aHandler);
            assertTrue(s.stages().isEmpty());
            final Stage last = s.addHandler(Handlers.noop());
            assertTrue(s.shutdown(Duration.ofSeconds(5)).isClean());
            final IllegalStateException stopped = assertThrows(IllegalStateException.class, () -> s.addHandler(Handlers.noop()));
            assertTrue(stopped.getMessage().contains("pipeline 'rules' is stopped"), stopped.getMessage());
            assertThrows(IllegalStateException.class, () -> s.removeStage(last));
        }
    }

    @Test
    void addHandlerBeforeStartIsAnOrdinaryFirstStage() {
        final Handlers.Summing h = new Handlers.Summing();
        try (Slipstream<TestEvent> s = pipeline("early", 64)) {
            s.addHandler(h);
            publish(s, 0, 10);
            s.start();
            assertTrue(s.shutdown(Duration.ofSeconds(5)).isClean());
        }
        assertEquals(10, h.count.get());
    }
}
