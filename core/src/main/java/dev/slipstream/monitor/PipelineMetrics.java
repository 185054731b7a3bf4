package dev.slipstream.monitor;

import java.util.List;

/**
 * A live view of a pipeline: its ring and each of its stages. Every getter reads current values
 * without allocating or blocking.
 *
 * <pre>{@code
 * PipelineMetrics metrics = pipeline.metrics();
 * long free = metrics.remainingCapacity();
 * StageMetrics journal = metrics.stage("journal");
 * if (journal.lag() > metrics.bufferSize() / 2) alert("journal is falling behind");
 * }</pre>
 */
public interface PipelineMetrics {
    /**
     * The pipeline's name.
     *
     * @return the name
     */
    String pipelineName();

    /**
     * The number of slots in the ring.
     *
     * @return the ring size
     */
    int bufferSize();

    /**
     * The producers' cursor: the highest published (one producer) or claimed (many producers)
     * sequence.
     *
     * @return the cursor
     */
    long cursor();

    /**
     * How many slots producers could claim now without waiting.
     *
     * @return the free slots
     */
    long remainingCapacity();

    /**
     * The stages, upstream before downstream. The list is an unmodifiable snapshot that is
     * replaced, not changed, when a stage is added or removed, so holding it allocates nothing.
     *
     * @return the stages
     */
    List<StageMetrics> stages();

    /**
     * The stage of the given name.
     *
     * @param stageName the name
     * @return the stage's metrics
     * @throws IllegalArgumentException if no stage has that name
     */
    StageMetrics stage(String stageName);
}
