package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.EventSink;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The accounting contract and the lifecycle failures it rules out, one deterministic test each. */
@Timeout(60)
class SlipstreamAccountingTest {
    private static Slipstream<TestEvent> pipeline(final String name, final int ringSize, final ProducerType type) {
        return Slipstream.builder(TestEvent::new).name(name).ringSize(ringSize).producers(type)
                .waitStrategy(new YieldingWaitStrategy()).build();
    }

    private static void await(final CountDownLatch latch) {
        try {
            assertTrue(latch.await(20, TimeUnit.SECONDS), "latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ 2: drain to the close fence

    /**
     * Starts {@code s}; while one event's translator takes 300 ms on another thread, publishes
     * {@code more} quick events (values 1..more), then stops {@code s} with {@code stop} and
     * checks that the slow publish returned normally.
     */
    private static ShutdownResult stopWhileAClaimIsWritten(final Slipstream<TestEvent> s, final int more,
            final Function<Slipstream<TestEvent>, ShutdownResult> stop) throws InterruptedException {
        s.start();
        final CountDownLatch inTranslator = new CountDownLatch(1);
        final AtomicReference<Throwable> outcome = new AtomicReference<>();
        final Thread slow = new Thread(() -> {
            try {
                s.publishEvent((event, sequence) -> {
                    inTranslator.countDown();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
                    TestEvent.set(event, sequence, 1000L);
                });
                outcome.set(new Throwable("accepted"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        slow.start();
        await(inTranslator);
        for (int i = 1; i <= more; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = stop.apply(s);
        slow.join(5_000);
        assertEquals("accepted", outcome.get().getMessage(), "the slow publish returned normally");
        return result;
    }

    @Test
    void aClaimStillBeingWrittenWhenTheRingClosesIsDrainedNotDropped() throws Exception {
        final Handlers.Summing stage = new Handlers.Summing();
        final Slipstream<TestEvent> s = pipeline("slow-translator", 64, ProducerType.MULTI);
        s.handleEventsWith(stage);
        final ShutdownResult result = stopWhileAClaimIsWritten(s, 5, p -> p.shutdown(Duration.ofSeconds(5)));
        assertEquals(5, result.drainTarget(), "the fence: six accepted claims, sequences 0..5");
        assertTrue(result.isClean(), result::toString);
        assertEquals(6, stage.count.get(), "all six accepted events handled");
        assertEquals(1015, stage.sum.get());
    }

    @Test
    void aSingleProducersClaimBeingWrittenWhenTheRingClosesIsDrained() throws Exception {
        final Handlers.Summing stage = new Handlers.Summing();
        final Slipstream<TestEvent> s = pipeline("sp-slow-translator", 64, ProducerType.SINGLE);
        s.handleEventsWith(stage);
        final ShutdownResult result = stopWhileAClaimIsWritten(s, 0, p -> p.shutdown(Duration.ofSeconds(5)));
        assertTrue(result.isClean(), result::toString);
        assertEquals(1, stage.count.get(), "the accepted event was handled before shutdown said clean");
    }

    @Test
    void haltCountsWhatWasLeftAgainstTheFence() throws Exception {
        final Handlers.Summing stage = new Handlers.Summing();
        final Slipstream<TestEvent> s = pipeline("halt-fence", 64, ProducerType.MULTI);
        s.handleEventsWith(StageSpec.of("only", stage));
        final ShutdownResult result = stopWhileAClaimIsWritten(s, 5, Slipstream::halt);
        assertEquals(5, result.drainTarget());
        assertFalse(result.isDrained(), result::toString);
        assertEquals(6, result.eventsLeft("only") + stage.count.get(),
                "accepted = handled + left: " + result);
        assertTrue(result.claimsInFlight() > 0, result::toString);
    }

    // ------------------------------------------------------------------ 3: failures during shutdown

    @Test
    void aStageThatFailsDuringShutdownIsReportedAndEndsTheDrainAtOnce() {
        final CountDownLatch shutdownBegan = new CountDownLatch(1);
        final EventHandler<TestEvent> failsLater = (event, sequence, end) -> {
            if (sequence == 0) {
                await(shutdownBegan);
            }
            if (sequence == 50) {
                throw new IllegalArgumentException("bad event 50");
            }
        };
        final Slipstream<TestEvent> s = pipeline("fails-in-drain", 1024, ProducerType.SINGLE);
        s.handleEventsWith(StageSpec.of("fragile", failsLater).exceptionHandler(new Handlers.GiveUp(true)));
        s.start();
        for (int i = 0; i < 100; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final Thread releaser = new Thread(() -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            shutdownBegan.countDown();
        });
        releaser.start();
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(8));
        assertFalse(result.isClean(), result::toString);
        assertEquals(1, result.failures().size(), result::toString);
        assertEquals("fragile", result.failures().get(0).stageName());
        assertEquals(50, result.failures().get(0).sequence());
        assertEquals(result.failures(), s.failures());
        assertEquals(50, result.eventsLeft("fragile"), "events 50..99 of 0..99 were not handled");
        assertTrue(result.elapsed().compareTo(Duration.ofSeconds(4)) < 0,
                "the failure ended the drain wait at once, not after the 8 s timeout: " + result.elapsed());
    }

    @Test
    void aStageWhoseOnShutdownFailsDuringShutdownIsReported() {
        final EventHandler<TestEvent> brokenShutdown = new EventHandler<>() {
            @Override
            public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
            }

            @Override
            public void onShutdown() {
                throw new IllegalStateException("cannot flush");
            }
        };
        final Slipstream<TestEvent> s = pipeline("fails-on-shutdown", 64, ProducerType.SINGLE);
        s.handleEventsWith(StageSpec.of("flusher", brokenShutdown).exceptionHandler(new Handlers.GiveUp(true)));
        s.start();
        s.publishEvent(TestEvent::set, 1L);
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(5));
        assertTrue(result.isDrained(), result::toString);
        assertFalse(result.isClean(), "a failure during shutdown is a failure: " + result);
        assertEquals(1, result.failures().size(), result::toString);
        assertEquals("flusher", result.failures().get(0).stageName());
        assertEquals(1, s.failures().size());
    }

    // ------------------------------------------------------------------ 4: reconfiguration order

    @Test
    void removeStageHaltsAndJoinsBeforeProducersPassItsLastBatch() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch inFirstBatch = new CountDownLatch(1);
        final AtomicLong seenBySlow = new AtomicLong();
        final EventHandler<TestEvent> slow = (event, sequence, end) -> {
            seenBySlow.incrementAndGet();
            if (sequence == 0) {
                inFirstBatch.countDown();
                await(release);
            }
        };
        final Slipstream<TestEvent> s = pipeline("remove-order", 8, ProducerType.MULTI);
        s.handleEventsWith(StageSpec.of("fast", Handlers.noop()), StageSpec.of("slow", slow));
        s.start();
        final Thread producer = new Thread(() -> {
            for (int i = 0; i < 100; i++) {
                s.publishEvent(TestEvent::set, (long) i);
            }
        });
        producer.start();
        Await.until("the ring is full behind the slow stage", () -> s.ringBuffer().remainingCapacity() <= 0);
        // the slow stage must be inside its batch before the halt: halted before its thread reads
        // event 0, it would end with nothing read, and re-gating would then be right to let producers on
        await(inFirstBatch);
        final long cursorBefore = s.ringBuffer().getCursor();
        final AtomicReference<StageRemoval> removal = new AtomicReference<>();
        final Thread remover = new Thread(() -> removal.set(s.removeStage(s.stage("slow"), Duration.ofSeconds(20))));
        remover.start();
        // the stage is halted but still inside its batch: the producers must not pass it
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
        assertEquals(cursorBefore, s.ringBuffer().getCursor(),
                "producers overwrote the batch the removed stage is still reading");
        assertTrue(remover.isAlive(), "removeStage waits for the stage's thread");
        final long describeStart = System.nanoTime();
        s.describe();
        assertTrue(System.nanoTime() - describeStart < TimeUnit.SECONDS.toNanos(1),
                "removeStage does not hold the pipeline's lock while it joins");
        release.countDown();
        remover.join(20_000);
        assertTrue(removal.get().isRemoved(), removal.get()::toString);
        producer.join(20_000);
        assertFalse(producer.isAlive(), "the producer runs on once the stage is out of the gate");
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
    }

    @Test
    void aStageThatWillNotStopIsReportedByRemoveStageAndByTheNextShutdown() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);
        final EventHandler<TestEvent> stuck = (event, sequence, end) -> {
            entered.countDown();
            // ignores interrupts: the shutdown's interrupt cannot end it
            while (true) {
                try {
                    if (release.await(20, TimeUnit.SECONDS)) {
                        return;
                    }
                } catch (InterruptedException ignored) {
                    // keep waiting
                }
            }
        };
        final Slipstream<TestEvent> s = pipeline("stuck", 64, ProducerType.SINGLE);
        final Stage stage = s.handleEventsWith(StageSpec.of("stuck", stuck)).stage();
        s.start();
        s.publishEvent(TestEvent::set, 1L);
        await(entered);
        final long begin = System.nanoTime();
        final StageRemoval removal = s.removeStage(stage, Duration.ofMillis(200));
        assertTrue(System.nanoTime() - begin < TimeUnit.SECONDS.toNanos(5), "the timeout is the caller's");
        assertFalse(removal.isRemoved(), removal::toString);
        assertEquals(List.of("stuck-stuck"), removal.threadsStillRunning());
        assertEquals(List.of("stuck"), s.stages().stream().map(Stage::name).toList(),
                "a stage that did not stop stays in the pipeline, gating");
        final IllegalStateException old = assertThrows(IllegalStateException.class, () -> s.removeStage(stage));
        assertTrue(old.getMessage().contains("NOT removed"), old.getMessage());
        final ShutdownResult result = s.shutdown(Duration.ofMillis(200));
        assertFalse(result.isClean(), result::toString);
        assertEquals(List.of("stuck-stuck"), result.threadsStillRunning());
        release.countDown();
    }

    // ------------------------------------------------------------------ 5: before the first stage

    @Test
    void eventsPublishedBeforeTheFirstStageWaitForIt() throws Exception {
        final Handlers.Summing first = new Handlers.Summing();
        final Slipstream<TestEvent> s = pipeline("early", 8, ProducerType.MULTI);
        for (int i = 0; i < 8; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        assertFalse(s.tryPublishEvent(TestEvent::set, 8L), "the ring is full: nothing is overwritten");
        assertEquals(0, s.ringBuffer().remainingCapacity());
        s.handleEventsWith(first);
        s.start();
        for (int i = 8; i < 23; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
        assertTrue(result.isClean(), result::toString);
        assertEquals(23, first.count.get(), "all 23 accepted events handled");
        assertEquals(22L * 23 / 2, first.sum.get());
    }

    @Test
    void aShutdownWithoutStagesReportsTheAcceptedEventsNoStageHandled() {
        final Slipstream<TestEvent> s = pipeline("empty", 8, ProducerType.SINGLE);
        s.publishEvent(TestEvent::set, 1L);
        s.publishEvent(TestEvent::set, 2L);
        final ShutdownResult result = s.shutdown(Duration.ZERO);
        assertFalse(result.isClean(), result::toString);
        assertEquals(2, result.eventsLeft(ShutdownResult.NO_STAGE));
    }

    // ------------------------------------------------------------------ 9: smaller ones

    @Test
    void aFailedAddLeavesTheSpecUnused() {
        final Slipstream<TestEvent> s = pipeline("spec-reuse", 8, ProducerType.SINGLE);
        s.handleEventsWith(StageSpec.of("a", Handlers.noop()));
        s.start();
        final StageSpec<TestEvent> spec = StageSpec.<TestEvent>of("b", Handlers.noop()).threadFactory(r -> null);
        assertThrows(IllegalStateException.class, () -> s.addHandler(spec));
        assertEquals(1, s.stages().size(), "the stage without a thread is not in the pipeline");
        // and does not gate the producers: more than a ring's worth goes through
        for (int i = 0; i < 64; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        spec.threadFactory(Thread::new);
        s.addHandler(spec);
        assertEquals(2, s.stages().size());
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
    }

    @Test
    void wakePolicyOnAnUnnamedSingleStageSaysWhichStage() {
        final EventHandler<TestEvent> handler = Handlers.noop();
        final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StageSpec.of(handler).wakePolicy(WakePolicy.BIASED));
        assertFalse(e.getMessage().contains("'null'"), e.getMessage());
        assertTrue(e.getMessage().contains(handler.toString()), e.getMessage());
    }

    @Test
    void aHandlerFactoryThatReturnsOneSharedInstanceIsExplained() {
        final EventHandler<TestEvent> shared = (event, sequence, end) -> { };
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StageSpec.<TestEvent>workerPool("pricers", 3, () -> shared));
        assertTrue(e.getMessage().contains("captures nothing"), e.getMessage());
        assertTrue(e.getMessage().contains("workers 0 and 1"), e.getMessage());
    }

    // ------------------------------------------------------------------ 10: two pipelines

    @Test
    void theSameHandlerInTwoPipelinesIsRefusedNamingTheOther() {
        final EventHandler<TestEvent> handler = Handlers.noop();
        final Slipstream<TestEvent> first = pipeline("first", 8, ProducerType.SINGLE);
        final Slipstream<TestEvent> second = pipeline("second", 8, ProducerType.SINGLE);
        first.handleEventsWith(StageSpec.of("audit", handler));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> second.handleEventsWith(handler));
        assertTrue(e.getMessage().contains("pipeline 'first'"), e.getMessage());
        assertTrue(e.getMessage().contains(handler.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("stage 'audit'"), e.getMessage());
        assertTrue(second.stages().isEmpty());
        first.shutdown(Duration.ZERO);
        second.handleEventsWith(handler);
        assertEquals(1, second.stages().size(), "a stopped pipeline gives its handlers back");
        second.shutdown(Duration.ZERO);
    }

    // ------------------------------------------------------------------ publishing interface

    @Test
    void thePipelineIsAnEventSink() {
        final Handlers.Summing sum = new Handlers.Summing();
        final Slipstream<TestEvent> s = pipeline("sink", 8, ProducerType.SINGLE);
        s.handleEventsWith(sum);
        s.start();
        final EventSink<TestEvent> sink = s;
        sink.publishEvent(TestEvent::set, 5L);
        assertTrue(sink.tryPublishEvent(TestEvent::set, 6L));
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        assertEquals(11, sum.sum.get());
    }
}
