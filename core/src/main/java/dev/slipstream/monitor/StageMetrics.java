package dev.slipstream.monitor;

/**
 * A live view of one stage's progress: plain getters that read the stage's counters and
 * sequences when called, allocate nothing and never block, so a monitoring thread may poll them
 * as often as it likes.
 *
 * <p>Counters are read without synchronisation: each value is exact for the instant it was read,
 * but two getters called one after the other may describe slightly different instants.
 *
 * <pre>{@code
 * for (StageMetrics stage : pipeline.metrics().stages()) {
 *     System.out.printf("%s: seq=%d lag=%d events=%d errors=%d%n", stage.stageName(),
 *             stage.sequence(), stage.lag(), stage.eventsProcessed(), stage.exceptionsHandled());
 * }
 * }</pre>
 */
public interface StageMetrics {
    /**
     * The stage's name, unique within its pipeline.
     *
     * @return the name
     */
    String stageName();

    /**
     * How many threads run the stage: 1 for a handler stage, N for a pool of N workers.
     *
     * @return the thread count
     */
    int workers();

    /**
     * The sequence of the last event this stage has finished with (for a work pool, the highest
     * sequence below which every event is finished).
     *
     * @return the stage's sequence, -1 before the first event
     */
    long sequence();

    /**
     * How far the stage is behind the producers: the cursor less {@link #sequence()}. With many
     * producers the cursor counts claims, so a claim still being written counts as lag.
     *
     * @return the backlog in events, never negative
     */
    long lag();

    /**
     * Events handled so far, including those whose handler threw.
     *
     * @return the count
     */
    long eventsProcessed();

    /**
     * Batches handled so far.
     *
     * @return the count
     */
    long batchesProcessed();

    /**
     * Exceptions from the handler passed to the stage's exception handler so far.
     *
     * @return the count
     */
    long exceptionsHandled();
}
