package dev.slipstream.bench.latency;

/**
 * A running topology for one-way latency: the driver sends events stamped with their intended
 * send time; the last stage records their latency in a {@link LatencySink}.
 *
 * <pre>{@code
 * try (OneWayRig rig = Rigs.oneWay("slipstream", "hybrid", "pipeline", 65536)) {
 *     rig.start();
 *     rig.send(1, System.nanoTime());
 * }
 * }</pre>
 */
public interface OneWayRig extends AutoCloseable {
    /** Starts the stage threads. */
    void start();

    /**
     * Sends one event, waiting for space if the ring or queue is full.
     *
     * @param value the event's value (for the checksum)
     * @param intendedNanos the intended send time
     */
    void send(long value, long intendedNanos);

    /** The recording stage. */
    LatencySink sink();

    /** The stage threads, for their CPU time. */
    Thread[] stageThreads();

    /** Stops and joins the stage threads. */
    @Override
    void close();
}
