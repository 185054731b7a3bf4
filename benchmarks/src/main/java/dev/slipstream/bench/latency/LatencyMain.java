package dev.slipstream.bench.latency;

import dev.slipstream.bench.support.CommandLine;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.SingleWriterRecorder;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The latency harness: one implementation, one wait strategy, one topology per JVM (so that
 * no other implementation's code pollutes the JIT's profile), measured at each rate in turn.
 *
 * <p><b>One-way, paced.</b> The producer sends at a fixed rate; event {@code i} carries its
 * <em>intended</em> send time {@code start + i / rate}, and the last stage records
 * {@code now - intended}. A stall anywhere (producer blocked on a full ring, a stage parked)
 * therefore shows up in the latency of every event that should have been sent during it:
 * coordinated omission is avoided by construction, with no correction afterwards.
 *
 * <p><b>Ping-pong.</b> The driver sends one event over the first ring and waits for its echo on
 * the second; each round trip is recorded. It is a closed loop (the next ping leaves when the
 * echo arrives), so it measures the wake-up cost of a wait strategy without queueing.
 *
 * <p>For each run it writes a {@code .hlog} file (one interval histogram per second), appends a
 * line to {@code latency.tsv} and prints the percentiles. It exits with status 3 if an event was
 * lost or its checksum did not match.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.latency.LatencyMain \
 *     --mode oneway --impl slipstream --wait hybrid --topology unicast \
 *     --rates 10000,100000,1000000 --warmup-ms 2000 --measure-ms 5000 --out results/latency
 * }</pre>
 */
public final class LatencyMain {
    private final Map<String, String> opts;
    private final Path out;

    private LatencyMain(final Map<String, String> opts) {
        this.opts = opts;
        this.out = Path.of(opt("out", "results/latency"));
    }

