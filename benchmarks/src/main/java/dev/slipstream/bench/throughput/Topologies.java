package dev.slipstream.bench.throughput;

import dev.slipstream.bench.ring.LmaxRing;
import dev.slipstream.bench.ring.SlipstreamRing;

/**
 * Creates a topology by implementation name.
 *
 * <pre>{@code
 * Topology t = Topologies.create(Shape.MULTICAST, "slipstream", "blocking", 65536);
 * }</pre>
 */
public final class Topologies {
    private Topologies() {
    }

    /**
     * Creates (but does not start) a topology.
     *
     * @param shape the topology
     * @param impl slipstream (core classes), dsl (the {@code Slipstream} builder), lmax or abq
     * @param wait the wait strategy name
     * @param ringSize ring size (and queue capacity)
     * @return the topology
     * @throws IllegalArgumentException for an unknown implementation
     */
    public static Topology create(final Shape shape, final String impl, final String wait, final int ringSize) {
        return switch (impl) {
            case "slipstream" -> new RingTopology<>(shape, wait, ringSize, SlipstreamRing.INSTANCE,
                    (counts, sinks) -> StageHandlers.slipstream(shape, counts, sinks));
            case "dsl" -> new DslTopology(shape, wait, ringSize);
            case "lmax" -> new RingTopology<>(shape, wait, ringSize, LmaxRing.INSTANCE,
                    (counts, sinks) -> StageHandlers.lmax(shape, counts, sinks));
            case "abq" -> new QueueTopology(shape, wait, ringSize);
            default -> throw new IllegalArgumentException("unknown implementation '" + impl
                    + "'; expected slipstream, dsl, lmax or abq");
        };
    }
}
