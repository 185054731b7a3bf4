package dev.slipstream.topology;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.sequence.Backoff;
import java.lang.invoke.VarHandle;
import java.util.Queue;

/**
 * A {@link QueueWorkerPool} worker: polls a batch from the queue and hands each item to its
 * handler; parks while the queue stays empty, and ends on an empty queue once the pool drains.
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
    private static final VarHandle HOLDING = FieldHandles.of(QueueWorker.class, "holding", long.class);

    private final QueueWorkerPool<T> pool;
    /** Rides out short gaps between items before a worker that waits on the source parks. */
    private final Backoff sourceWait = new Backoff(100, 2, 0L, 0L);
    /** The same for a woken helper, which parks sooner. */
    private final Backoff helperWait = new Backoff(25, 0, 0L, 0L);
    /** Items taken and not yet handled: a shutdown counts what a stuck worker holds. */
    volatile long holding;
    /** The claimed batch, allocated once per worker; this worker's thread only. */
    private final Object[] batch;
    /** Items handled so far, the sequence handlers see; plain: this worker's thread only. */
    private long count;

    QueueWorker(final QueueWorkerPool<T> pool, final int index, final EventHandler<? super T> handler) {
        // no runner back-off: awaitItems parks through the wake-up protocol instead
        super(pool, index, handler, new Backoff(0, 0, 0L, 0L));
        this.pool = pool;
        this.batch = new Object[pool.batchSize()];
    }

    @Override
    public int doWork() {
        if (pool.isHalted()) {
            return DONE;
        }
        final Queue<T> queue = pool.queue();
        final int batchSize = batch.length;
        final Object[] batch = this.batch;
        int taken = 0;
        T item;
        while (taken < batchSize && (item = queue.poll()) != null) {
            batch[taken++] = item;
        }
        if (taken == 0) {
            // waited until items came (look again at once), or the pool halted or drained dry
            return awaitItems() ? 1 : DONE;
        }
        // opaque: only a shutdown that finds this worker stuck reads it
        srHolding(taken);
        if (pool.wakePolicy() == WakePolicy.BIASED && taken == batchSize && !queue.isEmpty()) {
            // overloaded: a full batch and more waiting
            pool.wakeAfter(index);
        }
        long count = this.count;
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
                    srHolding(0L);
                    countEvents(i, false);
                    this.count = count;
                    throw stop;
                }
            }
            count++;
            srHolding(taken - i - 1);
        }
        this.count = count;
        countEvents(taken, true);
        return taken;
    }

    @Override
    boolean workVisible() {
        // the queue's synchronising read, then the volatile flag: ordered after our PARKED store
        return !pool.queue().isEmpty() || pool.isDraining();
    }

    /** Waits for items. @return false if the worker should stop */
    private boolean awaitItems() {
        final Queue<T> queue = pool.queue();
        final Backoff backoff = waitsOnSource ? sourceWait : helperWait;
        backoff.reset();
        do {
            if (!queue.isEmpty() || pool.isHalted()) {
                return !pool.isHalted();
            }
        } while (backoff.spinOrYield());
        if (pool.isDraining()) {
            // shutting down and the queue was empty: done
            return !queue.isEmpty() && !pool.isHalted();
        }
        return park();
    }

    /** Opaque: one writer, and the reader needs only a whole value. */
    private void srHolding(final long count) {
        HOLDING.setOpaque(this, count);
    }
}
