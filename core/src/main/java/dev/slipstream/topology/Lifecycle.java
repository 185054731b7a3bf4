package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The lifecycle of a set of threads, shared by the pipeline, the queue-fed pool and the unbounded
 * ingress: the state machine, failures (recorded at any time, logged once, the first one stops
 * the owner), how a thread's end is classified, and joining.
 *
 * <p>The states are {@link RunState}'s, as for one {@link dev.slipstream.agent.AgentRunner}:
 * {@code NEW}, {@code RUNNING}, {@code STOPPING} or {@code HALTING}, {@code STOPPED}. An owner
 * that stops under its own lock (the pipeline) goes from {@code RUNNING} to {@code STOPPED}; one
 * whose start, stop and halt race without a lock (the ingress) moves with {@link #casState}, so
 * that one wins. An expected end (the thread was asked to stop) can still be a failure.
 */
final class Lifecycle {
    private static final System.Logger LOG = System.getLogger("dev.slipstream.topology");
    /** How often a stopping thread that is still running is interrupted again. */
    private static final long REINTERRUPT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private final String owner;
    private final Runnable onFirstFailure;
    private final List<StageFailure> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean failed = new AtomicBoolean();
    /** Read without the owner's lock by isRunning(), toString() and producers' checks. */
    private final AtomicReference<RunState> state = new AtomicReference<>(RunState.NEW);
    /** The thread waiting for a drain, if any: a failure unparks it so the wait ends at once. */
    private volatile Thread drainWaiter;

    /** @param owner how messages name the owner, e.g. {@code pipeline 'orders'} */
    Lifecycle(final String owner, final Runnable onFirstFailure) {
        this.owner = owner;
        this.onFirstFailure = onFirstFailure;
    }

    RunState state() {
        return state.get();
    }

    void setState(final RunState newState) {
        state.set(newState);
    }

    /**
     * Moves the state from {@code expected} to {@code newState} if it is still {@code expected}.
     *
     * @return false, changing nothing, if the state was another
     */
    boolean casState(final RunState expected, final RunState newState) {
        // of a start, a stop and a halt that race, exactly one wins each transition
        return state.compareAndSet(expected, newState);
    }

    /** How messages name a state: new, running, stopping, halting or stopped. */
    static String stateName(final RunState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

    boolean hasFailed() {
        return failed.get();
    }

    List<StageFailure> failures() {
        // polled on hot paths (a clustered service checks its pipeline every duty cycle): with
        // no failure, answer the shared empty list; copying the array would allocate each call
        return failures.isEmpty() ? List.of() : List.copyOf(failures);
    }

    StageFailure firstFailure() {
        return failures.isEmpty() ? null : failures.get(0);
    }

    /** Records and logs a failure once; the first runs the owner's stop action. Ends a drain wait at once. */
    void fail(final StageFailure failure) {
        synchronized (failures) {
            if (failures.stream().anyMatch(known -> known == failure)) {
                return; // the same record reached us twice (two threads of one pool): logged once
            }
            failures.add(failure);
        }
        final boolean first = failed.compareAndSet(false, true);
        LOG.log(System.Logger.Level.ERROR, owner + (first ? " stops: " : " also failed: ") + failure, failure.cause());
        if (first) {
            onFirstFailure.run();
        }
        final Thread waiter = drainWaiter;
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * A stage thread ended: a recorded or escaped exception, or an end nobody asked for, is a failure.
     *
     * @param stageName the stage
     * @param recorded what its exception handler recorded, or null
     * @param thrown what escaped the thread's body, or null
     * @param endExpected whether the stage had been asked to stop
     */
    void threadEnded(final String stageName, final StageFailure recorded, final Throwable thrown,
                     final boolean endExpected) {
        if (recorded != null) {
            fail(recorded);
        } else if (thrown != null || !endExpected) {
            fail(new StageFailure(stageName, -1L, thrown));
        }
    }

    /** Registers the calling thread as the drain waiter (or clears it with null). */
    void drainWaiter(final Thread waiter) {
        // volatile store: fail() reads it after adding its record, so either it unparks us or we see the record
        drainWaiter = waiter;
    }

    /** A shutdown's timeout: not null, not negative. */
    static void checkTimeout(final Duration timeout) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
    }

    /**
     * Joins threads until the deadline; the caller's own thread is reported alive.
     *
     * @return the names of threads still alive at the end
     */
    static List<String> join(final List<Thread> threads, final long deadline) {
        final List<String> alive = new ArrayList<>();
        final Thread self = Thread.currentThread();
        for (final Thread thread : threads) {
            if (thread == self) {
                alive.add(thread.getName());
                continue;
            }
            final long remaining = deadline - System.nanoTime();
            try {
                if (remaining > 0) {
                    TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                alive.add(thread.getName());
            }
        }
        return alive;
    }

    /** The default thread factory: daemons, so a stage stuck in its handler cannot keep the JVM alive. */
    static Thread daemonThread(final Runnable body) {
        final Thread thread = new Thread(body);
        thread.setDaemon(true);
        return thread;
    }

    /**
     * Waits for threads asked to stop: joins until {@code interruptAt}, then interrupts those
     * still running every {@link #REINTERRUPT_NANOS} (a handler may block on each event of its
     * batch) until they end or {@code deadline} passes. The caller's own thread is left alone.
     *
     * @return the names of threads still alive at the end
     */
    static List<String> stopThreads(final List<Thread> threads, final long interruptAt, final long deadline) {
        if (join(threads, Math.min(interruptAt, deadline)).isEmpty()) {
            return List.of();
        }
        final Thread self = Thread.currentThread();
        boolean anyAlive = true;
        while (anyAlive && deadline - System.nanoTime() > 0) {
            anyAlive = false;
            for (final Thread thread : threads) {
                if (thread != self && thread.isAlive()) {
                    anyAlive = true;
                    thread.interrupt();
                }
            }
            if (anyAlive) {
                join(threads, Math.min(deadline, System.nanoTime() + REINTERRUPT_NANOS));
            }
        }
        return join(threads, deadline);
    }

    @Override
    public String toString() {
        return owner + " (" + stateName(state.get()) + ")";
    }
}