    /**
     * Runs one configuration.
     *
     * @param args {@code --mode oneway|pingpong --impl slipstream|lmax|abq --wait NAME
     *     --topology unicast|pipeline --rates R1,R2 --warmup-ms MS --measure-ms MS --ring SIZE --out DIR}
     * @throws Exception if the run cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        final Map<String, String> opts = CommandLine.pairs(args, Set.of("mode", "impl", "wait", "topology", "rates",
                "warmup-ms", "measure-ms", "ring", "out"));
        final LatencyMain main = new LatencyMain(opts);
        final boolean ok;
        try {
            ok = main.run();
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!ok) {
            System.err.println("FAILED: checksum mismatch or lost events in a latency run (see above)");
            System.exit(3);
        }
        System.exit(0);
    }

    private String opt(final String name, final String dflt) {
        return opts.getOrDefault(name, dflt);
    }

    private long longOpt(final String name, final long dflt) {
        return Long.parseLong(opt(name, Long.toString(dflt)));
    }

    private boolean run() throws IOException, InterruptedException {
        final String mode = opt("mode", "oneway");
        final String impl = opt("impl", "slipstream");
        final String wait = opt("wait", "yielding");
        final String topology = opt("topology", "unicast");
        Files.createDirectories(out.resolve("hlog"));
        return switch (mode) {
            case "oneway" -> oneWay(impl, wait, topology);
            case "pingpong" -> pingPong(impl, wait);
            default -> throw new IllegalArgumentException("unknown mode '" + mode + "'; expected oneway or pingpong");
        };
    }

    private boolean oneWay(final String impl, final String wait, final String topology)
            throws IOException, InterruptedException {
        final int ring = (int) longOpt("ring", 65536);
        final long warmupMs = longOpt("warmup-ms", 2000);
        final long measureMs = longOpt("measure-ms", 5000);
        final List<Long> rates = new ArrayList<>();
        for (String r : opt("rates", "10000,100000,1000000").split(",")) {
            rates.add(Long.parseLong(r.trim()));
        }
        boolean ok = true;
        try (OneWayRig rig = Rigs.oneWay(impl, wait, topology, ring)) {
            rig.start();
            final Driver driver = new Driver(rig);
            for (long rate : rates) {
                driver.pace(rate, warmupMs, null);
                final String name = "oneway-" + topology + "-" + impl + "-" + wait + "-" + rate;
                final File hlog = out.resolve("hlog").resolve(name + ".hlog").toFile();
                final Measured m = driver.pace(rate, measureMs, hlog);
                final LatencyResult r = LatencyResult.of("oneway", topology, impl, wait, rate, m.histogram(),
                        m.achievedRate(), m.processCpuPerEvent(), m.stageCpuPerEvent(), m.stageCores(), m.ok());
                report(r, m.message());
                ok &= m.ok();
            }
        }
        return ok;
    }

    private boolean pingPong(final String impl, final String wait) throws IOException {
        final int ring = (int) longOpt("ring", 1024);
        final long warmupMs = longOpt("warmup-ms", 2000);
        final long measureMs = longOpt("measure-ms", 5000);
        final Histogram h = new Histogram(1, LatencySink.HIGHEST_TRACKABLE_NANOS, 3);
        boolean ok = true;
        String message = "";
        try (PingPongRig rig = Rigs.pingPong(impl, wait, ring)) {
            rig.start();
            long value = 1;
            final long warmEnd = System.nanoTime() + warmupMs * 1_000_000L;
            while (System.nanoTime() - warmEnd < 0) {
                if (rig.roundTrip(value) != value) {
                    ok = false;
                }
                value++;
            }
            final long cpu0 = CpuClock.processNanos();
            final long stage0 = CpuClock.threadsNanos(rig.stageThreads());
            final long start = System.nanoTime();
            final long startMs = System.currentTimeMillis();
            final long end = start + measureMs * 1_000_000L;
            long now = start;
            while (now - end < 0) {
                final long t0 = now;
                final long echoed = rig.roundTrip(value);
                now = System.nanoTime();
                h.recordValue(Math.min(now - t0, LatencySink.HIGHEST_TRACKABLE_NANOS));
                if (echoed != value) {
                    ok = false;
                    message = "echo " + echoed + " for ping " + value;
                }
                value++;
            }
            final long wall = now - start;
            final long n = h.getTotalCount();
            final double procPer = (CpuClock.processNanos() - cpu0) / (double) n;
            final long stageUsed = CpuClock.threadsNanos(rig.stageThreads()) - stage0;
            h.setStartTimeStamp(startMs);
            h.setEndTimeStamp(System.currentTimeMillis());
            writeLog(out.resolve("hlog").resolve("pingpong-unicast-" + impl + "-" + wait + ".hlog").toFile(),
                    List.of(h), startMs);
            report(LatencyResult.of("pingpong", "unicast", impl, wait, 0, h, n * 1e9 / wall, procPer,
                    stageUsed / (double) n, stageUsed / (double) wall, ok), message);
        }
        return ok;
    }

    private void report(final LatencyResult r, final String message) throws IOException {
        final Path tsv = out.resolve("latency.tsv");
        final String line = r.toTsv() + System.lineSeparator();
        if (!Files.exists(tsv)) {
            Files.writeString(tsv, LatencyResult.HEADER + System.lineSeparator(), StandardCharsets.UTF_8);
        }
        Files.writeString(tsv, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        final PrintStream o = System.out;
        o.printf(Locale.ROOT, "%-8s %-8s %-10s %-12s rate=%-8d n=%-8d got=%.0f/s  p50=%.2fus p90=%.2fus p99=%.2fus "
                        + "p99.9=%.2fus p99.99=%.2fus max=%.2fus  cpu/event: process=%.0fns stages=%.0fns "
                        + "(stages %.2f cores)%s%n",
                r.mode(), r.topology(), r.impl(), r.strategy(), r.rate(), r.count(), r.achievedRate(),
                r.p50() / 1e3, r.p90() / 1e3, r.p99() / 1e3, r.p999() / 1e3, r.p9999() / 1e3, r.max() / 1e3,
                r.processCpuPerEvent(), r.stageCpuPerEvent(), r.stageCores(),
                r.checksumOk() ? "" : "  CHECKSUM MISMATCH " + message);
    }

    static void writeLog(final File file, final List<Histogram> intervals, final long startMs) throws IOException {
        try (PrintStream ps = new PrintStream(file, StandardCharsets.UTF_8)) {
            final HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputComment("Slipstream latency harness, values in nanoseconds");
            w.outputLogFormatVersion();
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            w.outputLegend();
            for (Histogram h : intervals) {
                w.outputIntervalHistogram(h);
            }
        }
    }

    /** What one measured phase produced; no histogram or rates for a warm-up. */
    private record Measured(Histogram histogram, double achievedRate, double processCpuPerEvent,
                            double stageCpuPerEvent, double stageCores, boolean ok, String message) {
    }

