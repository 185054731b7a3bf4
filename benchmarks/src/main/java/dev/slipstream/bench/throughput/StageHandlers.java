package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.BatchCount;
import dev.slipstream.bench.support.Sink;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.support.Work;
import dev.slipstream.processor.EventHandler;

import java.util.List;

/**
 * The stages of the five topologies, for both ring libraries. Each stage's per-event work is
 * written once, as a static method here, so both sides run the very same per-event code; each
 * library gets handlers written the way its users write them: one class per stage (a lambda),
 * implementing that library's {@code EventHandler} and nothing else, whose {@code onEvent} is the
 * stage's method. A handler class that implemented both interfaces made the dispatch cost depend
 * on the library: with three such classes behind one processor (pipeline, diamond) Slipstream's
 * consumer loop took about 0.33 ns more per event than with classes of its own interface only,
 * and LMAX's nothing (docs/benchmarks/history/speed-study.md, seventeenth series). Each stage counts its
 * batches in a {@link BatchCount}, before the event's effects become visible downstream.
 *
 * <pre>{@code
 * BatchCount[] counts = {new BatchCount()};
 * Sink[] sinks = {new Sink(1)};
 * pipeline.handleEventsWith(StageHandlers.slipstream(Shape.UNICAST, counts, sinks).get(0));   // Slipstream
 * lmaxBuilder.build(ring, barrier, StageHandlers.lmax(Shape.UNICAST, counts, sinks).get(0));   // LMAX
 * }</pre>
 */
public final class StageHandlers {
    private StageHandlers() {
    }

    /** Slipstream's handlers of a shape's stages, in the order of {@link Shape#stageNames()}. */
    static List<EventHandler<ValueEvent>> slipstream(final Shape shape, final BatchCount[] counts, final Sink[] sinks) {
        return switch (shape) {
            case UNICAST -> List.of(slipstreamSink(counts[0], sinks[0]));
            case SEQUENCER -> {
                final BatchCount count = counts[0];
                final Sink sink = sinks[0];
                yield List.of((event, sequence, endOfBatch) -> orderedSink(event, sequence, endOfBatch, count, sink));
            }
            case PIPELINE -> {
                final BatchCount a = counts[0];
                final BatchCount b = counts[1];
                final BatchCount c = counts[2];
                final Sink sink = sinks[0];
                yield List.of((event, sequence, endOfBatch) -> pipelineA(event, sequence, endOfBatch, a),
                        (event, sequence, endOfBatch) -> pipelineB(event, sequence, endOfBatch, b),
                        (event, sequence, endOfBatch) -> pipelineC(event, sequence, endOfBatch, c, sink));
            }
            case MULTICAST -> List.of(slipstreamSink(counts[0], sinks[0]), slipstreamSink(counts[1], sinks[1]),
                    slipstreamSink(counts[2], sinks[2]));
            case DIAMOND -> {
                final BatchCount a = counts[0];
                final BatchCount b = counts[1];
                final BatchCount c = counts[2];
                final Sink sink = sinks[0];
                yield List.of((event, sequence, endOfBatch) -> diamondA(event, sequence, endOfBatch, a),
                        (event, sequence, endOfBatch) -> diamondB(event, sequence, endOfBatch, b),
                        (event, sequence, endOfBatch) -> diamondC(event, sequence, endOfBatch, c, sink));
            }
        };
    }

    /**
     * LMAX's handlers of a shape's stages, in the order of {@link Shape#stageNames()}: the twin of
     * {@link #slipstream}, written out again because a lambda's class is made where the lambda is
     * written, for the interface it is written for (one switch generic over the library would
     * need a factory method per stage and library, twice the lines).
     *
     * @param shape the topology
     * @param counts one counter per stage
     * @param sinks the last stages' sinks
     * @return the handlers
     */
    static List<com.lmax.disruptor.EventHandler<ValueEvent>> lmax(final Shape shape, final BatchCount[] counts,
                                                                  final Sink[] sinks) {
        return switch (shape) {
            case UNICAST -> List.of(lmaxSink(counts[0], sinks[0]));
            case SEQUENCER -> {
                final BatchCount count = counts[0];
                final Sink sink = sinks[0];
                yield List.of((event, sequence, endOfBatch) -> orderedSink(event, sequence, endOfBatch, count, sink));
            }
            case PIPELINE -> {
                final BatchCount a = counts[0];
                final BatchCount b = counts[1];
                final BatchCount c = counts[2];
                final Sink sink = sinks[0];
                yield List.of((event, sequence, endOfBatch) -> pipelineA(event, sequence, endOfBatch, a),
                        (event, sequence, endOfBatch) -> pipelineB(event, sequence, endOfBatch, b),
                        (event, sequence, endOfBatch) -> pipelineC(event, sequence, endOfBatch, c, sink));
            }
            case MULTICAST -> List.of(lmaxSink(counts[0], sinks[0]), lmaxSink(counts[1], sinks[1]),
                    lmaxSink(counts[2], sinks[2]));
            case DIAMOND -> {
                final BatchCount a = counts[0];
                final BatchCount b = counts[1];
                final BatchCount c = counts[2];
                final Sink sink = sinks[0];
                yield List.of((event, sequence, endOfBatch) -> diamondA(event, sequence, endOfBatch, a),
                        (event, sequence, endOfBatch) -> diamondB(event, sequence, endOfBatch, b),
                        (event, sequence, endOfBatch) -> diamondC(event, sequence, endOfBatch, c, sink));
            }
        };
    }

    /** One lambda, so the three sinks of multicast share a class, as the stages of one kind do. */
    private static EventHandler<ValueEvent> slipstreamSink(final BatchCount count, final Sink sink) {
        return (event, sequence, endOfBatch) -> sink(event, sequence, endOfBatch, count, sink);
    }

    private static com.lmax.disruptor.EventHandler<ValueEvent> lmaxSink(final BatchCount count, final Sink sink) {
        return (event, sequence, endOfBatch) -> sink(event, sequence, endOfBatch, count, sink);
    }

    /** Last stage of unicast and multicast. */
    static void sink(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count,
                     final Sink sink) {
        count.endOfBatch(sequence, endOfBatch);
        sink.add(event.value);
    }

    /** Last stage of the sequencer: also checks each producer's order. */
    static void orderedSink(final ValueEvent event, final long sequence, final boolean endOfBatch,
                            final BatchCount count, final Sink sink) {
        count.endOfBatch(sequence, endOfBatch);
        sink.addOrdered(event.producer, event.value);
    }

    /** Pipeline stage A. */
    static void pipelineA(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count) {
        event.a = Work.pipelineA(event.value);
        count.endOfBatch(sequence, endOfBatch);
    }

    /** Pipeline stage B. */
    static void pipelineB(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count) {
        event.b = Work.pipelineB(event.a);
        count.endOfBatch(sequence, endOfBatch);
    }

    /** Pipeline stage C. */
    static void pipelineC(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count,
                          final Sink sink) {
        count.endOfBatch(sequence, endOfBatch);
        sink.add(event.b);
    }

    /** Diamond stage A. */
    static void diamondA(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count) {
        event.a = Work.diamondA(event.value);
        count.endOfBatch(sequence, endOfBatch);
    }

    /** Diamond stage B. */
    static void diamondB(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count) {
        event.b = Work.diamondB(event.value);
        count.endOfBatch(sequence, endOfBatch);
    }

    /** Diamond join stage C. */
    static void diamondC(final ValueEvent event, final long sequence, final boolean endOfBatch, final BatchCount count,
                         final Sink sink) {
        count.endOfBatch(sequence, endOfBatch);
        sink.add(event.a + event.b);
    }
}
