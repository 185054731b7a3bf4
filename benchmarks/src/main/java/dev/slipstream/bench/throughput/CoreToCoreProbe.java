package dev.slipstream.bench.throughput;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long one cache line takes to go from one CPU to the other and back: two threads take
 * turns incrementing one counter, each waiting (busy) for the other's increment. On a machine
 * with more runnable threads than this probe's two it measures the scheduler instead, so run it
 * alone, between benchmark JVMs.
 *
 * <p>Why it exists: on a virtual machine the host decides where the guest's CPUs run, and may move
 * them while the guest runs. A producer and its consumer pay one such transfer for every cache
 * line of events they share, so the round trip printed here (on the 2-vCPU AMD EPYC VM it takes
 * about 80, 160 or 350 ns, changing from one second to the next) tells which machine a
 * continuous-stream run met. {@code benchmarks/scripts/continuous.sh} runs it before and after
 * every run when {@code PROBE=1}.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.throughput.CoreToCoreProbe 20000 7
 * # PROBE rtt_ns=81.4 samples=80.9,81.2,81.4,81.9,82.3,82.6,90.1
 * }</pre>
 */
public final class CoreToCoreProbe {
    /** The line both threads write. */
    private final AtomicLong turn = new AtomicLong();

    private CoreToCoreProbe() {
    }

    /**
     * Prints the median round trip of several timed samples.
     *
     * @param args round trips per sample (20,000), samples (7)
     * @throws InterruptedException if interrupted while waiting for the echo thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final int roundTrips = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        final int samples = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        if (roundTrips < 1 || samples < 1) {
            throw new IllegalArgumentException("round trips and samples must be >= 1, got "
                    + roundTrips + " and " + samples);
        }
        final CoreToCoreProbe probe = new CoreToCoreProbe();
        // untimed samples for about 300 ms first, so that both loops run compiled when timed
        final long warmUntil = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < warmUntil) {
            probe.sample(roundTrips);
        }
        final double[] ns = new double[samples];
        for (int i = 0; i < samples; i++) {
            ns[i] = probe.sample(roundTrips);
        }
        // in the order taken: the host may move a CPU between two samples
        final StringBuilder all = new StringBuilder();
        for (final double v : ns) {
            all.append(all.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.1f", v));
        }
        final double[] sorted = ns.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "PROBE rtt_ns=%.1f samples=%s%n", sorted[samples / 2], all);
    }

    /** Nanoseconds per round trip over {@code roundTrips} round trips. */
    private double sample(final int roundTrips) throws InterruptedException {
        turn.set(0);
        final Thread echo = new Thread(() -> {
            for (long odd = 1; odd < 2L * roundTrips; odd += 2) {
                // volatile loads: wait for the other thread's write of the line
                while (turn.get() != odd) {
                    Thread.onSpinWait();
                }
                turn.set(odd + 1);
            }
        }, "probe-echo");
        echo.start();
        // wait until the echo thread runs, so that its start is not timed
        while (!echo.isAlive()) {
            Thread.onSpinWait();
        }
        final long start = System.nanoTime();
        for (long even = 0; even < 2L * roundTrips; even += 2) {
            turn.set(even + 1);
            while (turn.get() != even + 2) {
                Thread.onSpinWait();
            }
        }
        final long elapsed = System.nanoTime() - start;
        echo.join();
        return (double) elapsed / roundTrips;
    }
}
