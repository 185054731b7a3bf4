package dev.slipstream.topology;

import dev.slipstream.agent.Agent;
import dev.slipstream.agent.AgentErrorHandler;
import dev.slipstream.agent.AgentRunner;
import dev.slipstream.internal.FieldHandles;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.sequence.Backoff;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.ToLongFunction;
import java.util.concurrent.locks.LockSupport;

/** Padding before a worker's shared fields. */
abstract class PoolWorkerLhsPad {
    protected long p01, p02, p03, p04, p05, p06, p07;
}

/** Fields a worker writes and other threads read (counters) or CAS (state). */
abstract class PoolWorkerFields extends PoolWorkerLhsPad {
    /** AWAKE or PARKED, the wake-up protocol's; a waker CASes PARKED to AWAKE before unparking. */
    protected volatile int state;
    protected volatile Thread thread;
    protected long events;
    protected long batches;
    protected long exceptions;
    protected long wakeUps;
}

/** Padding after them. */
abstract class PoolWorkerRhsPad extends PoolWorkerFields {
    protected long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * What the ring-fed {@link RingWorker} and the queue-fed {@link QueueWorker} share: the
 * {@link Agent} an {@link AgentRunner} runs once (handler {@code onStart}, {@link #doWork()} steps
 * until halt or end of source, {@code onShutdown}, one failure report to the {@link WorkPool}),
 * the parking half of the {@link BiasedWaker} protocol, and the counters a pool sums.
 *
 * <pre>{@code
 * // a source-specific worker fills in where work comes from:
 * final class QueueWorker<T> extends PoolWorker<T> {
 *     public int doWork() { ... poll a batch and handle it, or park when empty ... }
 *     boolean workVisible() { return !queue.isEmpty(); }
 *     ...
 * }
 * }</pre>
 *
 * @param <E> the event or item type
 */
abstract class PoolWorker<E> extends PoolWorkerRhsPad implements Runnable, Agent {
    static final int AWAKE = 0;
    static final int PARKED = 1;

    private static final VarHandle STATE = FieldHandles.of(PoolWorkerFields.class, "state", int.class);
    private static final VarHandle EVENTS = FieldHandles.of(PoolWorkerFields.class, "events", long.class);
    private static final VarHandle BATCHES = FieldHandles.of(PoolWorkerFields.class, "batches", long.class);
    private static final VarHandle EXCEPTIONS = FieldHandles.of(PoolWorkerFields.class, "exceptions", long.class);
    private static final VarHandle WAKE_UPS = FieldHandles.of(PoolWorkerFields.class, "wakeUps", long.class);

    /** The pool: its halt flag, and where a failure is reported. */
    final WorkPool<E> pool;
    final int index;
    final EventHandler<? super E> handler;
    final ExceptionHandler<? super E> exceptionHandler;
    /** Unbiased policy, or worker 0 of a biased pool: waits on the source itself. */
    final boolean waitsOnSource;
    /** Every failure stops the worker: the exception handler has already had its say. */
    final AgentRunner runner;

    /**
     * @param idle the runner's back-off after a step that found nothing to take
     */
    PoolWorker(final WorkPool<E> pool, final int index, final EventHandler<? super E> handler, final Backoff idle) {
        this.pool = pool;
        this.index = index;
        this.handler = handler;
        this.exceptionHandler = pool.exceptionHandler;
        this.waitsOnSource = pool.wakePolicy == WakePolicy.UNBIASED || index == 0;
        this.runner = new AgentRunner(this, idle, AgentErrorHandler.STOP);
    }

    /**
     * One step: returns {@link Agent#DONE} once the pool halted or the source has no more, else
     * takes and handles at most one batch, or waits for one.
     */
    @Override
    public abstract int doWork();

    /**
     * Called, before {@code onShutdown}, only when the loop ended without a failure: the worker
     * then holds nothing back; after a failure, what it did not finish stays held back.
     */
    void stoppedCleanly() {
        // nothing held by default
    }

    /**
     * The re-check after this worker stored {@code PARKED}: whether work (or a reason to stop
     * waiting, such as a draining shutdown) is visible now. Must read the source with at least
     * one volatile or synchronising load, so that it is ordered after the {@code PARKED} store.
     */
    abstract boolean workVisible();

    /**
     * Runs the worker, then reports a failure to the pool once, after {@code onShutdown}.
     *
     * @throws IllegalStateException if the worker was already started
     */
    @Override
    public final void run() {
        runner.run();
        final Throwable failure = runner.failure();
        if (failure != null) {
            pool.workerStopped(index, failure);
        }
    }

    @Override
    public final void onStart() {
        // volatile store: wakers read it after seeing this worker PARKED
        thread = Thread.currentThread();
        try {
            handler.onStart();
        } catch (Throwable t) {
            exceptionHandler.handleOnStartException(t);
        }
    }

    @Override
    public final void onClose() {
        if (runner.failure() == null) {
            stoppedCleanly();
        }
        try {
            handler.onShutdown();
        } catch (Throwable t) {
            exceptionHandler.handleOnShutdownException(t);
        }
    }

    @Override
    public final String roleName() {
        return "worker " + index + " of pool '" + pool.name + "'";
    }

    /**
     * Parks until a waker takes this worker back to {@code AWAKE}, unless work is visible right
     * after the {@code PARKED} store.
     *
     * @return false if the pool halted
     */
    final boolean park() {
        // volatile store, then the re-check: either a waker sees PARKED and unparks us, or our
        // re-check sees its work (see BiasedWaker)
        state = PARKED;
        if (workVisible() || pool.isHalted()) {
            BiasedWaker.cancelPark(this);
            return !pool.isHalted();
        }
        do {
            LockSupport.park(this);
            if (pool.isHalted()) {
                // volatile store: no waker needs to unpark us any more
                state = AWAKE;
                return false;
            }
        } while (state == PARKED);
        return true;
    }

    /** Passes a handler's exception to the exception handler, which may throw to stop this worker. */
    final void handleEventException(final Throwable t, final long sequence, final E event) {
        // opaque: single writer; monitoring threads read whole values
        srExceptions(exceptions + 1);
        exceptionHandler.handleEventException(t, sequence, event);
    }

    /** Counts {@code n} handled events; with {@code batchDone}, one more batch. */
    final void countEvents(final long n, final boolean batchDone) {
        // opaque: single writer; monitoring threads read whole values
        srEvents(events + n);
        if (batchDone) {
            srBatches(batches + 1);
        }
    }

    /** The sum of one counter over a pool's workers. */
    static long total(final PoolWorker<?>[] workers, final ToLongFunction<PoolWorker<?>> counter) {
        return Arrays.stream(workers).mapToLong(counter).sum();
    }

    // ------------------------------------------------------- shared fields, by access mode
    // (prefixes as in dev.slipstream.sequence: lr/sr relaxed (opaque) load/store, cas, faa)

    /** Volatile CAS of the park state: wakers and the worker itself race on PARKED. */
    boolean casState(final int expected, final int updated) {
        return STATE.compareAndSet(this, expected, updated);
    }

    /** Volatile fetch-and-add of the wake-up count: wakers of successive parks may overlap. */
    void faaWakeUps() {
        WAKE_UPS.getAndAdd(this, 1L);
    }

    // The counters below have one writer each (this worker, or its wakers for wakeUps); other
    // threads read them for monitoring: opaque, whole values, no ordering needed.

    long lrEvents() {
        return (long) EVENTS.getOpaque(this);
    }

    long lrBatches() {
        return (long) BATCHES.getOpaque(this);
    }

    long lrExceptions() {
        return (long) EXCEPTIONS.getOpaque(this);
    }

    long lrWakeUps() {
        return (long) WAKE_UPS.getOpaque(this);
    }

    private void srEvents(final long value) {
        EVENTS.setOpaque(this, value);
    }

    private void srBatches(final long value) {
        BATCHES.setOpaque(this, value);
    }

    private void srExceptions(final long value) {
        EXCEPTIONS.setOpaque(this, value);
    }
}
