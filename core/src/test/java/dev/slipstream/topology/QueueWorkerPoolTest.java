package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(60)
class QueueWorkerPoolTest {
    private static final int PER_PRODUCER = 50_000;

    @ParameterizedTest
    @EnumSource(WakePolicy.class)
    void eachItemIsHandledByExactlyOneWorkerAndShutdownDrains(final WakePolicy policy) throws Exception {
        final AtomicIntegerArray seen = new AtomicIntegerArray(2 * PER_PRODUCER);
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                .handlers(marker(seen), marker(seen), marker(seen)).wakePolicy(policy).batchSize(16).build();
        pool.start();
        final Thread p1 = new Thread(() -> offer(pool, 0));
        final Thread p2 = new Thread(() -> offer(pool, PER_PRODUCER));
        p1.start();
        p2.start();
        p1.join();
        p2.join();
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(20));
        assertTrue(result.isClean(), result::toString);
        assertEquals(0, result.eventsLeft("queue-pool"));
        for (int i = 0; i < 2 * PER_PRODUCER; i++) {
            assertEquals(1, seen.get(i), "times item " + i + " was handled");
        }
        assertEquals(2L * PER_PRODUCER, pool.eventsProcessed());
        assertTrue(pool.batchesProcessed() > 0);
    }

    @Test
    void biasedPoolUsesOnlyWorkerZeroWhileItKeepsUp() {
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                .handlers(noop(), noop(), noop()).build();
        pool.start();
        Await.until("workers 1 and 2 parked", () -> pool.isParked(1) && pool.isParked(2));
        for (int i = 0; i < 200; i++) {
            assertTrue(pool.offer(i));
            final long expected = i + 1;
            Await.until("item " + i + " handled", () -> pool.eventsProcessed() == expected);
        }
        assertEquals(200, pool.eventsProcessed(0));
        assertTrue(pool.shutdown(Duration.ofSeconds(10)).isClean());
    }

    @Test
    void anOverloadedWorkerWakesTheNext() {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicLong handled = new AtomicLong();
        final EventHandler<Integer> stuck = (item, s, end) -> {
            release.await();
            handled.incrementAndGet();
        };
        final EventHandler<Integer> second = (item, s, end) -> handled.incrementAndGet();
        final EventHandler<Integer> third = (item, s, end) -> handled.incrementAndGet();
        final Queue<Integer> queue = new ConcurrentLinkedQueue<>();
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(queue)
                .handlers(stuck, second, third).batchSize(4).name("fan").build();
        pool.start();
        Await.until("all workers parked", () -> pool.isParked(0) && pool.isParked(1) && pool.isParked(2));
        // a burst lands at once (straight into the queue), then one offer wakes worker 0
        for (int i = 0; i < 99; i++) {
            queue.add(i);
        }
        assertTrue(pool.offer(99));
        // worker 0 holds a batch of 4 and is stuck in it: only woken workers handle the other 96
        Await.until("workers 1 and 2 handled the rest",
                () -> pool.eventsProcessed(1) + pool.eventsProcessed(2) == 96);
        assertEquals(96, handled.get());
        assertTrue(pool.eventsProcessed(1) > 0, "worker 1 was woken by worker 0 and worked");
        // worker 1 took a batch with more waiting, so it woke worker 2 (which may have found nothing left)
        assertTrue(pool.wakeUps() >= 3, "worker 0 by the offer, 1 by 0, 2 by 1: " + pool.wakeUps());
        release.countDown();
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(10));
        assertTrue(result.isClean(), result::toString);
        assertEquals(100, handled.get());
    }

    @Test
    void offerAfterShutdownIsRefusedAndShutdownIsIdempotent() {
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                .handlers(noop()).name("jobs").build();
        pool.start();
        final ShutdownResult first = pool.shutdown(Duration.ofSeconds(5));
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> pool.offer(1));
        assertTrue(refused.getMessage().contains("pool 'jobs' is shut down"), refused.getMessage());
        assertSame(first, pool.shutdown(Duration.ofSeconds(5)));
        assertSame(first, pool.halt());
        pool.close();
        final IllegalStateException restart = assertThrows(IllegalStateException.class, pool::start);
        assertTrue(restart.getMessage().contains("shut down"), restart.getMessage());
    }

    @Test
    void haltLeavesTheRestInTheQueueAndReportsIt() {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final EventHandler<Integer> slow = (item, s, end) -> {
            entered.countDown();
            release.await();
        };
        final Queue<Integer> queue = new ConcurrentLinkedQueue<>();
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(queue).handlers(slow).batchSize(1).build();
        pool.start();
        for (int i = 0; i < 10; i++) {
            pool.offer(i);
        }
        Await.until("worker busy", () -> entered.getCount() == 0);
        final Thread releaser = new Thread(() -> {
            Await.until("halt requested", pool::isHalted);
            release.countDown();
        });
        releaser.start();
        final ShutdownResult result = pool.halt();
        assertTrue(result.wasHalted());
        assertFalse(result.isDrained(), result::toString);
        assertEquals(9, result.eventsLeft("queue-pool"));
        assertTrue(result.isTerminated(), result::toString);
    }

    @Test
    void aFatalExceptionStopsThePoolAndRefusesOffers() {
        final ExceptionHandler<Integer> fatal = new ExceptionHandler<>() {
            @Override
            public void handleEventException(final Throwable ex, final long sequence, final Integer event) {
                throw new IllegalStateException("give up on " + event, ex);
            }

            @Override
            public void handleOnStartException(final Throwable ex) {
            }

            @Override
            public void handleOnShutdownException(final Throwable ex) {
            }
        };
        final EventHandler<Integer> failsOn5 = (item, s, end) -> {
            if (item == 5) {
                throw new IllegalArgumentException("bad item");
            }
        };
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                .handlers(failsOn5).exceptionHandler(fatal).threadFactory(r -> {
                    final Thread t = new Thread(r);
                    t.setUncaughtExceptionHandler((th, e) -> { });
                    return t;
                }).build();
        pool.start();
        for (int i = 0; i < 10; i++) {
            pool.offer(i);
        }
        final AtomicLong accepted = new AtomicLong(10);
        Await.until("pool stopped", () -> {
            try {
                if (pool.offer(100)) {
                    accepted.incrementAndGet();
                }
                return false;
            } catch (IllegalStateException stopped) {
                return stopped.getMessage().contains("stopped after a failure");
            }
        });
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(5));
        assertEquals(1, result.failures().size(), result::toString);
        assertTrue(result.failures().get(0).cause().getMessage().contains("give up on 5"));
        assertEquals(accepted.get(), pool.eventsProcessed() + result.eventsLeft("queue-pool"),
                "every accepted item was handled or reported as left");
        assertFalse(result.isClean());
    }

    @Test
    void aBoundedQueueThatIsFullRefusesWithFalse() {
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ArrayBlockingQueue<Integer>(1))
                .handlers(noop()).build();
        // not started: nothing takes from the queue
        assertTrue(pool.offer(1));
        assertFalse(pool.offer(2));
        assertEquals(1, pool.backlog());
        final ShutdownResult neverStarted = pool.shutdown(Duration.ZERO);
        assertEquals(1, neverStarted.eventsLeft("queue-pool"));
    }

    @Test
    void rejectsBadInput() {
        final Queue<Integer> queue = new ConcurrentLinkedQueue<>();
        final EventHandler<Integer> h = noop();
        assertThrows(NullPointerException.class, () -> QueueWorkerPool.builder(null));
        assertThrows(IllegalStateException.class, () -> QueueWorkerPool.builder(queue).build());
        assertThrows(IllegalArgumentException.class, () -> QueueWorkerPool.builder(queue).handlers(h, h));
        final IllegalArgumentException batch =
                assertThrows(IllegalArgumentException.class, () -> QueueWorkerPool.builder(queue).batchSize(-3));
        assertTrue(batch.getMessage().contains("got -3"), batch.getMessage());
        assertThrows(NullPointerException.class, () -> QueueWorkerPool.builder(queue).threadFactory(null));
        assertThrows(IllegalArgumentException.class, () -> QueueWorkerPool.builder(queue).name(""));
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(queue).handlers(h).build();
        assertThrows(NullPointerException.class, () -> pool.offer(null));
        assertThrows(NullPointerException.class, () -> pool.shutdown(null));
        final IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> pool.shutdown(Duration.ofSeconds(-1)));
        assertTrue(negative.getMessage().contains("timeout must not be negative"), negative.getMessage());
        pool.start();
        final IllegalStateException twice = assertThrows(IllegalStateException.class, pool::start);
        assertTrue(twice.getMessage().contains("already started"), twice.getMessage());
        assertTrue(pool.shutdown(Duration.ofSeconds(5)).isClean());
    }

    private static void offer(final QueueWorkerPool<Integer> pool, final int from) {
        for (int i = from; i < from + PER_PRODUCER; i++) {
            if (!pool.offer(i)) {
                throw new AssertionError("unbounded queue refused " + i);
            }
        }
    }

    private static EventHandler<Integer> marker(final AtomicIntegerArray seen) {
        return (item, s, end) -> seen.incrementAndGet(item);
    }

    private static EventHandler<Integer> noop() {
        return new EventHandler<>() {
            @Override
            public void onEvent(final Integer item, final long sequence, final boolean endOfBatch) {
            }
        };
    }
}
