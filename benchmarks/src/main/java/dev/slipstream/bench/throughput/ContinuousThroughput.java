package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.BatchCount;
import dev.slipstream.bench.support.EventPlacement;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Throughput of a continuous stream, the Disruptor paper's method: the producers publish events
 * back to back for the whole pass, and the clock stops when the last stage has seen the last
 * event. Nothing resets between the events of a pass, so the producer and its consumers run in
 * whatever steady state they settle into, and each stage's batch sizes show which one it is.
 *
 * <p>One JVM runs one cell (shape, implementation, wait strategy): warm-up passes, then measured
 * passes; a pass lasts about {@code -seconds} (its event count comes from the rate of the pass
 * before; the first warm-up pass publishes {@value #FIRST_PASS_EVENTS} events). It prints every
 * pass, then one {@code RESULT} line with the median measured pass, each stage's mean batch size
 * and size distribution over the measured passes, and the bytes allocated per event by every
 * thread of the JVM during them. {@code benchmarks/scripts/continuous.sh} runs the cells of
 * several sides interleaved, one JVM each, and compares them.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.throughput.ContinuousThroughput \
 *     unicast dsl yielding -seconds 1.5 -warmups 1 -passes 3
 * }</pre>
 */
public final class ContinuousThroughput {
    private static final int FIRST_PASS_EVENTS = 10_000_000;

    private ContinuousThroughput() {
    }

    /**
     * Runs one cell.
     *
     * @param args shape (unicast, pipeline, sequencer, multicast, diamond), implementation (dsl,
     *     slipstream, lmax, abq), wait strategy (busyspin, yielding, blocking, ...), then options
     *     {@code -seconds S} (1.5), {@code -warmups N} (1), {@code -passes N} (3),
     *     {@code -ringSize N} (65536), {@code -events N} (a fixed count per pass instead of a time)
     */
    public static void main(final String[] args) {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: ContinuousThroughput SHAPE IMPL WAIT [-seconds S]"
                    + " [-warmups N] [-passes N] [-ringSize N] [-events N]; got " + Arrays.toString(args));
        }
        final Shape shape = Shape.valueOf(args[0].toUpperCase(Locale.ROOT));
        final String impl = args[1];
        final String wait = args[2];
        double seconds = 1.5;
        int warmups = 1;
        int passes = 3;
        int ringSize = 65536;
        long fixedEvents = 0;
        for (int i = 3; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            final String value = args[i + 1];
            switch (args[i]) {
                case "-seconds" -> seconds = Double.parseDouble(value);
                case "-warmups" -> warmups = Integer.parseInt(value);
                case "-passes" -> passes = Integer.parseInt(value);
                case "-ringSize" -> ringSize = Integer.parseInt(value);
                case "-events" -> fixedEvents = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; expected -seconds, -warmups, -passes, -ringSize or -events");
            }
        }
        if (passes < 1 || warmups < 0 || seconds <= 0) {
            throw new IllegalArgumentException("need passes >= 1, warmups >= 0 and seconds > 0");
        }
        run(shape, impl, wait, ringSize, seconds, warmups, passes, fixedEvents);
    }

    private static void run(final Shape shape, final String impl, final String wait, final int ringSize,
                            final double seconds, final int warmups, final int passes, final long fixedEvents) {
        final String cell = shape.id() + " " + impl + " " + wait;
        final String[] names = shape.stageNames();
        final int producers = shape.producers();
        final double[] rates = new double[passes];
        try (Topology topology = Topologies.create(shape, impl, wait, ringSize)) {
            topology.start();
            final BatchCount[] counts = topology.stageCounts();
            BatchCount.Snapshot[] measuredFrom = null;
            long allocatedFrom = 0;
            long measuredEvents = 0;
            double lastRate = 0;
            for (int pass = 0; pass < warmups + passes; pass++) {
                final boolean measured = pass >= warmups;
                if (measured && measuredFrom == null) {
                    measuredFrom = snapshots(counts);
                    allocatedFrom = allocatedBytes();
                }
                long events = fixedEvents > 0 ? fixedEvents
                        : pass == 0 ? FIRST_PASS_EVENTS : (long) (lastRate * seconds);
                events = Math.max(producers, Math.min(events, Integer.MAX_VALUE - producers));
                events -= events % producers;
                final BatchCount.Snapshot[] before = snapshots(counts);
                final long start = System.nanoTime();
                topology.runBatch((int) events);
                final long nanos = System.nanoTime() - start;
                lastRate = events * 1e9 / nanos;
                if (measured) {
                    rates[pass - warmups] = lastRate;
                    measuredEvents += events;
                }
                System.out.printf(Locale.ROOT, "%s pass %d (%s): %,d events in %.3f s, %.2f M events/s, batches %s%n",
                        cell, pass + 1, measured ? "measured" : "warm-up", events, nanos / 1e9, lastRate / 1e6,
                        meanBatches(names, snapshots(counts), before));
            }
            final long allocated = allocatedBytes() - allocatedFrom;
            final BatchCount.Snapshot[] end = snapshots(counts);
            final StringBuilder distributions = new StringBuilder();
            for (int i = 0; i < names.length; i++) {
                final BatchCount.Snapshot s = end[i].minus(measuredFrom[i]);
                distributions.append(String.format(Locale.ROOT, "%n  stage %s: %.1f events per batch; batches by size %s",
                        names[i], s.meanBatch(), s.batches() == 0 ? "-" : s.distribution()));
            }
            final double[] sorted = rates.clone();
            Arrays.sort(sorted);
            // events16: the share of the ring's events at a 16-byte boundary (NaN without a ring),
            // which sets the unicast blocking cell's level (EventPlacement)
            System.out.printf(Locale.ROOT, "RESULT shape=%s impl=%s wait=%s meps=%.3f passes=%s batch=%s bytesPerEvent=%.4f"
                            + " events16=%.3f%s%n",
                    shape.id(), impl, wait, sorted[passes / 2] / 1e6, joinRates(rates),
                    meanBatches(names, end, measuredFrom).replace(' ', ','), allocated / (double) measuredEvents,
                    EventPlacement.shareAtSixteen(), distributions);
        }
    }

    private static BatchCount.Snapshot[] snapshots(final BatchCount[] counts) {
        final BatchCount.Snapshot[] out = new BatchCount.Snapshot[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = counts[i].snapshot();
        }
        return out;
    }

    private static String meanBatches(final String[] names, final BatchCount.Snapshot[] now,
                                      final BatchCount.Snapshot[] before) {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            final BatchCount.Snapshot s = now[i].minus(before[i]);
            out.append(i == 0 ? "" : " ").append(names[i]).append(':')
                    .append(s.batches() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", s.meanBatch()));
        }
        return out.toString();
    }

    private static String joinRates(final double[] rates) {
        return Arrays.stream(rates).mapToObj(r -> String.format(Locale.ROOT, "%.2f", r / 1e6))
                .collect(Collectors.joining(","));
    }

    /** Bytes allocated so far by every live thread of this JVM. */
    private static long allocatedBytes() {
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            total += Math.max(bytes, 0L);
        }
        return total;
    }
}
