package dev.slipstream.processor;

/**
 * Decides whether a batch whose handler threw a {@link RewindableException} is processed again
 * from its first event, or given up. Ready-made strategies are in {@link BatchRewindStrategies}.
 *
 * <p>Called on the processor's thread; a strategy may pause there before answering
 * {@link Decision#RETRY} (the stage makes no progress meanwhile). When it answers
 * {@link Decision#GIVE_UP}, the exception goes to the stage's {@link ExceptionHandler} with the
 * event that threw it, and the batch goes on after that event if the handler lets it.
 *
 * <pre>{@code
 * BatchRewindStrategy threeTimesThenSkip = (exception, attempt) ->
 *         attempt <= 3 ? BatchRewindStrategy.Decision.RETRY : BatchRewindStrategy.Decision.GIVE_UP;
 * processor.setRewindStrategy(threeTimesThenSkip);
 * }</pre>
 */
@FunctionalInterface
public interface BatchRewindStrategy {
    /** What to do with a batch whose handler asked for a rewind. */
    enum Decision {
        /** Process the batch again from its first event. */
        RETRY,
        /** Stop retrying: hand the exception to the stage's exception handler. */
        GIVE_UP
    }

    /**
     * Decides the fate of the batch.
     *
     * @param exception what the handler threw
     * @param attempt how many times this batch has failed so far, this failure included: 1 the
     *     first time
     * @return {@link Decision#RETRY} to process the batch again, {@link Decision#GIVE_UP} (or
     *     null) to stop
     */
    Decision decide(RewindableException exception, int attempt);
}
