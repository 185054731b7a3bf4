package dev.slipstream.agent;

/**
 * A unit of work that an {@link AgentRunner} calls over and over on one thread: the loop, the
 * lifecycle, the exception policy and the idling belong to the runner, so every thread-owning
 * class of the library shares one loop; the agent only says what one step is.
 *
 * <p>The runner calls {@link #onStart()} once, then {@link #doWork()} until it is halted, the
 * agent returns {@link #DONE}, or its error handler stops it, then {@link #onClose()} once.
 * {@link #onHaltRequested()} alone is called from another thread, the halting one.
 *
 * <pre>{@code
 * final class Poller implements Agent {
 *     private final Queue<String> queue;
 *     Poller(Queue<String> queue) { this.queue = queue; }
 *
 *     public int doWork() {
 *         String line = queue.poll();
 *         if (line == null) {
 *             return 0;                  // idle: the runner backs off
 *         }
 *         System.out.println(line);
 *         return 1;
 *     }
 *
 *     public String roleName() { return "poller"; }
 * }
 *
 * AgentRunner runner = new AgentRunner(new Poller(queue), new Backoff(100, 10, 1_000, 100_000),
 *         AgentErrorHandler.STOP);
 * new Thread(runner, "poller").start();
 * // ...
 * runner.halt();
 * }</pre>
 */
public interface Agent {
    /**
     * What {@link #doWork()} returns when the agent has nothing more to do, ever (its source ended
     * or was alerted): the runner leaves its loop and closes the agent.
     */
    int DONE = -1;

    /**
     * Called once on the runner's thread before the first {@link #doWork()}. If it throws, the
     * error handler is told, no work is done, and {@link #onClose()} still runs, so that the
     * two calls stay paired.
     *
     * @throws Exception anything: it stops the run
     */
    default void onStart() throws Exception {
    }

    /**
     * Does one step of work.
     *
     * @return how much it did: {@code > 0} work done (the runner calls again at once), {@code 0}
     *     nothing to do (the runner idles one step of its back-off), {@link #DONE} (negative) to
     *     end the run
     * @throws Exception anything: it goes to the runner's {@link AgentErrorHandler}, which decides
     *     whether the run goes on
     */
    int doWork() throws Exception;

    /**
     * Called once, on the halting thread, when the runner is halted before or while it runs: an
     * agent that may be blocked in a wait (a barrier, a park) wakes itself here. Must not block.
     */
    default void onHaltRequested() {
    }

    /**
     * Called once on the runner's thread after the last {@link #doWork()}, also after a failure
     * or a failed {@link #onStart()}; not called if the runner was halted before it started.
     *
     * @throws Exception anything: it is reported as the run's failure (or suppressed into it)
     */
    default void onClose() throws Exception {
    }

    /**
     * The agent's name, for messages and thread names.
     *
     * @return a short name
     */
    String roleName();
}
