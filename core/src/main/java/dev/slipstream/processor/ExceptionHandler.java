package dev.slipstream.processor;

/**
 * Decides what a stage does when its handler throws. It never loses an event without telling:
 * it is told the event and its sequence.
 *
 * <p>Built-ins are in {@link ExceptionHandlers}: log and continue (the default), halt the stage,
 * rethrow. Every call gets the whole exception: a handler of your own sees each one in full,
 * whatever the built-ins log.
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

    /**
     * The handler to use for one stage. A pipeline calls it once for each stage it gives this
     * handler to (a handler set for the whole pipeline is given to every stage), with the
     * stage's name as {@code <pipeline>/<stage>}, and sends that stage's exceptions to what it
     * returns. The pipeline itself logs a stage that stops (once, with its cause), so the handler
     * returned need not log the exceptions it throws to stop the stage. The built-ins return a
     * copy that names the stage, keeps its own log summary, and leaves logging a stop to the
     * pipeline; the default returns this handler.
     *
     * @param stageName the stage, as {@code <pipeline>/<stage>}
     * @return the handler for that stage
     */
    default ExceptionHandler<E> forStage(final String stageName) {
        return this;
    }

    /**
     * The stage's thread is about to end (after {@code onShutdown}). A pipeline and a queue-fed
     * pool call it on each stage thread; the built-in {@link ExceptionHandlers#logAndContinue()}
     * logs the summary of the exceptions it has not reported yet. The default does nothing.
     */
    default void stageStopped() {
    }
}
