package dev.slipstream.bench.latency;

/**
 * Two rings (or queues) and an echo thread: the driver sends a ping on the first and waits for
 * the echo on the second.
 *
 * <pre>{@code
 * try (PingPongRig rig = Rigs.pingPong("lmax", "busyspin", 1024)) {
 *     rig.start();
 *     long echoed = rig.roundTrip(42);   // 42
 * }
 * }</pre>
 */
public interface PingPongRig extends AutoCloseable {
    /** Starts the echo thread. */
    void start();

    /**
     * Sends {@code value} and waits for its echo.
     *
     * @param value the value
     * @return the echoed value
     */
    long roundTrip(long value);

    /** The echo thread, for its CPU time. */
    Thread[] stageThreads();

    /** Stops and joins the echo thread. */
    @Override
    void close();
}
