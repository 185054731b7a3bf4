package dev.slipstream.processor;

/**
 * The code of one stage: called for every event, in sequence order, on the stage's own thread.
 *
 * <p>Only {@link #onEvent} is required. The other callbacks mark the stage's life: start,
 * each batch, a timeout of a timing-out wait strategy, shutdown.
 *
 * <pre>{@code
 * EventHandler<Trade> journal = (trade, sequence, endOfBatch) -> {
 *     out.write(trade);
 *     if (endOfBatch) out.flush();     // one flush per batch, not per event
 * };
 * }</pre>
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface EventHandler<E> {
    /**
     * Handles one event.
     *
     * @param event the event; valid only during this call (the slot is reused later)
     * @param sequence the event's sequence
     * @param endOfBatch true for the last event of the batch that is available now
     * @throws Exception anything; the stage's {@link ExceptionHandler} decides what happens
     */
    void onEvent(E event, long sequence, boolean endOfBatch) throws Exception;

    /** Called once on the stage's thread before the first event. */
    default void onStart() {
    }

    /** Called once on the stage's thread after the last event. */
    default void onShutdown() {
    }

    /**
     * Called before each batch.
     *
     * @param batchSize how many events this batch will deliver
     * @param queueDepth how many events were available (may exceed {@code batchSize} when a
     *     maximum batch size is set)
     */
    default void onBatchStart(long batchSize, long queueDepth) {
    }

    /**
     * Called when a timing-out wait strategy gave up waiting.
     *
     * @param sequence the last sequence this stage processed
     * @throws Exception anything; handled by the stage's {@link ExceptionHandler}
     */
    default void onTimeout(long sequence) throws Exception {
    }
}
