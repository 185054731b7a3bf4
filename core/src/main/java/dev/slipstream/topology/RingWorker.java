package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.DataProvider;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.TimeoutException;

/**
 * A {@link WorkerPool} worker: claims batches of sequences from the pool's work sequence with a
 * CAS and hands each event to its own handler. Its own sequence holds back the batch it is
 * handling (see {@link WorkerPool} for why the order of the two stores matters).
 *
 * <pre>{@code
 * // made by WorkerPool, one per handler:
 * RingWorker<Job> worker = new RingWorker<>(pool, 0, new Pricer());
 * new Thread(worker).start();
 * }</pre>
 *
 * @param <E> the event type
 */
final class RingWorker<E> extends PoolWorker<E> {
    private final WorkerPool<E> pool;
    /** Rides out short gaps between bursts before a biased worker parks. */
    private final Backoff beforePark = new Backoff(64, 0, 0L, 0L);
    /** Padded by the Sequence class itself. */
    final Sequence sequence = new Sequence(Long.MAX_VALUE);
    /** The highest sequence the last wait found published; plain: this worker's thread only. */
    private long cachedAvailable = Long.MIN_VALUE;

    RingWorker(final WorkerPool<E> pool, final int index, final EventHandler<? super E> handler) {
        // while the next event is claimed but unpublished: gives the publishing thread the core
        super(pool, index, handler, new Backoff(16, 16, 10_000L, 10_000L));
        this.pool = pool;
    }

    @Override
    public int doWork() {
        if (pool.isHalted()) {
            return DONE;
        }
        final Sequence work = pool.workSequence();
        // acquire: the last claim of any worker
        final long w = work.get();
        final long cachedAvailable = this.cachedAvailable;
        if (cachedAvailable > w) {
            final long hi = Math.min(cachedAvailable, w + pool.batchSize());
            // release, then the volatile CAS: anyone who reads the work sequence at hi and
            // then this sequence sees w, so our claim is held back until we finish it
            sequence.set(w);
            if (!work.compareAndSet(w, hi)) {
                // another worker claimed first: look again at once
                return 1;
            }
            if (pool.wakePolicy() == WakePolicy.BIASED && cachedAvailable > hi) {
                // overloaded: more than our batch is waiting
                pool.wakeAfter(index);
            }
            processBatch(w + 1, hi, cachedAvailable - w);
            // at most the pool's batch size, an int
            return (int) (hi - w);
        }
        if (sequence.getPlain() != Long.MAX_VALUE) {
            // release: the batch we finished is visible; while idle we hold nothing back
            sequence.set(Long.MAX_VALUE);
        }
        try {
            final long available = waitsOnSource ? pool.barrier().waitFor(w + 1) : parkUntilWork(w);
            this.cachedAvailable = available;
            // nothing yet: claimed but not published (many producers), or an early return; the
            // runner backs off, giving the publishing thread the core instead of spinning on it
            return available > w ? 1 : 0;
        } catch (AlertException alerted) {
            return DONE;
        } catch (TimeoutException timeout) {
            notifyTimeout(w);
            return 1;
        } catch (InterruptedException interrupted) {
            return pool.isHalted() ? DONE : 1;
        }
    }

    @Override
    void stoppedCleanly() {
        // stopped between batches: idle for good, hold nothing back (release); after a failure
        // the sequence keeps holding back what this worker did not finish
        sequence.set(Long.MAX_VALUE);
    }

    @Override
    boolean workVisible() {
        // volatile load of the work sequence: ordered after our PARKED store (see BiasedWaker)
        final long claimed = pool.workSequence().getVolatile();
        return pool.availableNow(claimed) > claimed;
    }

    private void processBatch(final long lo, final long hi, final long queueDepth) {
        final DataProvider<E> data = pool.dataProvider();
        try {
            handler.onBatchStart(hi - lo + 1, queueDepth);
        } catch (Throwable t) {
            handleEventException(t, lo, null);
        }
        for (long s = lo; s <= hi; s++) {
            final E event = data.get(s);
            try {
                handler.onEvent(event, s, s == hi);
            } catch (Throwable t) {
                try {
                    handleEventException(t, s, event);
                } catch (RuntimeException | Error stop) {
                    if (s > lo) {
                        // release: lo..s-1 are finished; s and the rest of the batch are not
                        sequence.set(s - 1);
                        countEvents(s - lo, false);
                    }
                    throw stop;
                }
            }
        }
        countEvents(hi - lo + 1, true);
    }

    /** Biased policy, worker above 0: park until a lower worker is overloaded. */
    private long parkUntilWork(final long w) throws AlertException {
        beforePark.reset();
        do {
            final long available = pool.availableNow(w);
            if (available > w) {
                return available;
            }
        } while (beforePark.spinOrYield());
        if (!park()) {
            throw AlertException.INSTANCE;
        }
        return pool.availableNow(w);
    }

    private void notifyTimeout(final long w) {
        try {
            handler.onTimeout(w);
        } catch (Throwable t) {
            handleEventException(t, w, null);
        }
    }
}
