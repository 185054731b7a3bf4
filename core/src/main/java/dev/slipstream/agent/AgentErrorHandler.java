package dev.slipstream.agent;

/**
 * What an {@link AgentRunner} does with a throwable that escapes its agent: the one place that
 * decides whether the run goes on. It is called on the runner's thread.
 *
 * <pre>{@code
 * AgentErrorHandler logAndGoOn = failure -> {
 *     System.err.println("poller: " + failure);
 *     return true;                         // keep calling doWork
 * };
 * AgentRunner runner = new AgentRunner(poller, backoff, logAndGoOn);
 * }</pre>
 */
@FunctionalInterface
public interface AgentErrorHandler {
    /** Stops the run at the first failure; the runner keeps it for {@link AgentRunner#failure()}. */
    AgentErrorHandler STOP = failure -> false;

    /**
     * Decides about one failure.
     *
     * @param failure what escaped {@link Agent#doWork()}, {@link Agent#onStart()} or
     *     {@link Agent#onClose()}
     * @return true to call {@link Agent#doWork()} again, false to stop the run (the answer is
     *     ignored for {@code onStart} and {@code onClose}, which stop or end the run anyway)
     */
    boolean onError(Throwable failure);
}
