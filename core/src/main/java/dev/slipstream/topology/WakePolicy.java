package dev.slipstream.topology;

/**
 * Which idle workers of a work pool wait for new events, and so which of them a producer wakes.
 *
 * <pre>{@code
 * pipeline.handleEventsWith(StageSpec.workerPool("pricers", a, b, c).wakePolicy(WakePolicy.BIASED));
 * }</pre>
 */
public enum WakePolicy {
    /**
     * Only the lowest-numbered worker waits on the source; the others park. A worker that claims
     * a batch and sees more than that batch waiting (it is overloaded) wakes the next worker, which
     * does the same in turn. Under light load one warm thread does all the work and the others
     * cost no context switches; under heavy load the pool fans out within a few batches. The
     * price: while worker 0 is busy, newly arrived work waits for the end of its batch unless a
     * higher worker is already awake.
     */
    BIASED,
    /**
     * Every idle worker waits on the source, and each publication may wake any of them (all of
     * them, with a blocking wait strategy). Lowest latency to pick up work, most context switches.
     */
    UNBIASED
}
