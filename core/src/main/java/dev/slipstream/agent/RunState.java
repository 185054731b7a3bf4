package dev.slipstream.agent;

/**
 * The lifecycle of a thread that runs work, and of a set of them: the one vocabulary of the
 * library's runners, pools and pipelines.
 *
 * <pre>
 *   NEW --run()--> RUNNING --loop ends--> STOPPING --onClose done--> STOPPED
 *    |               |                       ^
 *    |             halt()                    |
 *    |               v                       |
 *    +--halt()--> HALTING --loop sees it-----+
 *                    |
 *                    +--run() when never started--> STOPPED (returns at once)
 * </pre>
 *
 * <pre>{@code
 * if (runner.state() == RunState.STOPPED) {
 *     System.out.println(runner.failure() == null ? "stopped cleanly" : "failed");
 * }
 * }</pre>
 */
public enum RunState {
    /** Made, not started: settings may still change. */
    NEW,
    /** Started and working. */
    RUNNING,
    /**
     * Ending in order. A runner: its loop has ended and the agent is being closed. A set of
     * threads: refusing new work, and stopping once everything accepted is handled (a drain).
     */
    STOPPING,
    /**
     * Asked to stop now. A runner: ends after the step in hand, its agent woken from any wait (or,
     * halted before it started, never starts). A set of threads: stops without a drain.
     */
    HALTING,
    /** Ended: every thread has returned. Final. */
    STOPPED
}
