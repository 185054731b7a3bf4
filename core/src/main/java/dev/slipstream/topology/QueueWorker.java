package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;

/**
 * A {@link QueueWorkerPool} worker: polls up to a batch of items from the pool's queue, then hands
 * each to its own handler; parks when the queue stays empty, and ends on an empty queue once the
 * pool drains.
 *
 * <pre>{@code
 * // made by QueueWorkerPool, one per handler:
 * QueueWorker<Order> worker = new QueueWorker<>(pool, 0, new Matcher());
 * new Thread(worker).start();
 * }</pre>
 *
 * @param <T> the item type
 */
final class QueueWorker<T> extends PoolWorker<T> {
    /** Polls of an empty queue before a worker parks. */
    private static final int SPINS_BEFORE_PARK = 100;
    /** Yields after the spins, before parking. */
    private static final int YIELDS_BEFORE_PARK = 2;

    private static final VarHandle HOLDING;

    static {
        try {
            HOLDING = MethodHandles.lookup().findVarHandle(QueueWorker.class, "holding", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final QueueWorkerPool<T> pool;
    /**
     * Items taken from the queue and not yet handled; written opaque by this worker, read by a
     * shutdown to count what a stuck worker holds.
     */
    volatile long holding;

    QueueWorker(final QueueWorkerPool<T> pool, final int index, final EventHandler<? super T> handler) {
        super(pool.name(), index, handler, pool.exceptionHandler(), pool.wakePolicy());
        this.pool = pool;
    }

    @Override
    void work() {
        final Queue<T> queue = pool.queue();
        final int batchSize = pool.batchSize();
        final boolean biased = pool.wakePolicy() == WakePolicy.BIASED;
        // the claimed batch, allocated once per worker
        final Object[] batch = new Object[batchSize];
        long count = 0;
        while (!pool.isHalted()) {
            int taken = 0;
            T item;
            while (taken < batchSize && (item = queue.poll()) != null) {
                batch[taken++] = item;
            }
            if (taken == 0) {
                if (!awaitItems()) {
                    return;
                }
                continue;
            }
            // opaque: only a shutdown that finds this worker stuck reads it
            HOLDING.setOpaque(this, (long) taken);
            if (biased && taken == batchSize && !queue.isEmpty()) {
                // overloaded: a full batch and more waiting
                pool.wakeAfter(index);
            }
            for (int i = 0; i < taken; i++) {
                @SuppressWarnings("unchecked")
                final T next = (T) batch[i];
                batch[i] = null;
                try {
                    handler.onEvent(next, count, i == taken - 1);
                } catch (Throwable t) {
                    try {
                        handleEventException(t, count, next);
                    } catch (RuntimeException | Error stop) {
                        // this item and the rest of the batch are out of the queue, unhandled
                        pool.abandon(taken - i);
                        HOLDING.setOpaque(this, 0L);
                        countEvents(i, false);
                        throw stop;
                    }
                }
                count++;
                HOLDING.setOpaque(this, (long) (taken - i - 1));
            }
            countEvents(taken, true);
        }
    }

    @Override
    void stoppedCleanly() {
        // nothing held: every item taken was handled
    }

    @Override
    void stoppedOnFailure(final Throwable failure) {
        // recorded and logged once; the pool stops and refuses offers. Not rethrown: the failure
        // is reported, not printed by the thread's uncaught-exception handler.
        pool.workerStopped(index, failure);
    }

    @Override
    boolean halted() {
        return pool.isHalted();
    }

    @Override
    boolean workVisible() {
        // the queue's synchronising read, then the volatile flag: ordered after our PARKED store
        return !pool.queue().isEmpty() || pool.isDraining();
    }

    /** Waits for items. @return false if the worker should stop */
    private boolean awaitItems() {
        final Queue<T> queue = pool.queue();
        // the source waiter rides out short gaps longer; a woken helper parks sooner
        final int tries = waitsOnSource ? SPINS_BEFORE_PARK + YIELDS_BEFORE_PARK : SPINS_BEFORE_PARK / 4;
        for (int i = 0; i < tries; i++) {
            if (!queue.isEmpty() || pool.isHalted()) {
                return !pool.isHalted();
            }
            if (i < SPINS_BEFORE_PARK) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        if (pool.isDraining()) {
            // shutting down and the queue was empty: done
            return !queue.isEmpty() && !pool.isHalted();
        }
        return park();
    }
}
