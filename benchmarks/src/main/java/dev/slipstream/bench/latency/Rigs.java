package dev.slipstream.bench.latency;

import dev.slipstream.bench.ring.LmaxRing;
import dev.slipstream.bench.ring.SlipstreamRing;

/**
 * Creates latency rigs by implementation name.
 *
 * <pre>{@code
 * OneWayRig rig = Rigs.oneWay("slipstream", "hybrid", "unicast", 65536);
 * }</pre>
 */
public final class Rigs {
    private Rigs() {
    }

    /**
     * A one-way rig.
     *
     * @param impl slipstream, lmax or abq
     * @param wait the wait strategy name
     * @param topology unicast or pipeline
     * @param ringSize ring size (queue capacity)
     * @return the rig, not started
     */
    public static OneWayRig oneWay(final String impl, final String wait, final String topology, final int ringSize) {
        final boolean pipeline = switch (topology) {
            case "unicast" -> false;
            case "pipeline" -> true;
            default -> throw new IllegalArgumentException("unknown topology '" + topology
                    + "'; expected unicast or pipeline");
        };
        return switch (impl) {
            case "slipstream" -> new RingRigs.OneWay<>(SlipstreamRing.INSTANCE, wait, pipeline, ringSize);
            case "lmax" -> new RingRigs.OneWay<>(LmaxRing.INSTANCE, wait, pipeline, ringSize);
            case "abq" -> new QueueRigs.OneWay(wait, pipeline, ringSize);
            default -> throw new IllegalArgumentException("unknown implementation '" + impl
                    + "'; expected slipstream, lmax or abq");
        };
    }

    /**
     * A ping-pong rig.
     *
     * @param impl slipstream, lmax or abq
     * @param wait the wait strategy name
     * @param ringSize ring size (queue capacity)
     * @return the rig, not started
     */
    public static PingPongRig pingPong(final String impl, final String wait, final int ringSize) {
        return switch (impl) {
            case "slipstream" -> new RingRigs.PingPong<>(SlipstreamRing.INSTANCE, wait, ringSize);
            case "lmax" -> new RingRigs.PingPong<>(LmaxRing.INSTANCE, wait, ringSize);
            case "abq" -> new QueueRigs.PingPong(wait, ringSize);
            default -> throw new IllegalArgumentException("unknown implementation '" + impl
                    + "'; expected slipstream, lmax or abq");
        };
    }
}
