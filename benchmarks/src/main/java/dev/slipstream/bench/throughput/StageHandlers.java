package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.BatchCount;
import dev.slipstream.bench.support.Sink;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.support.Work;

/**
 * The stages of the five topologies, written once for both ring libraries: every handler here
 * is at the same time a Slipstream {@link dev.slipstream.processor.EventHandler} and an LMAX
 * {@link com.lmax.disruptor.EventHandler} (the two declare the same {@code onEvent}), so the
 * Slipstream and LMAX sides run the very same per-event code. Each stage counts its batches in
 * a {@link BatchCount}, before the event's effects become visible downstream.
 *
 * <pre>{@code
 * BatchCount count = new BatchCount();
 * pipeline.handleEventsWith(new StageHandlers.PipelineA(count));   // Slipstream
 * lmaxBuilder.build(ring, barrier, new StageHandlers.PipelineA(count));   // LMAX
 * }</pre>
 */
public final class StageHandlers {
    private StageHandlers() {
    }

    /**
     * What every stage shares: its batch counter, and the lifecycle hooks both interfaces declare
     * with default bodies (a class that implements both must choose; it chooses to do nothing).
     */
    abstract static class Stage implements dev.slipstream.processor.EventHandler<ValueEvent>,
            com.lmax.disruptor.EventHandler<ValueEvent> {
        final BatchCount count;

        Stage(final BatchCount count) {
            this.count = count;
        }

        @Override
        public abstract void onEvent(ValueEvent event, long sequence, boolean endOfBatch);

        @Override
        public final void onStart() {
        }

        @Override
        public final void onShutdown() {
        }

        @Override
        public final void onBatchStart(final long batchSize, final long queueDepth) {
        }

        @Override
        public final void onTimeout(final long sequence) {
        }
    }

    /** Last stage of unicast and multicast. */
    static final class SinkStage extends Stage {
        private final Sink sink;

        SinkStage(final BatchCount count, final Sink sink) {
            super(count);
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            count.endOfBatch(sequence, endOfBatch);
            sink.add(event.value);
        }
    }

    /** Last stage of the sequencer: also checks each producer's order. */
    static final class OrderedSinkStage extends Stage {
        private final Sink sink;

        OrderedSinkStage(final BatchCount count, final Sink sink) {
            super(count);
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            count.endOfBatch(sequence, endOfBatch);
            sink.addOrdered(event.producer, event.value);
        }
    }

    /** Pipeline stage A. */
    static final class PipelineA extends Stage {
        PipelineA(final BatchCount count) {
            super(count);
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.a = Work.pipelineA(event.value);
            count.endOfBatch(sequence, endOfBatch);
        }
    }

    /** Pipeline stage B. */
    static final class PipelineB extends Stage {
        PipelineB(final BatchCount count) {
            super(count);
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.b = Work.pipelineB(event.a);
            count.endOfBatch(sequence, endOfBatch);
        }
    }

    /** Pipeline stage C. */
    static final class PipelineC extends Stage {
        private final Sink sink;

        PipelineC(final BatchCount count, final Sink sink) {
            super(count);
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            count.endOfBatch(sequence, endOfBatch);
            sink.add(event.b);
        }
    }

    /** Diamond stage A. */
    static final class DiamondA extends Stage {
        DiamondA(final BatchCount count) {
            super(count);
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.a = Work.diamondA(event.value);
            count.endOfBatch(sequence, endOfBatch);
        }
    }

    /** Diamond stage B. */
    static final class DiamondB extends Stage {
        DiamondB(final BatchCount count) {
            super(count);
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.b = Work.diamondB(event.value);
            count.endOfBatch(sequence, endOfBatch);
        }
    }

    /** Diamond join stage C. */
    static final class DiamondC extends Stage {
        private final Sink sink;

        DiamondC(final BatchCount count, final Sink sink) {
            super(count);
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            count.endOfBatch(sequence, endOfBatch);
            sink.add(event.a + event.b);
        }
    }

    /**
     * The stages of a shape, in the order of {@link Shape#stageNames()}, each with its counter:
     * the one wiring every ring library uses.
     *
     * @param shape the topology
     * @param counts one counter per stage
     * @param sinks the last stages' sinks
     * @return the handlers
     */
    static Stage[] forShape(final Shape shape, final BatchCount[] counts, final Sink[] sinks) {
        return switch (shape) {
            case UNICAST -> new Stage[] {new SinkStage(counts[0], sinks[0])};
            case SEQUENCER -> new Stage[] {new OrderedSinkStage(counts[0], sinks[0])};
            case PIPELINE -> new Stage[] {new PipelineA(counts[0]), new PipelineB(counts[1]),
                new PipelineC(counts[2], sinks[0])};
            case MULTICAST -> new Stage[] {new SinkStage(counts[0], sinks[0]), new SinkStage(counts[1], sinks[1]),
                new SinkStage(counts[2], sinks[2])};
            case DIAMOND -> new Stage[] {new DiamondA(counts[0]), new DiamondB(counts[1]),
                new DiamondC(counts[2], sinks[0])};
        };
    }
}
