package dev.slipstream.processor;

/**
 * Carries an event handler's exception out of a processor's {@code run()}, to the thread's
 * uncaught exception handler; thrown by {@link ExceptionHandlers#rethrow()}. The processor has
 * stopped, with its sequence at the last event it finished.
 *
 * <pre>{@code
 * Thread thread = new Thread(processor, "journal");
 * thread.setUncaughtExceptionHandler((t, e) -> {
 *     if (e instanceof StageFailedException failed) {
 *         alert("journal stopped at sequence " + failed.getSequence(), failed.getCause());
 *     }
 * });
 * }</pre>
 */
public class StageFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The sequence of the failed event, or -1 when the failure was not on an event. */
    private final long sequence;

    /**
     * Creates the exception.
     *
     * @param message the stage and what failed
     * @param sequence the sequence of the event that failed, or -1 when the failure was not on an
     *     event (in {@code onStart} or {@code onShutdown})
     * @param cause what the event handler threw
     */
    public StageFailedException(final String message, final long sequence, final Throwable cause) {
        super(message, cause);
        this.sequence = sequence;
    }

    /**
     * The sequence of the event the handler failed on.
     *
     * @return the sequence, or -1 when the failure was in {@code onStart} or {@code onShutdown}
     */
    public long getSequence() {
        return sequence;
    }
}
