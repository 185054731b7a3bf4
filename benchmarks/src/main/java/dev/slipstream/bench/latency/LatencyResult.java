package dev.slipstream.bench.latency;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * One measured latency run: which configuration, its percentiles and the CPU it used, written
 * as one tab-separated line under {@link #HEADER} for the scripts that summarise the rounds.
 *
 * <pre>{@code
 * LatencyResult r = LatencyResult.of("oneway", "unicast", "slipstream", "hybrid", 10_000, histogram,
 *         10_000.0, 900.0, 400.0, 0.02, true);
 * out.println(r.toTsv());
 * }</pre>
 *
 * @param mode oneway or pingpong
 * @param topology unicast or pipeline
 * @param impl slipstream, lmax or abq
 * @param strategy the wait strategy
 * @param rate intended events per second (0 for ping-pong, which is not paced)
 * @param count events (or round trips) measured
 * @param achievedRate events per second actually received
 * @param p50 median latency, ns
 * @param p90 90th percentile, ns
 * @param p99 99th percentile, ns
 * @param p999 99.9th percentile, ns
 * @param p9999 99.99th percentile, ns
 * @param max maximum, ns
 * @param processCpuPerEvent process CPU per event, ns (producer, stages, JIT and GC)
 * @param stageCpuPerEvent CPU of the stage threads per event, ns (what the wait strategy burns)
 * @param stageCores CPU of the stage threads per second of wall time
 * @param checksumOk whether every event arrived with the right checksum
 */
public record LatencyResult(String mode, String topology, String impl, String strategy, long rate, long count,
                            double achievedRate, long p50, long p90, long p99, long p999, long p9999, long max,
                            double processCpuPerEvent, double stageCpuPerEvent, double stageCores,
                            boolean checksumOk) {
    /** The header of the TSV file. */
    public static final String HEADER = "mode\ttopology\timpl\twait\trate\tcount\tachieved_rate\tp50_ns\tp90_ns"
            + "\tp99_ns\tp99.9_ns\tp99.99_ns\tmax_ns\tprocess_cpu_ns_per_event\tstage_cpu_ns_per_event"
            + "\tstage_cores\tchecksum_ok";

    /**
     * Builds a result from a histogram.
     *
     * @param mode oneway or pingpong
     * @param topology unicast or pipeline
     * @param impl the implementation
     * @param wait the wait strategy
     * @param rate intended rate
     * @param h the histogram (ns)
     * @param achievedRate events per second received
     * @param processCpuPerEvent process CPU per event
     * @param stageCpuPerEvent stage CPU per event
     * @param stageCores stage CPU per wall second
     * @param checksumOk whether the checksum matched
     * @return the result
     */
    public static LatencyResult of(final String mode, final String topology, final String impl, final String wait,
                                   final long rate, final Histogram h, final double achievedRate,
                                   final double processCpuPerEvent, final double stageCpuPerEvent,
                                   final double stageCores, final boolean checksumOk) {
        return new LatencyResult(mode, topology, impl, wait, rate, h.getTotalCount(), achievedRate,
                h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99), h.getMaxValue(),
                processCpuPerEvent, stageCpuPerEvent, stageCores, checksumOk);
    }

    /** The TSV line. */
    public String toTsv() {
        return String.join("\t", mode, topology, impl, strategy, Long.toString(rate), Long.toString(count),
                fmt(achievedRate), Long.toString(p50), Long.toString(p90), Long.toString(p99), Long.toString(p999),
                Long.toString(p9999), Long.toString(max), fmt(processCpuPerEvent), fmt(stageCpuPerEvent),
                fmt(stageCores), Boolean.toString(checksumOk));
    }

    private static String fmt(final double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
