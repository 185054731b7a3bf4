package dev.slipstream.processor;

/**
 * Thrown by an {@link ExceptionHandler} to stop its processor cleanly: the processor stops
 * processing, leaves its sequence at the last event it finished, calls
 * {@link EventHandler#onShutdown()} and returns from {@code run()} normally, with this exception
 * available from {@link BatchEventProcessor#getFailure()}. Any other exception thrown by an
 * exception handler also stops the processor, but escapes from {@code run()} to the thread's
 * uncaught exception handler.
 *
 * <pre>{@code
 * ExceptionHandler<Order> strict = new ExceptionHandler<>() {
 *     public void handleEventException(Throwable ex, long sequence, Order event) {
 *         throw new HaltProcessorException("order " + sequence + " is corrupt", ex);
 *     }
 *     public void handleOnStartException(Throwable ex) { }
 *     public void handleOnShutdownException(Throwable ex) { }
 * };
 * }</pre>
 */
public class HaltProcessorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the processor stops
     * @param cause what the event handler threw, or null
     */
    public HaltProcessorException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
