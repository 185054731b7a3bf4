package dev.slipstream.agent;

import dev.slipstream.sequence.Backoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * Owns a thread's loop: calls its {@link Agent} step by step, idles with a {@link Backoff} when a
 * step found nothing, hands whatever escapes a step to one {@link AgentErrorHandler}, and moves
 * through the one lifecycle of {@link RunState}. Every class of the library that owns a thread
 * runs its work through one of these.
 *
 * <p>It moves through the transitions drawn in {@link RunState} (a compare-and-set wherever
 * {@link #run()} and {@link #halt()} race), calling the {@link Agent}'s callbacks as it does.
 * A runner runs once: a second {@code run()}, concurrent or later, throws
 * {@link IllegalStateException}; that keeps {@code onStart} and {@code onClose} paired.
 *
 * <p>The loop reads the state once per step (one volatile load) and allocates nothing.
 *
 * <pre>{@code
 * AgentRunner runner = new AgentRunner(agent, new Backoff(100, 10, 1_000, 100_000), AgentErrorHandler.STOP);
 * Thread thread = new Thread(runner, agent.roleName());
 * thread.start();
 * // ...
 * runner.halt();
 * thread.join();
 * if (runner.failure() != null) {
 *     throw new IllegalStateException(agent.roleName() + " failed", runner.failure());
 * }
 * }</pre>
 */
public final class AgentRunner implements Runnable {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AgentRunner.class, "state", RunState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Agent agent;
    /** Owned by the running thread only: its plain attempt count needs no other reader. */
    private final Backoff idle;
    private final AgentErrorHandler errorHandler;
    @SuppressWarnings("unused") // through STATE
    private volatile RunState state = RunState.NEW;
    /** The thread in run(), once it has started; read by monitors and by whoever wakes it. */
    private volatile Thread thread;
    /** What stopped the run; written by the running thread before the state reaches STOPPED. */
    private volatile Throwable failure;

    /**
     * Creates a runner; nothing runs until {@link #run()}.
     *
     * @param agent the work, one step per {@link Agent#doWork()}
     * @param idle how the thread waits after a step that did nothing; owned by this runner from
     *     now on (its state is the count of empty steps), so do not share it
     * @param errorHandler what to do with what escapes the agent
     * @throws NullPointerException naming the argument that is null
     */
    public AgentRunner(final Agent agent, final Backoff idle, final AgentErrorHandler errorHandler) {
        this.agent = Objects.requireNonNull(agent, "agent must not be null: pass the work to run");
        this.idle = Objects.requireNonNull(idle,
                "idle must not be null: pass a Backoff, e.g. new Backoff(100, 10, 1_000, 100_000)");
        this.errorHandler = Objects.requireNonNull(errorHandler,
                "errorHandler must not be null: pass AgentErrorHandler.STOP to stop at the first failure");
    }

    /**
     * Runs the agent until it is halted, returns {@link Agent#DONE}, or its error handler stops
     * it; then closes it. Call it once, on the thread that should own the loop.
     *
     * @throws IllegalStateException if this runner is running or has run already
     */
    @Override
    public void run() {
        if (!casState(RunState.NEW, RunState.RUNNING)) {
            if (casState(RunState.HALTING, RunState.STOPPED)) {
                // halted before it started: nothing was started, so nothing is closed
                return;
            }
            throw new IllegalStateException(lvState() == RunState.STOPPED
                    ? agent.roleName() + " has already started once; it runs only once, so create a new one"
                    : agent.roleName() + " is already running: run() must be called by one thread only");
        }
        thread = Thread.currentThread();
        try {
            if (start()) {
                loop();
            }
            // volatile store: from here halt() has nothing left to wake
            svState(RunState.STOPPING);
            close();
        } finally {
            svState(RunState.STOPPED);
        }
    }

    /**
     * Asks the runner to stop after the step in hand and wakes the agent if it waits
     * ({@link Agent#onHaltRequested()}, on this thread). Before {@link #run()}, it makes
     * {@code run()} return at once without calling the agent. Does nothing once the run is
     * ending. Returns without waiting; join the thread to wait.
     */
    public void halt() {
        RunState s;
        while ((s = lvState()) == RunState.NEW || s == RunState.RUNNING) {
            if (casState(s, RunState.HALTING)) {
                // after the state store: an agent woken here sees HALTING at its next loop check
                agent.onHaltRequested();
                return;
            }
        }
    }

    /**
     * The runner's state.
     *
     * @return where it is in its lifecycle
     */
    public RunState state() {
        return lvState();
    }

    /**
     * Whether a thread is inside {@link #run()} with the agent started or about to be.
     *
     * @return true from {@code run()}'s start until the agent is closed
     */
    public boolean isRunning() {
        final RunState s = lvState();
        return s == RunState.RUNNING || s == RunState.STOPPING || (s == RunState.HALTING && thread != null);
    }

    /**
     * The thread that runs or ran the agent.
     *
     * @return the thread, or null before {@link #run()}
     */
    public Thread thread() {
        return thread;
    }

    /**
     * What stopped the run: the failure the error handler stopped on, a failed
     * {@link Agent#onStart()}, or a failed {@link Agent#onClose()} (suppressed into an earlier
     * failure if there was one).
     *
     * @return the failure, or null if the run has not failed
     */
    public Throwable failure() {
        return failure;
    }

    /**
     * The agent this runner runs.
     *
     * @return the agent
     */
    public Agent agent() {
        return agent;
    }

    private boolean start() {
        try {
            agent.onStart();
            return true;
        } catch (Throwable t) {
            report(t);
            failure = t;
            return false;
        }
    }

    private void loop() {
        final Agent agent = this.agent;
        final Backoff idle = this.idle;
        // one volatile load per step: halt() moves the state before it wakes the agent, so a
        // step that a halt cut short is followed by this check seeing HALTING
        while (lvState() == RunState.RUNNING) {
            final int work;
            try {
                work = agent.doWork();
            } catch (Throwable t) {
                if (!report(t)) {
                    failure = t;
                    return;
                }
                continue;
            }
            if (work < 0) {
                return;
            }
            idle.idle(work);
        }
    }

    private void close() {
        try {
            agent.onClose();
        } catch (Throwable t) {
            report(t);
            final Throwable first = failure;
            if (first != null) {
                first.addSuppressed(t);
            } else {
                failure = t;
            }
        }
    }

    /** Tells the error handler; a handler that itself throws stops the run, its throwable suppressed. */
    private boolean report(final Throwable t) {
        try {
            return errorHandler.onError(t);
        } catch (Throwable broken) {
            t.addSuppressed(broken);
            return false;
        }
    }

    // ------------------------------------------------------------------ state, by access mode

    /** Volatile load: the loop's halt check, and monitors. */
    private RunState lvState() {
        return (RunState) STATE.getVolatile(this);
    }

    /** Volatile store: only the running thread leaves RUNNING or HALTING this way. */
    private void svState(final RunState value) {
        STATE.setVolatile(this, value);
    }

    /** Volatile CAS: run() and halt() race on NEW, RUNNING and HALTING. */
    private boolean casState(final RunState expected, final RunState updated) {
        return STATE.compareAndSet(this, expected, updated);
    }

    @Override
    public String toString() {
        return "AgentRunner[" + agent.roleName() + ", " + lvState() + "]";
    }
}
