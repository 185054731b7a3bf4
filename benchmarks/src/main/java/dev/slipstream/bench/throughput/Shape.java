package dev.slipstream.bench.throughput;

/**
 * The five topologies of the Disruptor paper, as benchmarked here.
 *
 * <pre>{@code
 * Topology t = Topologies.create(Shape.PIPELINE, "slipstream", "yielding", 65536);
 * }</pre>
 */
public enum Shape {
    /** One producer, one consumer. */
    UNICAST(1, 1),
    /** One producer, three stages in a chain: A, then B reads A's result, then C sums B's. */
    PIPELINE(1, 3),
    /** Three producers, one consumer that checks each producer's order. */
    SEQUENCER(3, 1),
    /** One producer, three independent consumers that each see every event. */
    MULTICAST(1, 3),
    /** One producer, A and B in parallel, C after both of them. */
    DIAMOND(1, 3);

    private final int producers;
    private final int consumers;

    Shape(final int producers, final int consumers) {
        this.producers = producers;
        this.consumers = consumers;
    }

    /** How many threads publish. */
    public int producers() {
        return producers;
    }

    /** How many consumer threads the topology runs. */
    public int consumers() {
        return consumers;
    }

    /**
     * The stages' names, in wiring order: the last one (or the last three, in multicast) ends in
     * a sink.
     *
     * @return the names
     */
    public String[] stageNames() {
        return switch (this) {
            case UNICAST, SEQUENCER -> new String[] {"c"};
            case PIPELINE, DIAMOND -> new String[] {"a", "b", "c"};
            case MULTICAST -> new String[] {"c1", "c2", "c3"};
        };
    }

    /** Lower-case name, as used in params and reports. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
