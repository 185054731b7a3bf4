package dev.slipstream.bench.latency;

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
            case "slipstream" -> SlipRigs.oneWay(wait, pipeline, ringSize);
            case "lmax" -> LmaxRigs.oneWay(wait, pipeline, ringSize);
            case "abq" -> QueueRigs.oneWay(wait, pipeline, ringSize);
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
            case "slipstream" -> SlipRigs.pingPong(wait, ringSize);
            case "lmax" -> LmaxRigs.pingPong(wait, ringSize);
            case "abq" -> QueueRigs.pingPong(wait, ringSize);
            default -> throw new IllegalArgumentException("unknown implementation '" + impl
                    + "'; expected slipstream, lmax or abq");
        };
    }

    /**
     * Joins threads, failing loudly if one does not stop.
     *
     * @param threads the threads
     */
    static void joinAll(final Thread[] threads) {
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                throw new IllegalStateException("thread " + t.getName() + " did not stop within 10 s");
            }
        }
    }
}
