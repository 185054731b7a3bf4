package dev.slipstream.processor;

/**
 * Thrown by an {@link EventHandler} to ask for the current batch to be processed again from its
 * first event, typically because a resource it writes to failed transiently (a connection
 * dropped, a lock timed out). The processor's {@link BatchRewindStrategy} decides whether to
 * retry and how often; when it gives up, the exception goes to the stage's
 * {@link ExceptionHandler} together with the event that threw it.
 *
 * <p>A rewind delivers the events of the batch before the failing one again, so a handler that
 * throws this must be idempotent for them: processing an event twice must have the effect of
 * processing it once (use the sequence to deduplicate, or write with upserts).
 *
 * <pre>{@code
 * EventHandler<Trade> writer = (trade, sequence, endOfBatch) -> {
 *     try {
 *         database.upsert(sequence, trade);        // idempotent: keyed by sequence
 *     } catch (SQLTransientException e) {
 *         throw new RewindableException("database unavailable", e);
 *     }
 * };
 * }</pre>
 */
public class RewindableException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the batch should be retried
     */
    public RewindableException(final String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message why the batch should be retried
     * @param cause the transient failure
     */
    public RewindableException(final String message, final Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception.
     *
     * @param cause the transient failure
     */
    public RewindableException(final Throwable cause) {
        super(cause);
    }
}
