package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(60)
class WorkerPoolTest {
    private static final int EVENTS = 100_000;

    /** Halts the pool and checks that every worker's thread ends within 10 s. */
    private static void haltAndJoin(final WorkerPool<?> pool, final List<Thread> threads) throws InterruptedException {
        pool.halt();
        for (final Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(thread.isAlive(), thread.getName() + " ended");
        }
    }

    @ParameterizedTest
    @EnumSource(WakePolicy.class)
    void eachEventIsHandledByExactlyOneWorker(final WakePolicy policy) throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 256, new YieldingWaitStrategy());
        final AtomicIntegerArray seen = new AtomicIntegerArray(EVENTS);
        final AtomicLong sum = new AtomicLong();
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring)
                .handlers(counter(seen, sum), counter(seen, sum), counter(seen, sum), counter(seen, sum))
                .wakePolicy(policy).batchSize(8).name("pool").build();
        ring.addGatingSequences(pool.getSequences());
        final List<Thread> threads = pool.start(Thread::new);
        for (int i = 0; i < EVENTS; i++) {
            ring.publishEvent(TestEvent::set, (long) i);
        }
        Await.until("the pool finished every event", () -> pool.getSequence() == EVENTS - 1);
        haltAndJoin(pool, threads);
        for (int i = 0; i < EVENTS; i++) {
            assertEquals(1, seen.get(i), "times sequence " + i + " was handled");
        }
        assertEquals((long) EVENTS * (EVENTS - 1) / 2, sum.get());
        assertEquals(EVENTS, pool.eventsProcessed());
        long perWorker = 0;
        for (int i = 0; i < pool.size(); i++) {
            perWorker += pool.eventsProcessed(i);
        }
        assertEquals(EVENTS, perWorker);
        assertFalse(pool.isRunning());
    }

    @Test
    void biasedPoolUsesOnlyWorkerZeroWhileItKeepsUp() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new BlockingWaitStrategy());
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring)
                .handlers(noop(), noop(), noop(), noop()).build();
        ring.addGatingSequences(pool.getSequences());
        final List<Thread> threads = pool.start(Thread::new);
        Await.until("workers 1..3 parked", () -> pool.isParked(1) && pool.isParked(2) && pool.isParked(3));
        for (int i = 0; i < 200; i++) {
            ring.publishEvent(TestEvent::set, (long) i);
            final long expected = i;
            Await.until("event " + i + " handled", () -> pool.getSequence() >= expected);
        }
        assertEquals(200, pool.eventsProcessed(0));
        assertEquals(0, pool.wakeUps());
        haltAndJoin(pool, threads);
    }

    @Test
    void anOverloadedWorkerWakesTheNext() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 256, new BlockingWaitStrategy());
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicLong handled = new AtomicLong();
        final EventHandler<TestEvent> blocksFirst = new EventHandler<>() {
            @Override
            public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) throws Exception {
                release.await();
                handled.incrementAndGet();
            }
        };
        final EventHandler<TestEvent> second = (e, s, end) -> handled.incrementAndGet();
        final EventHandler<TestEvent> third = (e, s, end) -> handled.incrementAndGet();
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring)
                .handlers(blocksFirst, second, third).batchSize(4).build();
        ring.addGatingSequences(pool.getSequences());
        final List<Thread> threads = pool.start(Thread::new);
        Await.until("workers 1 and 2 parked", () -> pool.isParked(1) && pool.isParked(2));

        final long hi = ring.next(100);
        ring.publish(hi - 99, hi);
        // worker 0 is stuck in its first event: only woken workers can handle the other 96
        Await.until("workers 1 and 2 handled the rest",
                () -> pool.eventsProcessed(1) + pool.eventsProcessed(2) == 96);
        assertEquals(96, handled.get());
        assertTrue(pool.eventsProcessed(1) > 0, "worker 1 was woken by worker 0 and worked");
        // worker 1 claimed a batch with more waiting, so it woke worker 2 (which may have found nothing left)
        assertTrue(pool.wakeUps() >= 2, "worker 1 by 0, worker 2 by 1: " + pool.wakeUps());
        assertTrue(pool.getSequence() < 3, "the stage holds back the stuck batch, at " + pool.getSequence());
        release.countDown();
        Await.until("all 100 handled", () -> pool.getSequence() == 99);
        assertEquals(100, handled.get());
        haltAndJoin(pool, threads);
    }

    @Test
    void haltStopsParkedAndWaitingWorkers() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new BlockingWaitStrategy());
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(noop(), noop(), noop()).build();
        final List<Thread> threads = pool.start(Thread::new);
        Await.until("workers 1 and 2 parked", () -> pool.isParked(1) && pool.isParked(2));
        assertTrue(pool.isRunning());
        haltAndJoin(pool, threads);
        assertFalse(pool.isRunning());
    }

    @Test
    void sequencesStartWithTheWorkSequenceAndIdleWorkersHoldNothingBack() {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new YieldingWaitStrategy());
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(noop(), noop()).build();
        final Sequence[] sequences = pool.getSequences();
        assertEquals(3, sequences.length);
        assertEquals(-1L, sequences[0].get());
        assertEquals(Long.MAX_VALUE, sequences[1].get());
        assertEquals(-1L, pool.getSequence());
        assertTrue(pool.toString().contains("worker-pool"));
    }

    @Test
    void rejectsBadInput() {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new YieldingWaitStrategy());
        final EventHandler<TestEvent> h = noop();
        assertThrows(NullPointerException.class, () -> WorkerPool.builder(null));
        final IllegalStateException none = assertThrows(IllegalStateException.class, () -> WorkerPool.builder(ring).build());
        assertTrue(none.getMessage().contains("no workers"), none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WorkerPool.builder(ring).handlers());
        final IllegalArgumentException twice =
                assertThrows(IllegalArgumentException.class, () -> WorkerPool.builder(ring).handlers(h, h));
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
        assertThrows(NullPointerException.class, () -> WorkerPool.builder(ring).handlers(h, null));
        final IllegalArgumentException batch =
                assertThrows(IllegalArgumentException.class, () -> WorkerPool.builder(ring).batchSize(0));
        assertTrue(batch.getMessage().contains("batchSize must be at least 1, got 0"), batch.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WorkerPool.builder(ring).name(" "));
        assertThrows(NullPointerException.class, () -> WorkerPool.builder(ring).wakePolicy(null));
        assertThrows(NullPointerException.class, () -> WorkerPool.builder(ring).barrier(null));
        assertThrows(NullPointerException.class, () -> WorkerPool.builder(ring).exceptionHandler(null));
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(h).build();
        assertThrows(IndexOutOfBoundsException.class, () -> pool.worker(1));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.eventsProcessed(-1));
        assertThrows(NullPointerException.class, () -> pool.start(null));
    }

    @Test
    void aWorkerRunsOnceAndThePoolStartsOnce() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new YieldingWaitStrategy());
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(noop()).name("once").build();
        final List<Thread> threads = pool.start(Thread::new);
        Await.until("worker running", pool::isRunning);
        final IllegalStateException again = assertThrows(IllegalStateException.class, () -> pool.start(Thread::new));
        assertTrue(again.getMessage().contains("already started"), again.getMessage());
        assertThrows(IllegalStateException.class, () -> pool.worker(0).run());
        assertEquals("once-0", threads.get(0).getName());
        pool.halt();
        threads.get(0).join();
    }

    @Test
    void exceptionsGoToTheExceptionHandlerAndTheWorkerContinues() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new YieldingWaitStrategy());
        final AtomicLong reported = new AtomicLong();
        final EventHandler<TestEvent> failsOnOdd = (e, s, end) -> {
            if ((s & 1) == 1) {
                throw new IllegalStateException("odd " + s);
            }
        };
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(failsOnOdd)
                .exceptionHandler(new CountingExceptionHandler<>(reported)).build();
        ring.addGatingSequences(pool.getSequences());
        final List<Thread> threads = pool.start(Thread::new);
        for (int i = 0; i < 1000; i++) {
            ring.publishEvent(TestEvent::set, (long) i);
        }
        Await.until("all handled", () -> pool.getSequence() == 999);
        assertEquals(500, reported.get());
        assertEquals(500, pool.exceptionsHandled());
        assertEquals(1000, pool.eventsProcessed());
        assertTrue(pool.batchesProcessed() > 0);
        pool.halt();
        threads.get(0).join();
    }

    /** A distinct instance each call (a lambda that captures nothing would be one shared object). */
    static EventHandler<TestEvent> noop() {
        return new EventHandler<>() {
            @Override
            public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
            }
        };
    }

    private static EventHandler<TestEvent> counter(final AtomicIntegerArray seen, final AtomicLong sum) {
        return (e, s, end) -> {
            seen.incrementAndGet((int) s);
            sum.addAndGet(e.value);
        };
    }

    @Test
    void aWorkerStoppedByItsExceptionHandlerHoldsBackWhatItDidNotFinish() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 64, new YieldingWaitStrategy());
        final EventHandler<TestEvent> failsAt5 = (e, s, end) -> {
            if (s == 5) {
                throw new IllegalStateException("bad " + s);
            }
        };
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(failsAt5).batchSize(8)
                .exceptionHandler(dev.slipstream.processor.ExceptionHandlers.halt("pool")).build();
        ring.addGatingSequences(pool.getSequences());
        for (int i = 0; i < 20; i++) {
            ring.publishEvent(TestEvent::set, (long) i);
        }
        final Thread worker = new Thread(() -> {
            try {
                pool.worker(0).run();
            } catch (RuntimeException expected) {
                // the halt policy's exception ends the worker
            }
        });
        worker.start();
        worker.join(20_000);
        assertFalse(worker.isAlive());
        assertEquals(4, pool.getSequence(), "events 0..4 finished, 5..7 of the batch not");
        assertEquals(5, pool.eventsProcessed());
        assertEquals(1, pool.exceptionsHandled());
    }
}
