package dev.slipstream.topology;

import dev.slipstream.monitor.StageMetrics;
import java.util.List;

/**
 * A stage of a running or planned pipeline: one handler on its own thread, or a pool of workers.
 * Returned by the DSL so that later stages can be placed after it, it can be removed, and its
 * progress read.
 *
 * <pre>{@code
 * Stage journal = pipeline.handleEventsWith(StageSpec.of("journal", journalHandler)).stage();
 * long behind = journal.metrics().lag();
 * }</pre>
 */
public interface Stage {
    /**
     * The stage's name, unique in its pipeline; its threads are named after it.
     *
     * @return the name
     */
    String name();

    /**
     * Whether this is a pool of workers (each event to one worker) rather than a single handler.
     *
     * @return true for a work pool
     */
    boolean isWorkerPool();

    /**
     * The number of threads: 1 for a handler stage, N for a pool.
     *
     * @return the thread count
     */
    int workers();

    /**
     * The names of the stages this one follows; empty if it reads straight behind the producers.
     *
     * @return the upstream stage names
     */
    List<String> upstream();

    /**
     * The stage's live metrics.
     *
     * @return the metrics, allocation-free to read
     */
    StageMetrics metrics();
}
