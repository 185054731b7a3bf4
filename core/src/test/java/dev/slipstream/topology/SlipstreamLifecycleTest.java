package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.BatchRewindStrategies;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.processor.RewindableException;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SlipstreamLifecycleTest {
    private static Slipstream.Builder<TestEvent> builder(final String name) {
        return Slipstream.builder(TestEvent::new).name(name).ringSize(1024).producers(ProducerType.SINGLE)
                .waitStrategy(new YieldingWaitStrategy());
    }

    @Test
    void shutdownDrainsEveryPublishedEventThroughEveryStage() {
        final Handlers.Summing a = new Handlers.Summing();
        final Handlers.Summing b = new Handlers.Summing();
        final AtomicLong slowCount = new AtomicLong();
        final EventHandler<TestEvent> slow = (e, s, end) -> {
            for (int i = 0; i < 200; i++) {
                Thread.onSpinWait();
            }
            slowCount.incrementAndGet();
        };
        final Slipstream<TestEvent> s = builder("drain").build();
        s.handleEventsWith(a).then(b).then(slow);
        s.start();
        for (int i = 0; i < 20_000; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(30));
        assertTrue(result.isClean(), result::toString);
        assertFalse(result.wasHalted());
        assertEquals(19_999, result.drainTarget());
        assertEquals(3, result.eventsLeft().size());
        assertEquals(0, result.maxEventsLeft());
        assertEquals(20_000, a.count.get());
        assertEquals(20_000, b.count.get());
        assertEquals(20_000, slowCount.get());
        assertFalse(s.isRunning());
        assertTrue(s.isStarted());
        assertTrue(result.toString().contains("drained up to sequence 19999 through 3 stages"), result.toString());
    }

    @Test
    void shutdownDrainsStagesWhoseThreadsHaveNotBegunRunning() {
        final CountDownLatch letThreadsRun = new CountDownLatch(1);
        final ThreadFactory lateThreads = r -> new Thread(() -> {
            try {
                letThreadsRun.await();
            } catch (InterruptedException e) {
                return;
            }
            r.run();
        });
        final Handlers.Summing a = new Handlers.Summing();
        final Handlers.Summing b = new Handlers.Summing();
        final Slipstream<TestEvent> s = builder("late").threadFactory(lateThreads).build();
        s.handleEventsWith(a).then(b);
        for (int i = 0; i < 500; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        s.start();
        // the threads run only once shutdown has begun (it closes the ring first)
        final Thread releaser = new Thread(() -> {
            Await.until("the ring is closed", s.ringBuffer()::isClosed);
            letThreadsRun.countDown();
        });
        releaser.start();
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(30));
        assertTrue(result.isClean(), result::toString);
        assertEquals(500, a.count.get());
        assertEquals(500, b.count.get());
        assertEquals(124_750L, b.sum.get());
    }

    @Test
    void publishingAfterShutdownThrowsAClearException() {
        final Slipstream<TestEvent> s = builder("closed").build();
        s.handleEventsWith(Handlers.noop());
        s.start();
        s.shutdown(Duration.ofSeconds(10));
        final SequencerClosedException e =
                assertThrows(SequencerClosedException.class, () -> s.publishEvent(TestEvent::set, 1L));
        assertTrue(e.getMessage().contains("pipeline 'closed' is shut down"), e.getMessage());
        assertFalse(s.tryPublishEvent(TestEvent::set, 1L), "a try... after the shutdown returns false");
        assertFalse(s.sink().tryPublishEvent(TestEvent::set, 1L));
        assertSame(s.ringBuffer(), s.sink(), "the publishing side alone is the ring, as an EventSink");
        assertThrows(SequencerClosedException.class, () -> s.ringBuffer().next());
        assertTrue(s.ringBuffer().isClosed());
    }

    @Test
    void shutdownBeforeStartReportsWhatWasNeverProcessed() {
        final Slipstream<TestEvent> s = builder("never").build();
        s.handleEventsWith(StageSpec.of("a", Handlers.noop())).then(StageSpec.of("b", Handlers.noop()));
        for (int i = 0; i < 10; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(1));
        assertFalse(result.isDrained(), result::toString);
        assertTrue(result.isTerminated());
        assertEquals(10, result.eventsLeft("a"));
        assertEquals(10, result.eventsLeft("b"));
        assertEquals(10, result.maxEventsLeft());
        assertThrows(IllegalArgumentException.class, () -> result.eventsLeft("c"));
        final IllegalStateException unclean = assertThrows(IllegalStateException.class, result::requireClean);
        assertTrue(unclean.getMessage().contains("NOT drained") && unclean.getMessage().contains("a left 10"),
                unclean.getMessage());
    }

    @Test
    void haltStopsAtOnceAndReportsWhatWasLeft() {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final EventHandler<TestEvent> stuck = (e, seq, end) -> {
            entered.countDown();
            release.await();
        };
        final Slipstream<TestEvent> s = builder("halting").build();
        s.handleEventsWith(StageSpec.of("stuck", stuck).maxBatchSize(1));
        s.start();
        for (int i = 0; i < 100; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        Await.until("the stage is busy", () -> entered.getCount() == 0);
        // release the stage once it was asked to stop (not merely once the ring closed: between the
        // two it may legitimately run through every event on a loaded machine)
        final StageNode<?> node = (StageNode<?>) s.stage("stuck");
        final Thread releaser = new Thread(() -> {
            Await.until("the stage was asked to stop", node::stopRequested);
            release.countDown();
        });
        releaser.start();
        final ShutdownResult result = s.halt();
        assertTrue(result.wasHalted());
        assertFalse(result.isDrained(), result::toString);
        assertTrue(result.isTerminated(), result::toString);
        final long left = result.eventsLeft("stuck");
        assertTrue(left > 0 && left <= 99, "left " + left);
        assertSame(result, s.shutdown(Duration.ofSeconds(1)), "a second stop returns the first result");
    }

    @Test
    void shutdownThatRunsOutOfTimeReportsEventsAndThreadsLeft() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final EventHandler<TestEvent> stuck = (e, seq, end) -> {
            // ignores the shutdown's interrupts (an interruptible handler is freed by them, see
            // OperatorReportTest): the time runs out with the stage still inside its handler
            while (true) {
                try {
                    release.await();
                    return;
                } catch (InterruptedException ignored) {
                    // keep waiting
                }
            }
        };
        final Slipstream<TestEvent> s = builder("timeout").build();
        s.handleEventsWith(StageSpec.of("fast", Handlers.noop()), StageSpec.of("stuck", stuck));
        s.start();
        for (int i = 0; i < 50; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofMillis(200));
        try {
            assertFalse(result.isDrained(), result::toString);
            assertEquals(0, result.eventsLeft("fast"));
            assertEquals(50, result.eventsLeft("stuck"));
            assertEquals(List.of("timeout-stuck"), result.threadsStillRunning());
            assertFalse(result.isClean());
            assertTrue(result.toString().contains("stuck left 50") && result.toString().contains("threads still running"),
                    result.toString());
        } finally {
            release.countDown();
        }
    }

    @Test
    void closeShutsDownOnceAndIsIdempotent() {
        final Handlers.Summing a = new Handlers.Summing();
        final Slipstream<TestEvent> s;
        try (Slipstream<TestEvent> pipeline = builder("closing").build()) {
            s = pipeline;
            pipeline.handleEventsWith(a);
            pipeline.start();
            for (int i = 0; i < 1000; i++) {
                pipeline.publishEvent(TestEvent::set, (long) i);
            }
        }
        assertEquals(1000, a.count.get());
        final ShutdownResult first = s.shutdown(Duration.ofSeconds(1));
        assertTrue(first.isClean());
        s.close();
        assertSame(first, s.halt());
    }

    @Test
    void aFatalExceptionStopsThePipelineAndReleasesABlockedProducer() throws Exception {
        final EventHandler<TestEvent> failsAt3 = (e, seq, end) -> {
            if (seq == 3) {
                throw new IllegalArgumentException("cannot handle " + seq);
            }
        };
        final Handlers.Summing other = new Handlers.Summing();
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).name("fatal").ringSize(8)
                .producers(ProducerType.SINGLE).waitStrategy(new BlockingWaitStrategy()).build();
        s.handleEventsWith(StageSpec.of("failing", failsAt3).exceptionHandler(new Handlers.GiveUp(false)), StageSpec.of("other", other));
        s.start();
        final AtomicReference<Throwable> producerError = new AtomicReference<>();
        final AtomicLong published = new AtomicLong();
        final Thread producer = new Thread(() -> {
            try {
                for (int i = 0; i < 1000; i++) {
                    s.publishEvent(TestEvent::set, (long) i);
                    published.incrementAndGet();
                }
            } catch (Throwable t) {
                producerError.set(t);
            }
        });
        producer.start();
        producer.join(20_000);
        assertFalse(producer.isAlive(), "the producer was released, not left parked on a full ring");
        assertTrue(producerError.get() instanceof SequencerClosedException, String.valueOf(producerError.get()));
        final String message = producerError.get().getMessage();
        assertTrue(message.contains("pipeline 'fatal' stopped after a failure") && message.contains("stage 'failing'")
                && message.contains("sequence 3"), message);
        assertTrue(published.get() < 1000);
        assertFalse(s.isRunning());
        final List<StageFailure> failures = s.failures();
        assertEquals(1, failures.size(), failures::toString);
        assertEquals("failing", failures.get(0).stageName());
        assertEquals(3, failures.get(0).sequence());
        assertNotNull(failures.get(0).cause());

        final ShutdownResult result = s.shutdown(Duration.ofSeconds(5));
        assertEquals(failures, result.failures());
        assertFalse(result.isClean());
        assertTrue(result.isTerminated(), result::toString);
        final IllegalStateException e = assertThrows(IllegalStateException.class, result::requireClean);
        assertEquals(1, e.getSuppressed().length);
    }

    @Test
    void theDefaultExceptionHandlerKeepsTheStageAlive() {
        final AtomicLong handled = new AtomicLong();
        final EventHandler<TestEvent> failsOnOdd = (e, seq, end) -> {
            handled.incrementAndGet();
            if ((seq & 1) == 1) {
                throw new IllegalStateException("odd " + seq);
            }
        };
        final Slipstream<TestEvent> s = builder("resilient").exceptionHandler(new CountingExceptionHandler<>(new AtomicLong()))
                .build();
        s.handleEventsWith(StageSpec.of("flaky", failsOnOdd));
        s.start();
        for (int i = 0; i < 1000; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
        assertTrue(result.isDrained(), result::toString);
        assertFalse(result.isClean(), "500 events were skipped after an exception: " + result);
        assertEquals(500, result.eventsSkipped("flaky"));
        assertEquals(1000, handled.get());
        assertEquals(500, s.stage("flaky").metrics().exceptionsHandled());
    }

    @Test
    void aStagesOwnExceptionHandlerWinsOverThePipelines() {
        final AtomicLong pipelineLevel = new AtomicLong();
        final AtomicLong stageLevel = new AtomicLong();
        final EventHandler<TestEvent> fails = (e, seq, end) -> {
            throw new IllegalStateException("always");
        };
        final Slipstream<TestEvent> s = builder("handlers")
                .exceptionHandler(new CountingExceptionHandler<>(pipelineLevel)).build();
        s.handleEventsWith(StageSpec.of("own", fails).exceptionHandler(new CountingExceptionHandler<>(stageLevel)),
                StageSpec.of("default", (EventHandler<TestEvent>) (e, seq, end) -> {
                    throw new IllegalStateException("always");
                }));
        s.start();
        for (int i = 0; i < 10; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
        assertTrue(result.isDrained(), result::toString);
        assertEquals(Map.of("own", 10L, "default", 10L), result.eventsSkipped());
        assertEquals(10, stageLevel.get());
        assertEquals(10, pipelineLevel.get());
    }

    @Test
    void stagesUseTheirThreadFactoryAndAreNamedAfterThePipelineAndStage() {
        final List<Thread> pipelineThreads = new CopyOnWriteArrayList<>();
        final List<Thread> stageThreads = new CopyOnWriteArrayList<>();
        final Slipstream<TestEvent> s = builder("named").threadFactory(r -> {
            final Thread t = new Thread(r);
            pipelineThreads.add(t);
            return t;
        }).build();
        s.handleEventsWith(StageSpec.of("journal", Handlers.noop()),
                StageSpec.workerPool("pool", Handlers.noop(), Handlers.noop()).threadFactory(r -> {
                    final Thread t = new Thread(r);
                    stageThreads.add(t);
                    return t;
                }));
        s.start();
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        assertEquals(List.of("named-journal"), pipelineThreads.stream().map(Thread::getName).toList());
        assertEquals(List.of("named-pool-0", "named-pool-1"), stageThreads.stream().map(Thread::getName).toList());
    }

    @Test
    void aThreadFactoryThatReturnsNullIsRefused() {
        final Slipstream<TestEvent> s = builder("nullthreads").threadFactory(r -> null).build();
        s.handleEventsWith(StageSpec.of("x", Handlers.noop()));
        final IllegalStateException e = assertThrows(IllegalStateException.class, s::start);
        assertTrue(e.getMessage().contains("stage 'x' returned null"), e.getMessage());
        assertFalse(s.isStarted());
    }

    @Test
    void aStageWithItsOwnBlockingWaitStrategyIsWokenByProducers() {
        final Handlers.Summing own = new Handlers.Summing();
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).name("own-wait").ringSize(64)
                .producers(ProducerType.SINGLE).waitStrategy(new BlockingWaitStrategy()).build();
        s.handleEventsWith(StageSpec.of("own", own).waitStrategy(new BlockingWaitStrategy()),
                StageSpec.workerPool("pool", Handlers.noop(), Handlers.noop()).waitStrategy(new BlockingWaitStrategy()));
        s.start();
        for (int i = 0; i < 100; i++) {
            s.publishEvent(TestEvent::set, (long) i);
            final long expected = i + 1;
            // one event at a time: each must wake the parked stage
            Await.until("event " + i + " handled", () -> own.count.get() == expected);
        }
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
    }

    @Test
    void maxBatchSizeLimitsWhatAStageSeesAtOnce() {
        final AtomicLong largest = new AtomicLong();
        final Handlers.Summing sum = new Handlers.Summing();
        final EventHandler<TestEvent> batching = new EventHandler<>() {
            @Override
            public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
                sum.onEvent(event, sequence, endOfBatch);
            }

            @Override
            public void onBatchStart(final long batchSize, final long queueDepth) {
                largest.accumulateAndGet(batchSize, Math::max);
            }
        };
        final Slipstream<TestEvent> s = builder("batches").build();
        s.handleEventsWith(StageSpec.of("limited", batching).maxBatchSize(10));
        for (int i = 0; i < 1000; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        s.start();
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        assertEquals(1000, sum.count.get());
        assertTrue(largest.get() <= 10 && largest.get() > 0, "largest batch " + largest.get());
        assertTrue(s.stage("limited").metrics().batchesProcessed() >= 100);
    }

    @Test
    void shutdownRejectsBadTimeouts() {
        final Slipstream<TestEvent> s = builder("timeouts").build();
        assertThrows(NullPointerException.class, () -> s.shutdown(null));
        final IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> s.shutdown(Duration.ofMillis(-1)));
        assertTrue(negative.getMessage().contains("timeout must not be negative"), negative.getMessage());
    }

    @Test
    void theHaltPolicyStopsThePipelineCleanlyAndReportsTheStageAndSequence() {
        final EventHandler<TestEvent> failsAt7 = (e, seq, end) -> {
            if (seq == 7) {
                throw new IllegalArgumentException("bad event");
            }
        };
        final Slipstream<TestEvent> s = builder("haltpolicy").build();
        s.handleEventsWith(StageSpec.of("strict", failsAt7).exceptionHandler(ExceptionHandlers.halt("strict")))
                .then(StageSpec.of("after", Handlers.noop()));
        s.start();
        for (int i = 0; i < 20; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        Await.until("the pipeline stopped", () -> !s.isRunning());
        // the ring is closed; reading the fence waits until the closing thread has stored it, so the
        // next claim is above it (a claim made between the close and the fence store is accepted)
        assertEquals(19, s.ringBuffer().closeFence());
        final SequencerClosedException closed =
                assertThrows(SequencerClosedException.class, () -> s.publishEvent(TestEvent::set, 99L));
        assertTrue(closed.getMessage().contains("stage 'strict' failed at sequence 7"), closed.getMessage());
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(5));
        assertEquals(1, result.failures().size(), result::toString);
        assertEquals(7, result.failures().get(0).sequence());
        assertEquals(13, result.eventsLeft("strict"), "events 7..19 were not handled by the failed stage");
        assertTrue(result.isTerminated());
        // the reason, not only the halting wrapper, in the result, the failure and its cause chain
        final StageFailure failure = result.failures().get(0);
        assertTrue(result.toString().contains("java.lang.IllegalArgumentException: bad event"), result::toString);
        assertTrue(failure.toString().contains("java.lang.IllegalArgumentException: bad event"), failure::toString);
        assertTrue(failure.cause().getMessage().contains("IllegalArgumentException: bad event"),
                failure.cause().getMessage());
        assertTrue(failure.cause().getCause() instanceof IllegalArgumentException, String.valueOf(failure.cause()));
    }

    @Test
    void aFailureRendersEachCauseOnceAndAThreadThatEndedWithoutOne() {
        final IllegalStateException root = new IllegalStateException("disk full");
        final RuntimeException wrapper = new RuntimeException("cannot force", root);
        assertEquals("stage 'journal' failed at sequence 5: java.lang.RuntimeException: cannot force;"
                + " caused by java.lang.IllegalStateException: disk full", new StageFailure("journal", 5, wrapper).toString());
        final RuntimeException quoting = new RuntimeException("halting: " + root, root);
        assertEquals("stage 'journal' failed: java.lang.RuntimeException: halting: java.lang.IllegalStateException:"
                + " disk full", new StageFailure("journal", -1, quoting).toString(), "a quoted cause is not repeated");
        assertEquals("stage 'x' failed: its thread ended unexpectedly", new StageFailure("x", -1, null).toString());
    }

    @Test
    void aStageRetriesABatchOnARewindableExceptionThenGivesUpThroughItsExceptionHandler() {
        final AtomicLong attempts = new AtomicLong();
        final AtomicLong handled = new AtomicLong();
        final EventHandler<TestEvent> flaky = (e, seq, end) -> {
            if (seq == 5 && attempts.incrementAndGet() <= 2) {
                throw new RewindableException("transient failure at " + seq);
            }
            if (seq == 9) {
                throw new RewindableException("never succeeds");
            }
            handled.incrementAndGet();
        };
        final AtomicLong gaveUp = new AtomicLong();
        final Slipstream<TestEvent> s = builder("rewind").build();
        s.handleEventsWith(StageSpec.of("flaky", flaky).maxBatchSize(4)
                .rewindStrategy(BatchRewindStrategies.atMost(3))
                .exceptionHandler(new CountingExceptionHandler<>(gaveUp)));
        for (int i = 0; i < 12; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        s.start();
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
        assertTrue(result.isDrained(), result::toString);
        assertFalse(result.isClean(), "sequence 9 was skipped: " + result);
        assertEquals(1, result.eventsSkipped("flaky"));
        assertEquals(Map.of("flaky", 1L), result.retriesGivenUp());
        assertEquals(Map.of("flaky", 5L), result.batchesRetried(), "2 retries of 5's batch, 3 of 9's");
        assertTrue(result.toString().contains("flaky skipped 1 event after an exception (1 after its rewinds gave up);"
                + " flaky retried 5 batches"), result::toString);
        assertEquals(3, attempts.get(), "sequence 5 failed twice, then succeeded on the third attempt");
        assertEquals(1, gaveUp.get(), "sequence 9 gave up after 3 retries, through the exception handler");
        assertEquals(12, s.stage("flaky").metrics().eventsProcessed());
        assertTrue(handled.get() >= 11, "every event but 9 was handled (some more than once): " + handled.get());
    }

    @Test
    void aStageMayHaltItsOwnPipeline() {
        final AtomicReference<ShutdownResult> fromInside = new AtomicReference<>();
        final AtomicReference<Slipstream<TestEvent>> self = new AtomicReference<>();
        final EventHandler<TestEvent> stopsAt5 = (e, seq, end) -> {
            if (seq == 5) {
                fromInside.set(self.get().halt());
            }
        };
        final Slipstream<TestEvent> s = builder("selfhalt").build();
        self.set(s);
        s.handleEventsWith(StageSpec.of("stopper", stopsAt5).maxBatchSize(1));
        s.start();
        for (int i = 0; i < 10; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        Await.until("the stage halted the pipeline", () -> fromInside.get() != null);
        final ShutdownResult result = fromInside.get();
        assertTrue(result.wasHalted());
        assertEquals(List.of("selfhalt-stopper"), result.threadsStillRunning(), "its own thread, still in the handler");
        assertSame(result, s.shutdown(Duration.ofSeconds(1)));
    }

    @Test
    void aFailedWorkerPoolReportsTheEventsItLeft() {
        // whichever worker takes event 3 fails on it
        final java.util.function.Supplier<EventHandler<TestEvent>> failsAt3 = () -> new EventHandler<>() {
            @Override
            public void onEvent(final TestEvent event, final long seq, final boolean endOfBatch) {
                if (seq == 3) {
                    throw new IllegalArgumentException("bad event");
                }
            }
        };
        final Slipstream<TestEvent> s = builder("poolfail").build();
        s.handleEventsWith(StageSpec.workerPool("pool", 2, failsAt3).maxBatchSize(4)
                .exceptionHandler(ExceptionHandlers.halt("pool")));
        for (int i = 0; i < 10; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        s.start();
        Await.until("the pipeline stopped", () -> !s.isRunning());
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(5));
        assertEquals(1, result.failures().size(), result::toString);
        assertEquals("pool", result.failures().get(0).stageName());
        assertEquals(3, result.failures().get(0).sequence());
        assertTrue(result.eventsLeft("pool") >= 7, "events 3.. were not all handled: " + result);
        assertFalse(result.isDrained());
    }
}
