package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.stress.TestSize;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model check of the work pools' park/wake handshake: the parking half in {@link PoolWorker#park()}
 * and the waking half in {@link BiasedWaker#wake(PoolWorker)}, the code both pools run. A worker
 * waits for items on an empty queue, parking when it finds none; producers offer an item each and
 * wake it, as {@link QueueWorkerPool#offer(Object)} does. In every interleaving Lincheck explores
 * (it models {@code LockSupport.park/unpark}), the worker must take every item and end: a lost
 * wake-up leaves it parked forever, which the model checker reports as a hang.
 *
 * <p>The same check must fail on a copy of the handshake that parks without the re-check after
 * its {@code PARKED} store ({@link #parkWithoutRecheck}).
 */
@Tag("scaled")
class PoolWakeUpLincheckTest {
    private static final int INVOCATIONS = TestSize.pick(300, 2_000, 20_000);
    private static final EventHandler<Integer> NOOP = (item, sequence, endOfBatch) -> { };

    /** How a worker that found the queue empty waits; false means stop. */
    private interface Parker {
        boolean park(QueueWorker<Integer> worker);
    }

    @Test
    void noWakeUpIsLost() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> twoProducersOneWorker(PoolWorker::park));
    }

    @Test
    @Tag("stress")
    void theModelCheckCatchesAParkWithoutTheReCheck() {
        final Throwable caught = assertThrows(Throwable.class, () -> Lincheck.runConcurrentTest(INVOCATIONS,
                        () -> twoProducersOneWorker(PoolWakeUpLincheckTest::parkWithoutRecheck)),
                "a worker that parks without re-checking the queue after its PARKED store must be caught");
        final String message = String.valueOf(caught.getMessage());
        System.out.println("[lincheck] park mutant: " + message.substring(0, Math.min(message.length(), 1500)));
        // the lost wake-up leaves the worker parked with every other thread done
        assertTrue(message.contains("Concurrent test has hung"), message);
    }

    /** Two producers offer one item each and wake the worker; the worker must take both and end. */
    private static void twoProducersOneWorker(final Parker parker) {
        final ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(queue).name("p").handlers(NOOP).build();
        final QueueWorker<Integer> worker = new QueueWorker<>(pool, 0, NOOP);
        final BiasedWaker waker = new BiasedWaker(new PoolWorker<?>[] {worker});
        final AtomicInteger taken = new AtomicInteger();
        final Thread consumer = new Thread(() -> {
            // volatile store: the waker reads it after seeing PARKED, as in PoolWorker.onStart()
            worker.thread = Thread.currentThread();
            while (taken.get() < 2) {
                if (queue.poll() != null) {
                    taken.incrementAndGet();
                } else if (!parker.park(worker)) {
                    return;
                }
            }
        });
        final Runnable produce = () -> {
            queue.offer(1);
            // as QueueWorkerPool.offer does under the biased policy
            waker.wake(0);
        };
        final Thread first = new Thread(produce);
        final Thread second = new Thread(produce);
        consumer.start();
        first.start();
        second.start();
        join(consumer);
        join(first);
        join(second);
        assertEquals(2, taken.get(), "the worker must take every item offered");
    }

    /**
     * MUTANT: {@link PoolWorker#park()} without the re-check of the source after the
     * {@code PARKED} store. Test code only.
     */
    private static boolean parkWithoutRecheck(final QueueWorker<Integer> worker) {
        worker.state = PoolWorker.PARKED;
        do {
            LockSupport.park(worker);
        } while (worker.state == PoolWorker.PARKED);
        return true;
    }

    private static void join(final Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theRealWorkerProtocolIsWhatThisChecks() {
        // the check above drives PoolWorker.park() through a QueueWorker: its re-check is the
        // queue's emptiness and the pool's draining flag
        final ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
        final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(queue).name("p").handlers(NOOP).build();
        final QueueWorker<Integer> worker = new QueueWorker<>(pool, 0, NOOP);
        queue.offer(1);
        assertTrue(worker.workVisible(), "an item in the queue is work a parking worker must see");
    }
}
