package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Events skipped after an exception are counted exactly when several threads of one stage (a work
 * pool's workers) throw at once: every worker reports into the stage's one tally. The proof that
 * this check can fail (a tally of plain fields loses counts) is
 * {@code stress-tests}' {@code ExceptionTallyStressTest}.
 */
@Timeout(60)
class ExceptionCountingTest {
    /** Throws without filling in a stack trace: the exception path as fast as it goes. */
    private static final RuntimeException BAD = new RuntimeException("bad", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    /** Says nothing: the test is about counting, not logging. */
    private static final ExceptionHandler<Object> QUIET = new ExceptionHandler<>() {
        @Override
        public void handleEventException(final Throwable ex, final long sequence, final Object event) {
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
        }
    };

    @SuppressWarnings("unchecked")
    private static EventHandler<TestEvent>[] throwingWorkers(final int n) {
        final EventHandler<TestEvent>[] workers = new EventHandler[n];
        for (int i = 0; i < n; i++) {
            final int index = i;
            // captures its index: a lambda that captured nothing would be one shared object
            workers[i] = (e, seq, end) -> {
                if (index >= 0) {
                    throw BAD;
                }
            };
        }
        return workers;
    }

    @Test
    void everyWorkerOfAPoolCountsIntoTheStagesSkippedEvents() {
        final int events = 200_000;
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).name("pool-counts").ringSize(1024)
                .producers(ProducerType.SINGLE).waitStrategy(new YieldingWaitStrategy()).build();
        s.handleEventsWith(StageSpec.workerPool("workers", throwingWorkers(4)).exceptionHandler(QUIET)
                .maxBatchSize(1));
        s.start();
        for (int i = 0; i < events; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(30));
        assertTrue(result.isDrained(), result::toString);
        assertFalse(result.isClean(), result::toString);
        assertEquals(Map.of("workers", (long) events), result.eventsSkipped(), result::toString);
        assertEquals(events, s.stage("workers").metrics().exceptionsHandled());
    }

    @Test
    void aWorkerPoolGivenOneNonCapturingLambdaTwiceSaysWhyTheyAreOneObject() {
        final EventHandler<TestEvent> shared = sharedLambda();
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> StageSpec.workerPool("twice", shared, sharedLambda()));
        assertTrue(e.getMessage().contains("is given twice to worker pool 'twice'; each worker needs its own instance;"
                + " note: a lambda that captures no variable is one shared object"), e.getMessage());
    }

    private static EventHandler<TestEvent> sharedLambda() {
        return (e, seq, end) -> { };
    }

    @Test
    void aQueueFedPoolCountsItsSkippedItems() {
        final int items = 100_000;
        final QueueWorkerPool<Long> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Long>())
                .name("queue-counts").handlers(
                        (EventHandler<Long>) (item, seq, end) -> {
                            if (item % 2 == 0) {
                                throw BAD;
                            }
                        },
                        (EventHandler<Long>) (item, seq, end) -> {
                            if (item % 2 == 0) {
                                throw BAD;
                            }
                        })
                .exceptionHandler(QUIET).build();
        pool.start();
        for (long i = 0; i < items; i++) {
            pool.offer(i);
        }
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(30));
        assertTrue(result.isDrained(), result::toString);
        assertFalse(result.isClean(), result::toString);
        assertEquals(items / 2, result.eventsSkipped("queue-counts"), result::toString);
        assertTrue(result.toString().contains("queue-counts skipped 50000 events after an exception"), result::toString);
    }
}
