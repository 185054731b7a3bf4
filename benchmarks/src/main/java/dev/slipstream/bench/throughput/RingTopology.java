package dev.slipstream.bench.throughput;

import dev.slipstream.bench.ring.ProcessorThreads;
import dev.slipstream.bench.ring.RingLibrary;
import dev.slipstream.bench.support.BatchCount;
import dev.slipstream.bench.support.Sink;

import java.util.List;
import java.util.function.BiFunction;

/**
 * The five topologies wired directly on a ring library's core classes (ring buffer, barriers,
 * batch event processors), written once for every library: the {@link RingLibrary} adapter
 * supplies the classes, {@link StageHandlers} the handlers of the library's own interface, so
 * that two topologies of one shape differ only in the library underneath. LMAX is wired the way
 * its own performance tests wire it (no DSL).
 *
 * <pre>{@code
 * Topology t = new RingTopology<>(Shape.DIAMOND, "yielding", 65536, SlipstreamRing.INSTANCE,
 *         (counts, sinks) -> StageHandlers.slipstream(Shape.DIAMOND, counts, sinks));
 * }</pre>
 *
 * @param <R> the library's ring type
 * @param <B> its barrier type
 * @param <S> its sequence type
 * @param <H> its handler type
 * @param <P> its processor type
 */
public final class RingTopology<R, B, S, H, P extends Runnable> extends AbstractTopology {
    private final RingLibrary<R, B, S, H, P> lib;
    private final R ring;
    private final ProcessorThreads<P> stages;

    /**
     * Wires the topology; no thread runs until {@link #start()}.
     *
     * @param shape the topology
     * @param wait the wait strategy name
     * @param ringSize the ring size, a power of two
     * @param lib the library
     * @param handlers its handlers of the shape's stages, given the counters and sinks (see
     *     {@link StageHandlers})
     */
    public RingTopology(final Shape shape, final String wait, final int ringSize,
                        final RingLibrary<R, B, S, H, P> lib,
                        final BiFunction<BatchCount[], Sink[], List<H>> handlers) {
        super(shape, lib.name());
        this.lib = lib;
        this.stages = new ProcessorThreads<>(lib);
        ring = lib.ring(shape.producers() > 1, ringSize, wait);
        final List<H> handlerList = handlers.apply(stageCounts, sinks);
        switch (shape) {
            case UNICAST, SEQUENCER -> lib.gate(ring, add(List.of(), handlerList.get(0)));
            case PIPELINE -> {
                final S a = add(List.of(), handlerList.get(0));
                final S b = add(List.of(a), handlerList.get(1));
                lib.gate(ring, add(List.of(b), handlerList.get(2)));
            }
            case MULTICAST -> {
                for (H stage : handlerList) {
                    lib.gate(ring, add(List.of(), stage));
                }
            }
            case DIAMOND -> {
                final S a = add(List.of(), handlerList.get(0));
                final S b = add(List.of(), handlerList.get(1));
                lib.gate(ring, add(List.of(a, b), handlerList.get(2)));
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
    }

    private S add(final List<S> upstream, final H handler) {
        return lib.sequenceOf(stages.add(lib.processor(ring, lib.barrier(ring, upstream), handler)));
    }

    @Override
    protected void publishRange(final int producer, final long first, final int n) {
        lib.publishRange(ring, producer, first, n);
    }

    @Override
    protected void abort(final Throwable cause) {
        lib.abort(ring, cause);
    }

    @Override
    protected void startStages() {
        stages.start(shape.id());
    }

    @Override
    protected void stopStages() {
        stages.stop();
    }
}
