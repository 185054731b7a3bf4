package dev.slipstream.topology;

import java.util.concurrent.locks.LockSupport;

/**
 * The waking side of a work pool, whatever its source; the parking side is {@link PoolWorker#park()}.
 *
 * <p>A worker that runs out of work stores {@code PARKED} in its state (a volatile store), then
 * checks its source once more before it parks; a waker CASes {@code PARKED} to {@code AWAKE}
 * before it unparks. Either the waker sees {@code PARKED}, or the worker's re-check sees the
 * waker's work: no wake-up is lost, and only one waker unparks a given park.
 *
 * <p>{@link WakePolicy#BIASED}: only worker 0 waits on the source; a worker that finds more than
 * its batch waiting wakes the next one ({@link #wakeAfter(int)}). {@link WakePolicy#UNBIASED}: a
 * producer wakes any parked worker ({@link #wakeAny()}).
 */
final class BiasedWaker {
    static final int AWAKE = PoolWorker.AWAKE;
    static final int PARKED = PoolWorker.PARKED;

    private final PoolWorker<?>[] workers;
    /** Where an unbiased wake-up looks first; a racy hint, so plain. */
    private int nextToWake;

    BiasedWaker(final PoolWorker<?>[] workers) {
        this.workers = workers;
    }

    /**
     * Wakes {@code worker} if it is parked.
     *
     * @return true if it was parked and this call woke it
     */
    static boolean wake(final PoolWorker<?> worker) {
        // volatile load first: the common case (awake) costs no CAS
        if (worker.state == PARKED && worker.casState(PARKED, AWAKE)) {
            // atomic: wakers of successive parks may overlap
            worker.faaWakeUps();
            LockSupport.unpark(worker.thread);
            return true;
        }
        return false;
    }

    /** A parked worker that finds work after all takes itself back to awake. */
    static void cancelPark(final PoolWorker<?> worker) {
        worker.casState(PARKED, AWAKE);
    }

    boolean wake(final int index) {
        return wake(workers[index]);
    }

    /** Biased policy: worker {@code index} is overloaded; wake the next one if it is parked. */
    void wakeAfter(final int index) {
        if (index + 1 < workers.length) {
            wake(workers[index + 1]);
        }
    }

    /** Unbiased policy: wake one parked worker, looking round-robin. */
    boolean wakeAny() {
        final int n = workers.length;
        final int start = nextToWake;
        for (int i = 0; i < n; i++) {
            final int index = (start + i) % n;
            if (wake(workers[index])) {
                nextToWake = index + 1 == n ? 0 : index + 1;
                return true;
            }
        }
        return false;
    }

    /** Wakes every worker, parked or about to park (a halt or a shutdown). */
    void wakeAll() {
        for (final PoolWorker<?> worker : workers) {
            wake(worker);
            final Thread thread = worker.thread;
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
    }

    boolean isParked(final int index) {
        return workers[index].state == PARKED;
    }
}
