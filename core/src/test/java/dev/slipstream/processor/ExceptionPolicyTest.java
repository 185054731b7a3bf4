package dev.slipstream.processor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExceptionPolicyTest {

    /** Throws on one sequence, records the others. */
    private static class FailingOn extends RecordingHandler {
        final long failingSequence;
        final RuntimeException failure = new IllegalStateException("bad event");

        FailingOn(final long failingSequence) {
            this.failingSequence = failingSequence;
        }

        @Override
        public void onEvent(final LongEvent event, final long sequence, final boolean endOfBatch) throws Exception {
            if (sequence == failingSequence) {
                throw failure;
            }
            super.onEvent(event, sequence, endOfBatch);
        }
    }

    /** Records what reaches it, then behaves like {@code then}. */
    private static class Recording implements ExceptionHandler<LongEvent> {
        final List<Throwable> exceptions = new ArrayList<>();
        final List<Long> sequences = new ArrayList<>();
        final List<LongEvent> events = new ArrayList<>();
        final List<Throwable> startFailures = new ArrayList<>();
        final List<Throwable> shutdownFailures = new ArrayList<>();
        final ExceptionHandler<LongEvent> then;

        Recording(final ExceptionHandler<LongEvent> then) {
            this.then = then;
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final LongEvent event) {
            exceptions.add(ex);
            sequences.add(sequence);
            events.add(event);
            then.handleEventException(ex, sequence, event);
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
            startFailures.add(ex);
            then.handleOnStartException(ex);
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
            shutdownFailures.add(ex);
            then.handleOnShutdownException(ex);
        }
    }

    private static final ExceptionHandler<LongEvent> SILENT = new ExceptionHandler<>() {
        @Override
        public void handleEventException(final Throwable ex, final long sequence, final LongEvent event) {
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
        }
    };

    private static List<Long> range(final long from, final long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }

    private static List<Long> rangeWithout(final long from, final long to, final long missing) {
        return LongStream.range(from, to).filter(s -> s != missing).boxed().collect(Collectors.toList());
    }

    @Test
    void theDefaultLogsSkipsTheEventAndKeepsTheStageAlive() throws Exception {
        final FailingOn handler = new FailingOn(3);
        final Fixture f = new Fixture(handler).publish(0, 10);
        f.processor.setName("default-policy-test");
        f.start().awaitSequence(9);

        assertTrue(f.processor.isRunning(), "the stage survives the exception");
        f.publish(10, 12).awaitSequence(11).haltAndJoin();

        assertEquals(rangeWithout(0, 12, 3), handler.sequences);
        assertEquals(1, f.processor.exceptionsHandled());
        assertEquals(12, f.processor.eventsProcessed(), "the skipped event counts as finished");
        assertNull(f.uncaught.get());
    }

    @Test
    void theHandlerIsToldTheExceptionTheSequenceAndTheEvent() throws Exception {
        final FailingOn handler = new FailingOn(4);
        final Recording policy = new Recording(SILENT);
        final Fixture f = new Fixture(handler).publish(100, 110);
        f.processor.setExceptionHandler(policy);
        f.start().awaitSequence(9).haltAndJoin();

        assertEquals(List.of(handler.failure), policy.exceptions);
        assertEquals(List.of(4L), policy.sequences);
        assertSame(f.ring.get(4), policy.events.get(0));
        assertEquals(104, policy.events.get(0).value);
    }

    @Test
    void haltStopsTheStageCleanlyBeforeTheFailingEvent() throws Exception {
        final FailingOn handler = new FailingOn(3);
        final Fixture f = new Fixture(handler).publish(0, 10);
        f.processor.setExceptionHandler(ExceptionHandlers.halt("halt-policy-test"));
        f.start().join();

        assertNull(f.uncaught.get(), "run() returns normally");
        assertEquals(range(0, 3), handler.sequences, "nothing after the failing event");
        assertEquals(2, f.processor.getSequence().get(), "the failing event is not consumed");
        assertEquals(3, f.processor.eventsProcessed());
        assertEquals(1, handler.shutdowns);
        final HaltProcessorException halted =
                assertInstanceOf(HaltProcessorException.class, f.processor.getFailure());
        assertSame(handler.failure, halted.getCause());
        assertTrue(halted.getMessage().contains("stage 'halt-policy-test': exception at sequence 3"),
                halted.getMessage());
    }

    @Test
    void rethrowStopsTheStageAndReachesTheUncaughtExceptionHandler() throws Exception {
        final FailingOn handler = new FailingOn(3);
        final Fixture f = new Fixture(handler).publish(0, 10);
        f.processor.setExceptionHandler(ExceptionHandlers.rethrow("rethrow-policy-test"));
        f.start().join();

        final StageFailedException failed = assertInstanceOf(StageFailedException.class, f.uncaught.get());
        assertSame(handler.failure, failed.getCause());
        assertEquals(3, failed.getSequence());
        assertTrue(failed.getMessage().startsWith("stage 'rethrow-policy-test': exception at sequence 3"),
                failed.getMessage());
        assertSame(failed, f.processor.getFailure());
        assertEquals(2, f.processor.getSequence().get());
        assertEquals(1, handler.shutdowns, "onShutdown runs before the exception leaves run()");
    }

    @Test
    void aFailureOnTheFirstEventOfABatchLeavesTheSequenceWhereItWas() throws Exception {
        final FailingOn handler = new FailingOn(0);
        final Fixture f = new Fixture(handler).publish(0, 5);
        f.processor.setExceptionHandler(ExceptionHandlers.halt());
        f.start().join();
        assertEquals(-1, f.processor.getSequence().get());
        assertEquals(0, f.processor.eventsProcessed());
    }

    @Test
    void anyRuntimeExceptionFromThePolicyStopsTheStage() throws Exception {
        final FailingOn handler = new FailingOn(1);
        final IllegalArgumentException fatal = new IllegalArgumentException("fatal");
        final Fixture f = new Fixture(handler).publish(0, 5);
        f.processor.setExceptionHandler(new Recording(SILENT) {
            @Override
            public void handleEventException(final Throwable ex, final long sequence, final LongEvent event) {
                throw fatal;
            }
        });
        f.start().join();
        assertSame(fatal, f.uncaught.get());
        assertEquals(0, f.processor.getSequence().get());
    }

    @Test
    void anExceptionInOnStartIsReportedAndTheDefaultRunsAnyway() throws Exception {
        final RuntimeException startFailure = new IllegalStateException("no connection");
        final RecordingHandler handler = new RecordingHandler();
        handler.startFailure = startFailure;
        final Recording policy = new Recording(ExceptionHandlers.logAndContinue("on-start-test"));
        final Fixture f = new Fixture(handler).publish(0, 3);
        f.processor.setExceptionHandler(policy);
        f.start().awaitSequence(2).haltAndJoin();

        assertEquals(List.of(startFailure), policy.startFailures);
        assertEquals(range(0, 3), handler.sequences);
    }

    @Test
    void anExceptionInOnStartUnderHaltStopsBeforeAnyEventButStillShutsDown() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        handler.startFailure = new IllegalStateException("no connection");
        final Fixture f = new Fixture(handler).publish(0, 3);
        f.processor.setExceptionHandler(ExceptionHandlers.halt());
        f.start().join();

        assertTrue(handler.sequences.isEmpty());
        assertEquals(1, handler.shutdowns);
        assertInstanceOf(HaltProcessorException.class, f.processor.getFailure());
        assertNull(f.uncaught.get());
    }

    @Test
    void anExceptionInOnStartUnderRethrowEscapes() throws Exception {
        final RuntimeException startFailure = new IllegalStateException("no connection");
        final RecordingHandler handler = new RecordingHandler();
        handler.startFailure = startFailure;
        final Fixture f = new Fixture(handler);
        f.processor.setExceptionHandler(ExceptionHandlers.rethrow());
        f.start().join();

        final StageFailedException failed = assertInstanceOf(StageFailedException.class, f.uncaught.get());
        assertSame(startFailure, failed.getCause());
        assertEquals(-1, failed.getSequence());
    }

    @Test
    void anExceptionInOnShutdownIsReportedOrRethrown() throws Exception {
        final RuntimeException shutdownFailure = new IllegalStateException("flush failed");
        final RecordingHandler handler = new RecordingHandler();
        handler.shutdownFailure = shutdownFailure;
        final Recording logging = new Recording(SILENT);
        final Fixture quiet = new Fixture(handler);
        quiet.processor.setExceptionHandler(logging);
        quiet.start();
        handler.started.await();
        quiet.haltAndJoin();
        assertEquals(List.of(shutdownFailure), logging.shutdownFailures);
        assertNull(quiet.uncaught.get());

        final RecordingHandler handler2 = new RecordingHandler();
        handler2.shutdownFailure = shutdownFailure;
        final Fixture loud = new Fixture(handler2);
        loud.processor.setExceptionHandler(ExceptionHandlers.rethrow());
        loud.start();
        handler2.started.await();
        loud.haltAndJoin();
        assertSame(shutdownFailure, assertInstanceOf(StageFailedException.class, loud.uncaught.get()).getCause());
    }

    @Test
    void aFailureInOnShutdownIsAddedToTheFailureThatStoppedTheStage() throws Exception {
        final RuntimeException shutdownFailure = new IllegalStateException("flush failed");
        final FailingOn handler = new FailingOn(0);
        handler.shutdownFailure = shutdownFailure;
        final Fixture f = new Fixture(handler).publish(0, 1);
        f.processor.setExceptionHandler(ExceptionHandlers.rethrow());
        f.start().join();
        final Throwable escaped = f.uncaught.get();
        assertSame(handler.failure, escaped.getCause());
        assertSame(shutdownFailure, escaped.getSuppressed()[0].getCause());
    }

    @Test
    void aFailureInOnShutdownAfterAPolicyHaltIsTheStagesFailure() throws Exception {
        final RuntimeException shutdownFailure = new IllegalStateException("flush failed");
        final FailingOn handler = new FailingOn(0);
        handler.shutdownFailure = shutdownFailure;
        final ExceptionHandler<LongEvent> halt = ExceptionHandlers.halt("mixed");
        final ExceptionHandler<LongEvent> rethrow = ExceptionHandlers.rethrow("mixed");
        final ExceptionHandler<LongEvent> haltOnEventsRethrowOnShutdown = new ExceptionHandler<>() {
            @Override
            public void handleEventException(final Throwable ex, final long sequence, final LongEvent event) {
                halt.handleEventException(ex, sequence, event);
            }

            @Override
            public void handleOnStartException(final Throwable ex) {
                rethrow.handleOnStartException(ex);
            }

            @Override
            public void handleOnShutdownException(final Throwable ex) {
                rethrow.handleOnShutdownException(ex);
            }
        };
        final Fixture f = new Fixture(handler).publish(0, 1);
        f.processor.setExceptionHandler(haltOnEventsRethrowOnShutdown);
        f.start().join();

        // the halt alone is a clean stop; the failed onShutdown after it escapes, as it would alone
        final StageFailedException escaped = assertInstanceOf(StageFailedException.class, f.uncaught.get());
        assertSame(shutdownFailure, escaped.getCause());
        assertSame(escaped, f.processor.getFailure());
    }

    @Test
    void anExceptionInOnBatchStartIsReportedAndTheBatchStillProcessed() throws Exception {
        final RuntimeException batchFailure = new IllegalStateException("no buffer");
        final RecordingHandler handler = new RecordingHandler() {
            @Override
            public void onBatchStart(final long batchSize, final long queueDepth) {
                throw batchFailure;
            }
        };
        final Recording policy = new Recording(SILENT);
        final Fixture f = new Fixture(handler).publish(0, 4);
        f.processor.setExceptionHandler(policy);
        f.start().awaitSequence(3).haltAndJoin();

        assertEquals(List.of(batchFailure), policy.exceptions);
        assertEquals(List.of(0L), policy.sequences, "reported against the batch's first event");
        assertEquals(range(0, 4), handler.sequences);
    }

    @Test
    void anExceptionInOnTimeoutGoesToTheHandlerWithoutAnEvent() throws Exception {
        final RuntimeException timeoutFailure = new IllegalStateException("heartbeat failed");
        final CountDownLatch reported = new CountDownLatch(1);
        final RecordingHandler handler = new RecordingHandler() {
            @Override
            public void onTimeout(final long sequence) {
                throw timeoutFailure;
            }
        };
        final Recording policy = new Recording(SILENT) {
            @Override
            public void handleEventException(final Throwable ex, final long sequence, final LongEvent event) {
                super.handleEventException(ex, sequence, event);
                reported.countDown();
            }
        };
        final Fixture f = new Fixture(handler,
                new dev.slipstream.wait.TimeoutBlockingWaitStrategy(1, TimeUnit.MILLISECONDS), 16);
        f.processor.setExceptionHandler(policy);
        f.start();
        reported.await();
        f.haltAndJoin();

        assertSame(timeoutFailure, policy.exceptions.get(0));
        assertEquals(-1L, policy.sequences.get(0));
        assertNull(policy.events.get(0));
        assertTrue(f.processor.exceptionsHandled() >= 1);
    }

    @Test
    void messagesNameTheStageTheSequenceAndTheEvent() {
        assertEquals("stage 'journal': exception at sequence 42 on event LongEvent[7]; skipping the event",
                ExceptionHandlers.eventMessage("journal", 42, event(7), "skipping the event"));
        assertEquals("stage 'journal': exception at sequence 5; halting the stage",
                ExceptionHandlers.eventMessage("journal", 5, null, "halting the stage"));
        assertEquals("unnamed stage on thread '" + Thread.currentThread().getName() + "'",
                ExceptionHandlers.stageLabel(null));
        final Object unprintable = new Object() {
            @Override
            public String toString() {
                throw new UnsupportedOperationException("no");
            }
        };
        assertTrue(ExceptionHandlers.eventMessage("s", 1, unprintable, "x").contains("toString failed"));
    }

    @Test
    void builtInPoliciesDescribeThemselves() {
        assertEquals("ExceptionHandlers.logAndContinue()", ExceptionHandlers.logAndContinue().toString());
        assertEquals("ExceptionHandlers.halt(\"a\")", ExceptionHandlers.halt("a").toString());
        assertEquals("ExceptionHandlers.rethrow()", ExceptionHandlers.rethrow().toString());
    }

    @Test
    void thePoliciesThemselvesBehaveAsDocumented() {
        final RuntimeException cause = new IllegalStateException("x");
        ExceptionHandlers.<LongEvent>logAndContinue("quiet").handleOnShutdownException(cause);
        ExceptionHandlers.<LongEvent>halt("quiet").handleOnShutdownException(cause);   // only logs
        assertSame(cause, assertThrows(HaltProcessorException.class,
                () -> ExceptionHandlers.<LongEvent>halt().handleEventException(cause, 1, event(1))).getCause());
        assertSame(cause, assertThrows(HaltProcessorException.class,
                () -> ExceptionHandlers.halt().handleOnStartException(cause)).getCause());
        final StageFailedException failed = assertThrows(StageFailedException.class,
                () -> ExceptionHandlers.<LongEvent>rethrow("r").handleEventException(cause, 9, event(1)));
        assertEquals(9, failed.getSequence());
    }

    private static LongEvent event(final long value) {
        final LongEvent e = new LongEvent();
        e.value = value;
        return e;
    }
}
