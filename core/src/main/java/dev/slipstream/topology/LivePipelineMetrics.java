package dev.slipstream.topology;

import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.ring.RingBuffer;
import java.util.List;

/**
 * A pipeline's {@link PipelineMetrics}: every getter reads live values from the ring and from the
 * graph's current stages, and allocates nothing.
 *
 * <pre>{@code
 * PipelineMetrics metrics = pipeline.metrics();   // this class, behind the interface
 * long backlog = metrics.bufferSize() - metrics.remainingCapacity();
 * }</pre>
 */
final class LivePipelineMetrics implements PipelineMetrics {
    private final String name;
    private final RingBuffer<?> ring;
    private final PipelineGraph<?> graph;

    LivePipelineMetrics(final String name, final RingBuffer<?> ring, final PipelineGraph<?> graph) {
        this.name = name;
        this.ring = ring;
        this.graph = graph;
    }

    @Override
    public String pipelineName() {
        return name;
    }

    @Override
    public int bufferSize() {
        return ring.getBufferSize();
    }

    @Override
    public long cursor() {
        return ring.getCursor();
    }

    @Override
    public long remainingCapacity() {
        return ring.remainingCapacity();
    }

    @Override
    public List<StageMetrics> stages() {
        // immutable, so reading it as a list of the supertype is safe; no copy, no allocation
        @SuppressWarnings("unchecked")
        final List<StageMetrics> stages = (List<StageMetrics>) (List<? extends StageMetrics>) graph.snapshot();
        return stages;
    }

    @Override
    public StageMetrics stage(final String stageName) {
        return graph.stageNamed(stageName);
    }
}
