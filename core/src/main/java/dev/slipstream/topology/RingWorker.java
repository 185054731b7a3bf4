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
    /**
     * Back-off while the next event is claimed but unpublished: spins, then yields, then short
     * parks. Shared by the workers: each counts its own gaps.
     */
    private static final Backoff GAP_BACKOFF = new Backoff(16, 16, 10_000L, 10_000L);

    private final WorkerPool<E> pool;
    /**
     * Checks of the source before a biased worker parks on its waker: rides out short gaps
     * between bursts; this worker's own.
     */
    private final Backoff beforePark = new Backoff(64, 0, 0L, 0L);
    /** Padded by the Sequence class itself. */
    final Sequence sequence = new Sequence(Long.MAX_VALUE);

    RingWorker(final WorkerPool<E> pool, final int index, final EventHandler<? super E> handler) {
        super(pool.name(), index, handler, pool.exceptionHandler(), pool.wakePolicy());
        this.pool = pool;
    }

    @Override
    void work() {
        final Sequence work = pool.workSequence();
        final int batchSize = pool.batchSize();
        final boolean biased = pool.wakePolicy() == WakePolicy.BIASED;
        long cachedAvailable = Long.MIN_VALUE;
        int gaps = 0;
        while (!pool.isHalted()) {
            // acquire: the last claim of any worker
            final long w = work.get();
            if (cachedAvailable > w) {
                final long hi = Math.min(cachedAvailable, w + batchSize);
                // release, then the volatile CAS: anyone who reads the work sequence at hi and
                // then this sequence sees w, so our claim is held back until we finish it
                sequence.set(w);
                if (!work.compareAndSet(w, hi)) {
                    continue;
                }
                if (biased && cachedAvailable > hi) {
                    // overloaded: more than our batch is waiting
                    pool.wakeAfter(index);
                }
                processBatch(w + 1, hi, cachedAvailable - w);
                continue;
            }
            if (sequence.getPlain() != Long.MAX_VALUE) {
                // release: the batch we finished is visible; while idle we hold nothing back
                sequence.set(Long.MAX_VALUE);
            }
            try {
                cachedAvailable = waitsOnSource ? pool.barrier().waitFor(w + 1) : parkUntilWork(w);
                if (cachedAvailable <= w) {
                    // claimed but not yet published (many producers), or a timeout: give the
                    // publishing thread the core instead of spinning on it
                    GAP_BACKOFF.idleAt(gaps++);
                } else {
                    gaps = 0;
                }
            } catch (AlertException alerted) {
                return;
            } catch (TimeoutException timeout) {
                notifyTimeout(w);
            } catch (InterruptedException interrupted) {
                if (pool.isHalted()) {
                    return;
                }
            }
        }
    }

    @Override
    void stoppedCleanly() {
        // stopped between batches: idle for good, hold nothing back (release)
        sequence.set(Long.MAX_VALUE);
    }

    @Override
    void stoppedOnFailure(final Throwable failure) {
        // the sequence keeps holding back what this worker did not finish
        pool.workerStopped(index, failure);
    }

    @Override
    boolean halted() {
        return pool.isHalted();
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
