package dev.slipstream.bench.throughput;

/**
 * A running topology that the benchmark thread feeds one batch at a time.
 *
 * <pre>{@code
 * try (Topology t = Topologies.create(Shape.UNICAST, "lmax", "yielding", 65536)) {
 *     t.start();
 *     t.runBatch(1 << 18);   // publishes, waits for the last stage, checks the checksum
 * }
 * }</pre>
 */
public interface Topology extends AutoCloseable {
    /** Starts the consumer (and helper producer) threads. */
    void start();

    /**
     * Publishes {@code n} events, waits until every last stage has seen all of them and checks
     * their checksums.
     *
     * @param n the batch size (a multiple of the number of producers)
     * @throws IllegalStateException on a checksum or order mismatch, or a stuck stage
     */
    void runBatch(int n);

    /**
     * The batch counter of every stage, in the order of {@link Shape#stageNames()}; a stage that
     * takes events one at a time (a queue) counts no batches.
     *
     * @return the counters (a copy of the array; the counters themselves are live)
     */
    dev.slipstream.bench.support.BatchCount[] stageCounts();

    /** Stops and joins every thread the topology started. */
    @Override
    void close();
}
