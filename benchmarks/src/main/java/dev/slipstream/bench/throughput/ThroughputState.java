package dev.slipstream.bench.throughput;

/**
 * The topology a JMH benchmark runs, started once per trial (fork) and stopped after it.
 *
 * <pre>{@code
 * ThroughputState s = new ThroughputState();
 * s.open(Shape.UNICAST, "lmax", "yielding", 65536);
 * s.topology().runBatch(1 << 18);
 * s.close();
 * }</pre>
 */
public final class ThroughputState {
    private Topology topology;

    /** Creates an empty state. */
    public ThroughputState() {
    }

    /**
     * Creates and starts the topology, and runs one small batch so a wiring error shows before
     * the first measured iteration.
     *
     * @param shape the topology
     * @param impl the implementation
     * @param wait the wait strategy
     * @param ringSize the ring size
     */
    public void open(final Shape shape, final String impl, final String wait, final int ringSize) {
        topology = Topologies.create(shape, impl, wait, ringSize);
        topology.start();
        topology.runBatch(3 * 1024);
    }

    /**
     * The running topology.
     *
     * @return the topology
     */
    public Topology topology() {
        return topology;
    }

    /** Stops the topology. */
    public void close() {
        if (topology != null) {
            topology.close();
            topology = null;
        }
    }
}