    /** The paced producer and the interval reporter. */
    private static final class Driver {
        private final OneWayRig rig;
        private long sent;
        private long sentChecksum;

        Driver(final OneWayRig rig) {
            this.rig = rig;
        }

        /**
         * Sends at {@code rate} for {@code ms}, stamping each event with its intended time, then
         * waits for the last stage to record every event. With {@code hlog} null (warm-up) the
         * histograms are discarded.
         */
        Measured pace(final long rate, final long ms, final File hlog) throws IOException, InterruptedException {
            final LatencySink sink = rig.sink();
            final SingleWriterRecorder recorder = sink.recorder();
            final long events = Math.max(1, rate * ms / 1000);
            final double interval = 1e9 / rate;
            recorder.reset();
            final List<Histogram> intervals = new ArrayList<>();
            final Reporter reporter = hlog == null ? null : new Reporter(recorder, intervals);
            final long cpu0 = CpuClock.processNanos();
            final long stage0 = CpuClock.threadsNanos(rig.stageThreads());
            final long startMs = System.currentTimeMillis();
            if (reporter != null) {
                reporter.start();
            }
            final long start = System.nanoTime() + 100_000L;
            for (long i = 0; i < events; i++) {
                final long intended = start + (long) (i * interval);
                paceUntil(intended);
                final long value = ++sent;
                sentChecksum += value;
                rig.send(value, intended);
            }
            final long target = sent;
            final long drainDeadline = System.nanoTime() + Math.max(30_000L, 3 * ms) * 1_000_000L;
            while (sink.count() < target) {
                if (System.nanoTime() - drainDeadline > 0) {
                    break;
                }
                LockSupport.parkNanos(50_000L);
            }
            final long wall = System.nanoTime() - start;
            final long got = sink.count();
            final long cpu = CpuClock.processNanos() - cpu0;
            final long stageCpu = CpuClock.threadsNanos(rig.stageThreads()) - stage0;
            final boolean ok = got == target && sink.checksum() == sentChecksum;
            final String message = ok ? "" : "received " + got + " of " + target + " events, checksum "
                    + sink.checksum() + " expected " + sentChecksum;
            if (reporter == null) {
                recorder.reset();
                return new Measured(null, 0, 0, 0, 0, ok, message);
            }
            reporter.finish();
            final Histogram total = new Histogram(1, LatencySink.HIGHEST_TRACKABLE_NANOS, 3);
            for (Histogram h : intervals) {
                total.add(h);
            }
            writeLog(hlog, intervals, startMs);
            return new Measured(total, total.getTotalCount() * 1e9 / wall, cpu / (double) events,
                    stageCpu / (double) events, stageCpu / (double) wall, ok, message);
        }

        /**
         * Waits until {@code deadline}: parks while it is far away (leaving the core to the
         * stages), spins for the last 200 us for precision.
         */
        private static void paceUntil(final long deadline) {
            long remaining;
            while ((remaining = deadline - System.nanoTime()) > 0) {
                if (remaining > 300_000L) {
                    LockSupport.parkNanos(remaining - 200_000L);
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** Takes an interval histogram from the recorder every second. */
    private static final class Reporter extends Thread {
        private final SingleWriterRecorder recorder;
        private final List<Histogram> intervals;
        private volatile boolean done;

        Reporter(final SingleWriterRecorder recorder, final List<Histogram> intervals) {
            super("latency-reporter");
            setDaemon(true);
            this.recorder = recorder;
            this.intervals = intervals;
        }

        @Override
        public void run() {
            while (!done) {
                LockSupport.parkNanos(1_000_000_000L);
                if (!done) {
                    synchronized (intervals) {
                        intervals.add(recorder.getIntervalHistogram());
                    }
                }
            }
        }

        void finish() throws InterruptedException {
            done = true;
            LockSupport.unpark(this);
            join();
            synchronized (intervals) {
                intervals.add(recorder.getIntervalHistogram());
            }
        }
    }
}
