package dev.slipstream.agent;

/**
 * The lifecycle of a thread that runs work, and of a set of them: the one vocabulary of the
 * library's runners, pools and pipelines.
 *
 * <pre>
 *   NEW ──run──▶ RUNNING ──loop ends──▶ STOPPING ──onClose done──▶ STOPPED
 *    │              │                      ▲
 *    │            halt                     │
 *    │              ▼                      │
 *    └──halt──▶ HALTING ──loop sees it─────┘
 *                   │
 *                   └──run before any start──▶ STOPPED   (returns at once)
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
    /** Asked to end, or ending on its own: finishing the step in hand, then closing. */
    STOPPING,
    /** Asked to stop now: ends after the step in hand, waking any wait (or, if not started yet, never starts). */
    HALTING,
    /** Ended: every thread has returned. Final. */
    STOPPED
}
