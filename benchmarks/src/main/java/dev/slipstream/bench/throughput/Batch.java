package dev.slipstream.bench.throughput;

/**
 * The number of events per benchmark invocation, shared by every throughput benchmark.
 *
 * <pre>{@code
 * @OperationsPerInvocation(Batch.EVENTS)
 * }</pre>
 */
public final class Batch {
    /** Three times 2^16: a multiple of the three producers of the sequencer shape, three ring laps. */
    public static final int EVENTS = 3 * 65536;

    private Batch() {
    }
}
