package dev.slipstream.processor;

/**
 * Decides what a stage does when its handler throws. It never loses an event without telling:
 * it is told the event and its sequence.
 *
 * <p>Built-ins are in {@link ExceptionHandlers}: log and continue (the default), halt the stage,
 * rethrow.
 *
 * <pre>{@code
 * ExceptionHandler<Order> handler = new ExceptionHandler<>() {
 *     public void handleEventException(Throwable ex, long sequence, Order event) {
 *         deadLetters.add(sequence);     // keep going
 *     }
 *     public void handleOnStartException(Throwable ex) { }
 *     public void handleOnShutdownException(Throwable ex) { }
 * };
 * }</pre>
 *
 * @param <E> the event type
 */
public interface ExceptionHandler<E> {
    /**
     * The handler threw while handling an event. Return to skip the event and go on; throw
     * (any {@link RuntimeException}) to stop the stage.
     *
     * @param ex what the handler threw
     * @param sequence the event's sequence
     * @param event the event, or null for a timeout callback
     */
    void handleEventException(Throwable ex, long sequence, E event);

    /**
     * The handler's {@code onStart} threw.
     *
     * @param ex what it threw
     */
    void handleOnStartException(Throwable ex);

    /**
     * The handler's {@code onShutdown} threw.
     *
     * @param ex what it threw
     */
    void handleOnShutdownException(Throwable ex);
}
