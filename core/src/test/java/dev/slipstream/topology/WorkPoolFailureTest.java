package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Work pools (queue-fed and hand-wired ring pools) under failures: the pools' failure contract. */
@Timeout(60)
class WorkPoolFailureTest {
    /** Threads whose uncaught exceptions are collected instead of printed. */
    private static ThreadFactory recording(final List<Throwable> uncaught) {
        return r -> {
            final Thread t = new Thread(r);
            t.setUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
            return t;
        };
    }

    @Test
    void worker0FailingOnStartUnderTheRethrowPolicyIsRecordedAndStopsThePool() {
        final EventHandler<Integer> cannotStart = new EventHandler<>() {
            @Override
            public void onEvent(final Integer item, final long sequence, final boolean endOfBatch) {
            }

            @Override
            public void onStart() {
                throw new IllegalStateException("no connection");
            }
        };
        final EventHandler<Integer> fine = (item, s, end) -> { };
        final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                .handlers(cannotStart, fine).wakePolicy(WakePolicy.BIASED)
                .exceptionHandler(ExceptionHandlers.rethrow()).threadFactory(recording(uncaught)).build();
        for (int i = 0; i < 100; i++) {
            assertTrue(pool.offer(i));
        }
        pool.start();
        Await.until("the failure is recorded", () -> !pool.failures().isEmpty());
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(5));
        assertFalse(result.isClean(), result::toString);
        assertEquals(1, result.failures().size(), result::toString);
        assertEquals(100, pool.eventsProcessed() + result.eventsLeft("queue-pool"),
                "every accepted item is handled or reported: " + result);
        assertTrue(uncaught.isEmpty(), "reported, not printed: " + uncaught);
    }

    @Test
    void theHaltPolicyStopsAQueuePoolWithoutAnUncaughtException() {
        final EventHandler<Integer> failsOn3 = (item, s, end) -> {
            if (item == 3) {
                throw new IllegalArgumentException("bad item 3");
            }
        };
        final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                .handlers(failsOn3).exceptionHandler(ExceptionHandlers.halt("q")).threadFactory(recording(uncaught))
                .build();
        pool.start();
        for (int i = 0; i < 10; i++) {
            pool.offer(i);
        }
        Await.until("the failure is recorded", () -> !pool.failures().isEmpty());
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(5));
        assertEquals(1, result.failures().size(), result::toString);
        assertEquals(10, pool.eventsProcessed() + result.eventsLeft("queue-pool"), result::toString);
        assertTrue(uncaught.isEmpty(), "the halt policy's exception was printed as uncaught: " + uncaught);
    }

    @Test
    void aHandWiredRingPoolWithTheHaltPolicyTellsItsProducerInsteadOfHangingIt() throws Exception {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 8, new YieldingWaitStrategy());
        final EventHandler<TestEvent> failsOn2 = (event, sequence, end) -> {
            if (sequence == 2) {
                throw new IllegalArgumentException("bad event 2");
            }
        };
        final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        final WorkerPool<TestEvent> pool = WorkerPool.builder(ring).handlers(failsOn2)
                .exceptionHandler(ExceptionHandlers.halt("pool")).name("pool").build();
        ring.addGatingSequences(pool.getSequences());
        final List<Thread> threads = pool.start(recording(uncaught));
        final AtomicReference<Throwable> producerEnd = new AtomicReference<>();
        final Thread producer = new Thread(() -> {
            try {
                for (int i = 0; i < 100; i++) {
                    ring.publishEvent(TestEvent::set, (long) i);
                }
            } catch (Throwable t) {
                producerEnd.set(t);
            }
        });
        producer.start();
        producer.join(20_000);
        assertFalse(producer.isAlive(), "the producer hangs behind the event the stopped worker never finished");
        assertTrue(producerEnd.get() instanceof SequencerClosedException, String.valueOf(producerEnd.get()));
        assertEquals(1, pool.failures().size());
        for (final Thread thread : threads) {
            thread.join(5_000);
        }
        assertTrue(uncaught.isEmpty(), "reported, not printed: " + uncaught);
    }
}
