package dev.slipstream.processor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BatchRewindTest {
    private static final int EVENTS = 10;
    private static final long FAILING = 5;

    /** Asks for a rewind on sequence 5 the first {@code failures} times it sees it. */
    private static class RewindingHandler extends RecordingHandler {
        final int[] deliveries = new int[EVENTS];
        final int failures;
        final RewindableException rewind = new RewindableException("try again");

        RewindingHandler(final int failures) {
            this.failures = failures;
        }

        @Override
        public void onEvent(final LongEvent event, final long sequence, final boolean endOfBatch) throws Exception {
            final int delivery = ++deliveries[(int) sequence];
            if (sequence == FAILING && delivery <= failures) {
                throw rewind;
            }
            super.onEvent(event, sequence, endOfBatch);
        }
    }

    /** Records what it was asked, then answers like {@code delegate}. */
    private static final class AskedStrategy implements BatchRewindStrategy {
        final List<Integer> attempts = Collections.synchronizedList(new ArrayList<>());
        final BatchRewindStrategy delegate;

        AskedStrategy(final BatchRewindStrategy delegate) {
            this.delegate = delegate;
        }

        @Override
        public Decision decide(final RewindableException exception, final int attempt) {
            attempts.add(attempt);
            return delegate.decide(exception, attempt);
        }
    }

    /** Collects event exceptions and keeps going. */
    private static final class Collecting implements ExceptionHandler<LongEvent> {
        final List<Throwable> exceptions = new ArrayList<>();
        final List<Long> sequences = new ArrayList<>();
        final List<LongEvent> events = new ArrayList<>();

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final LongEvent event) {
            exceptions.add(ex);
            sequences.add(sequence);
            events.add(event);
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
        }
    }

    private static Fixture run(final RewindingHandler handler, final BatchRewindStrategy strategy,
                               final Collecting exceptions) throws Exception {
        final Fixture f = new Fixture(handler).publish(0, EVENTS);
        if (strategy != null) {
            f.processor.setRewindStrategy(strategy);
        }
        f.processor.setExceptionHandler(exceptions);
        f.start().awaitSequence(EVENTS - 1).haltAndJoin();
        return f;
    }

    @Test
    void alwaysRetriesUntilTheBatchSucceeds() throws Exception {
        final RewindingHandler handler = new RewindingHandler(4);
        final AskedStrategy strategy = new AskedStrategy(BatchRewindStrategies.always());
        final Collecting exceptions = new Collecting();
        final Fixture f = run(handler, strategy, exceptions);

        assertEquals(List.of(1, 2, 3, 4), strategy.attempts);
        assertEquals(5, handler.deliveries[0], "the batch restarts from its first event");
        assertEquals(5, handler.deliveries[4]);
        assertEquals(5, handler.deliveries[(int) FAILING]);
        assertEquals(1, handler.deliveries[6], "events after the failing one run once");
        assertEquals(1, handler.deliveries[9]);
        assertEquals(5, handler.batchStarts.size(), "onBatchStart before each attempt");
        assertEquals(4, f.processor.batchRewinds());
        assertEquals(EVENTS, f.processor.eventsProcessed(), "a rewound batch counts once");
        assertEquals(1, f.processor.batchesProcessed());
        assertEquals(0, f.processor.exceptionsHandled());
        assertEquals(List.of(), exceptions.exceptions);
    }

    @Test
    void atMostGivesUpAfterItsRetriesAndReportsTheFailingEvent() throws Exception {
        final RewindingHandler handler = new RewindingHandler(Integer.MAX_VALUE);
        final AskedStrategy strategy = new AskedStrategy(BatchRewindStrategies.atMost(2));
        final Collecting exceptions = new Collecting();
        final Fixture f = run(handler, strategy, exceptions);

        assertEquals(List.of(1, 2, 3), strategy.attempts, "two retries, then the third failure gives up");
        assertEquals(3, handler.deliveries[(int) FAILING]);
        assertEquals(3, handler.deliveries[0]);
        assertEquals(1, handler.deliveries[9]);
        assertEquals(List.of(handler.rewind), exceptions.exceptions);
        assertEquals(List.of(FAILING), exceptions.sequences);
        assertSame(f.ring.get(FAILING), exceptions.events.get(0));
        assertEquals(2, f.processor.batchRewinds());
        assertEquals(1, f.processor.exceptionsHandled());
        assertEquals(EVENTS - 1, f.processor.getSequence().get(), "after giving up the batch goes on");
    }

    @Test
    void atMostZeroNeverRetries() throws Exception {
        final RewindingHandler handler = new RewindingHandler(1);
        final Collecting exceptions = new Collecting();
        final Fixture f = run(handler, BatchRewindStrategies.atMost(0), exceptions);
        assertEquals(1, handler.deliveries[(int) FAILING]);
        assertEquals(1, handler.deliveries[0]);
        assertEquals(List.of(handler.rewind), exceptions.exceptions);
        assertEquals(0, f.processor.batchRewinds());
    }

    @Test
    void withPauseRetriesTheSameNumberOfTimes() throws Exception {
        final RewindingHandler handler = new RewindingHandler(Integer.MAX_VALUE);
        final AskedStrategy strategy = new AskedStrategy(BatchRewindStrategies.withPause(2, Duration.ofMillis(1)));
        final Collecting exceptions = new Collecting();
        final Fixture f = run(handler, strategy, exceptions);

        assertEquals(List.of(1, 2, 3), strategy.attempts);
        assertEquals(3, handler.deliveries[(int) FAILING]);
        assertEquals(List.of(FAILING), exceptions.sequences);
        assertEquals(2, f.processor.batchRewinds());
    }

    @Test
    void aPausedRetrySucceedsWhenTheFailureClears() throws Exception {
        final RewindingHandler handler = new RewindingHandler(1);
        final Collecting exceptions = new Collecting();
        run(handler, BatchRewindStrategies.withPause(3, Duration.ofMillis(1)), exceptions);
        assertEquals(2, handler.deliveries[(int) FAILING]);
        assertEquals(List.of(), exceptions.exceptions);
    }

    @Test
    void theDefaultRetriesThreeTimes() throws Exception {
        final RewindingHandler handler = new RewindingHandler(Integer.MAX_VALUE);
        final Collecting exceptions = new Collecting();
        final Fixture f = run(handler, null, exceptions);
        assertEquals(BatchEventProcessor.DEFAULT_REWIND_RETRIES + 1, handler.deliveries[(int) FAILING]);
        assertEquals(List.of(handler.rewind), exceptions.exceptions);
        assertEquals(BatchEventProcessor.DEFAULT_REWIND_RETRIES, f.processor.batchRewinds());
    }

    @Test
    void aStrategyThatThrowsIsReportedWithTheRewindSuppressed() throws Exception {
        final RewindingHandler handler = new RewindingHandler(1);
        final IllegalStateException broken = new IllegalStateException("broken strategy");
        final Collecting exceptions = new Collecting();
        run(handler, (exception, attempt) -> {
            throw broken;
        }, exceptions);
        assertEquals(List.of(broken), exceptions.exceptions);
        assertSame(handler.rewind, broken.getSuppressed()[0]);
    }

    @Test
    void haltStopsAProcessorThatKeepsRewinding() throws Exception {
        final CountDownLatch rewinding = new CountDownLatch(3);
        final RewindingHandler handler = new RewindingHandler(Integer.MAX_VALUE) {
            @Override
            public void onEvent(final LongEvent event, final long sequence, final boolean endOfBatch) throws Exception {
                if (sequence == FAILING) {
                    rewinding.countDown();
                }
                super.onEvent(event, sequence, endOfBatch);
            }
        };
        final Fixture f = new Fixture(handler).publish(0, EVENTS);
        f.processor.setRewindStrategy(BatchRewindStrategies.always());
        f.start();
        rewinding.await();
        f.haltAndJoin();

        assertEquals(-1, f.processor.getSequence().get(), "an abandoned batch is not consumed");
        assertEquals(1, handler.shutdowns);
        assertNull(f.uncaught.get());
    }

    @Test
    void badArgumentsAreRejected() {
        assertEquals("retries must be >= 0, got -1",
                assertThrows(IllegalArgumentException.class, () -> BatchRewindStrategies.atMost(-1)).getMessage());
        assertEquals("retries must be >= 0, got -2", assertThrows(IllegalArgumentException.class,
                () -> BatchRewindStrategies.withPause(-2, Duration.ZERO)).getMessage());
        assertEquals("pause must not be null", assertThrows(NullPointerException.class,
                () -> BatchRewindStrategies.withPause(1, null)).getMessage());
        assertEquals("pause must be >= 0, got PT-1S", assertThrows(IllegalArgumentException.class,
                () -> BatchRewindStrategies.withPause(1, Duration.ofSeconds(-1))).getMessage());
    }

    @Test
    void strategiesDecideByAttempt() {
        final RewindableException e = new RewindableException("x");
        assertEquals(BatchRewindStrategy.Decision.RETRY, BatchRewindStrategies.always().decide(e, 1_000_000));
        final BatchRewindStrategy two = BatchRewindStrategies.atMost(2);
        assertEquals(BatchRewindStrategy.Decision.RETRY, two.decide(e, 1));
        assertEquals(BatchRewindStrategy.Decision.RETRY, two.decide(e, 2));
        assertEquals(BatchRewindStrategy.Decision.GIVE_UP, two.decide(e, 3));
        assertEquals("BatchRewindStrategies.atMost(2)", two.toString());
        assertEquals("BatchRewindStrategies.withPause(1, PT0.005S)",
                BatchRewindStrategies.withPause(1, Duration.ofMillis(5)).toString());
        assertEquals("BatchRewindStrategies.always()", BatchRewindStrategies.always().toString());
    }

    @Test
    void anInterruptedPauseGivesUpAndKeepsTheInterrupt() {
        Thread.currentThread().interrupt();
        try {
            assertEquals(BatchRewindStrategy.Decision.GIVE_UP, BatchRewindStrategies
                    .withPause(5, Duration.ofSeconds(30)).decide(new RewindableException("x"), 1));
            assertEquals(true, Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void rewindableExceptionKeepsItsCause() {
        final Exception cause = new java.io.IOException("down");
        assertSame(cause, new RewindableException("retry", cause).getCause());
        assertSame(cause, new RewindableException(cause).getCause());
        assertInstanceOf(Exception.class, new RewindableException("checked"));
    }
}
