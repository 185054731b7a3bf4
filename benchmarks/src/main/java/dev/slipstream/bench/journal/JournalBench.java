package dev.slipstream.bench.journal;

import dev.slipstream.bench.support.CommandLine;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What the journal costs, measured like for like: one case and one test per JVM, 64-byte
 * payloads; {@code benchmarks/scripts/journal-like-for-like.sh} runs the cases interleaved and
 * prints the journal's cost against the control and the limit. Each run prints one
 * {@code RESULT} line per figure.
 *
 * <ul>
 *   <li>{@code --test throughput --impl slipstream|chronicle}: append {@code --records} events
 *       with no sync on either side (Slipstream {@code never()}, Chronicle {@code syncMode(NONE)}
 *       and no {@code sync()}), the stage called back to back in batches of 256, timing the second
 *       half; then replay everything twice, timing the second pass. Figures {@code append} and
 *       {@code replay}, events/s.</li>
 *   <li>{@code --test latency --case C --rate N}: append-to-seen latency at N events/s for
 *       {@code --seconds} after a one-second warm-up; every event is timed from when it was due
 *       (no coordinated omission). Cases:
 *       <ul>
 *         <li>{@code control}: a paced producer, a ring, a no-op stage in the journal's place,
 *             then a recording stage;</li>
 *         <li>{@code slipstream-batch}, {@code slipstream-never}, {@code slipstream-Nus}: the
 *             same pipeline with the journal stage under {@code everyBatch()}, {@code never()} or
 *             {@code atMostEvery(N us)}; with {@code -pretouch} appended
 *             ({@code slipstream-never-pretouch}) the journal runs with
 *             {@code JournalConfig.pretouch(true)};</li>
 *         <li>{@code chronicle-sync}, {@code chronicle-async}, {@code chronicle-none}: the same
 *             pipeline with Chronicle Queue, {@code syncMode(SYNC)} (msync MS_SYNC, waits for the
 *             device, like {@code everyBatch()}), {@code ASYNC} (its default, does not wait), or
 *             no sync; {@code --pretouch true} adds its pre-toucher;</li>
 *         <li>{@code limit-mapped}, {@code limit-channel}: no pipeline, the bare write-and-force
 *             loop ({@link ForceLoop}), the physical limit of a durable append.</li>
 *       </ul>
 *       Figures {@code p50}, {@code p99}, {@code p999} (microseconds), {@code rate}, and the
 *       minor page faults taken in the measured seconds by the stage's thread
 *       ({@code minflt-stage}) and by the whole process ({@code minflt-process}), from
 *       {@code /proc} (-1 elsewhere than Linux).</li>
 *   <li>{@code --segment-mib N}: the Slipstream journal's segment size in the latency test
 *       (default 256; at 1M events/s of 80-byte records a 256 MiB segment lasts about 3 s, so a
 *       short run never rolls: a smaller size makes the rolls part of the run).</li>
 *   <li>{@code --wait auto|blocking|yielding}: the pipeline's wait strategy. {@code auto} (the
 *       default) takes yielding waits only when the machine has a core for each of the three
 *       threads plus one, and blocking waits otherwise, so that no more threads are busy than
 *       there are cores (the paced producer is the one busy thread).</li>
 * </ul>
 *
 * <pre>
 * java $CHRONICLE_FLAGS -cp benchmarks.jar dev.slipstream.bench.journal.JournalBench --test latency --case control --rate 10000
 * </pre>
 */
public final class JournalBench {
    /** A Slipstream case name ending in this runs the journal with {@code JournalConfig.pretouch(true)}. */
    static final String PRETOUCH_SUFFIX = "-pretouch";

    private JournalBench() {
    }

    public static void main(final String[] args) throws Exception {
        final Map<String, String> o = new HashMap<>(Map.of("impl", "slipstream", "test", "throughput",
                "records", "4000000", "rate", "100000", "seconds", "3", "dir", System.getProperty("java.io.tmpdir"),
                "case", "control", "wait", "auto", "pretouch", "false", "segment-mib", "256"));
        o.putAll(CommandLine.parse(args, o.keySet()));
        final Path dir = Files.createTempDirectory(Path.of(o.get("dir")), "journal-bench-");
        try {
            if ("throughput".equals(o.get("test"))) {
                throughput(o.get("impl"), dir, Long.parseLong(o.get("records")));
            } else if ("latency".equals(o.get("test"))) {
                latency(o.get("case"), dir, Long.parseLong(o.get("rate")), Long.parseLong(o.get("seconds")),
                        o.get("wait"), Boolean.parseBoolean(o.get("pretouch")), Integer.parseInt(o.get("segment-mib")));
            } else {
                throw new IllegalArgumentException("unknown --test " + o.get("test") + "; expected throughput or latency");
            }
        } finally {
            deleteAll(dir);
        }
    }

    private static void result(final String impl, final String test, final String figure, final double value,
                               final String extra) {
        System.out.printf("RESULT impl=%s test=%s figure=%s value=%.3f%s%n", impl, test, figure, value, extra);
    }

    private static void throughput(final String impl, final Path dir, final long records) {
        try (JournalAdapter journal = JournalAdapter.create(impl, dir, false)) {
            final EventHandler<Record64> stage = journal.stage();
            final Record64 r = new Record64();
            final long half = records / 2;
            long start = 0;
            try {
                stage.onStart();
                for (long i = 0; i < records; i++) {
                    if (i == half) {
                        start = System.nanoTime();
                    }
                    r.fill(i);
                    stage.onEvent(r, i, (i & 255) == 255);
                }
                stage.onShutdown();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            final double appendRate = (records - half) * 1e9 / (System.nanoTime() - start);
            result(impl, "throughput", "append", appendRate, "");
            final long expected = journal.replayAll();
            final long replayStart = System.nanoTime();
            final long sum = journal.replayAll();
            final double replayRate = records * 1e9 / (System.nanoTime() - replayStart);
            if (sum != expected) {
                throw new IllegalStateException("replays differ: " + sum + " vs " + expected);
            }
            result(impl, "throughput", "replay", replayRate, "");
        }
    }

    /** After the journal: records each event's latency from when it was due. */
    private static final class Recorder implements EventHandler<Record64> {
        final Histogram histogram = new Histogram(Duration.ofSeconds(10).toNanos(), 3);
        volatile long seen;
        private long count;

        @Override
        public void onEvent(final Record64 r, final long sequence, final boolean endOfBatch) {
            histogram.recordValue(Math.min(histogram.getHighestTrackableValue(), System.nanoTime() - r.intendedNanos));
            count++;
            if (endOfBatch) {
                seen = count;
            }
        }
    }

    /** The producer's translator, reused: no allocation per event. */
    private static final class NextRecord implements EventTranslator<Record64> {
        long index;
        long due;

        @Override
        public void translateTo(final Record64 r, final long sequence) {
            r.fill(index);
            r.intendedNanos = due;
        }
    }

    /** The stage in the journal's place for a case name. */
    static JournalAdapter adapterFor(final String name, final Path dir, final boolean pretouch, final int segmentMib) {
        if ("control".equals(name)) {
            return new NoJournalAdapter();
        }
        if (name.startsWith("slipstream-")) {
            final String rest = name.substring("slipstream-".length());
            final boolean touched = rest.endsWith(PRETOUCH_SUFFIX);
            final String policy = touched ? rest.substring(0, rest.length() - PRETOUCH_SUFFIX.length()) : rest;
            return new SlipstreamJournalAdapter(dir, SlipstreamJournalAdapter.policy(policy), touched, segmentMib << 20);
        }
        if (name.startsWith("chronicle-")) {
            final String mode = name.substring("chronicle-".length());
            try {
                return new ChronicleQueueAdapter(dir, ChronicleQueueAdapter.Sync.valueOf(mode.toUpperCase(java.util.Locale.ROOT)),
                        pretouch);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown Chronicle mode " + mode + "; expected sync, async or none", e);
            }
        }
        throw new IllegalArgumentException("unknown --case " + name + "; expected control, slipstream-batch|never|Nus,"
                + " each optionally with " + PRETOUCH_SUFFIX + ", chronicle-sync|async|none, limit-mapped or limit-channel");
    }

    /** Blocking waits unless every thread of the pipeline can have a core of its own, with one to spare. */
    static WaitStrategy waitFor(final String choice, final int cores) {
        return switch (choice) {
            case "auto" -> cores >= 4 ? new YieldingWaitStrategy() : new BlockingWaitStrategy();
            case "blocking" -> new BlockingWaitStrategy();
            case "yielding" -> new YieldingWaitStrategy();
            default -> throw new IllegalArgumentException("unknown --wait " + choice + "; expected auto, blocking or yielding");
        };
    }

    private static void latency(final String name, final Path dir, final long rate, final long seconds,
                                final String waitChoice, final boolean pretouch, final int segmentMib) throws Exception {
        final String test = "latency-" + rate;
        if (name.startsWith("limit-")) {
            final boolean mapped = "limit-mapped".equals(name);
            if (!mapped && !"limit-channel".equals(name)) {
                throw new IllegalArgumentException("unknown --case " + name + "; expected limit-mapped or limit-channel");
            }
            try (ForceLoop loop = new ForceLoop(dir.resolve("limit"), mapped)) {
                final long start = System.nanoTime();
                final Histogram h = loop.run(rate, rate, rate * seconds);
                final double achieved = (rate + rate * seconds) * 1e9 / (System.nanoTime() - start);
                report(name, test, h, achieved, " wait=none");
            }
            return;
        }
        final WaitStrategy wait = waitFor(waitChoice, Runtime.getRuntime().availableProcessors());
        try (JournalAdapter journal = adapterFor(name, dir, pretouch, segmentMib)) {
            final Recorder recorder = new Recorder();
            final Slipstream<Record64> pipeline = Slipstream.builder(Record64::new).name("journal-latency")
                    .ringSize(1 << 16).waitStrategy(wait).build();
            final MinorFaults faults = new MinorFaults(journal.stage());
            pipeline.handleEventsWith(faults.stage()).then(recorder);
            pipeline.start();
            final long interval = 1_000_000_000L / rate;
            final long warmup = rate;
            final long total = warmup + rate * seconds;
            final long start = System.nanoTime() + 10_000_000L;
            long measuredFrom = 0;
            long stageFaultsFrom = -1;
            long processFaultsFrom = -1;
            final NextRecord next = new NextRecord();
            for (long i = 0; i < total; i++) {
                final long due = start + i * interval;
                while (System.nanoTime() < due) {
                    Thread.onSpinWait();
                }
                if (i == warmup) {
                    while (recorder.seen < warmup) {
                        Thread.onSpinWait();
                    }
                    recorder.histogram.reset();
                    stageFaultsFrom = faults.stageThread();
                    processFaultsFrom = MinorFaults.process();
                    measuredFrom = System.nanoTime();
                }
                next.index = i;
                next.due = due;
                pipeline.publishEvent(next);
            }
            while (recorder.seen < total) {
                Thread.sleep(1);
            }
            final double achieved = (total - warmup) * 1e9 / (System.nanoTime() - measuredFrom);
            final long stageFaults = faults.stageThread();
            final long processFaults = MinorFaults.process();
            pipeline.shutdown(Duration.ofSeconds(30)).requireClean();
            final String extra = " wait=" + wait.getClass().getSimpleName();
            report(name, test, recorder.histogram, achieved, extra);
            // minor page faults in the measured seconds: of the thread running the journal's stage,
            // and of the whole process (the pretoucher's thread, the JVM's)
            result(name, test, "minflt-stage", stageFaultsFrom < 0 || stageFaults < 0 ? -1 : stageFaults - stageFaultsFrom, extra);
            result(name, test, "minflt-process", processFaultsFrom < 0 || processFaults < 0 ? -1 : processFaults - processFaultsFrom, extra);
        }
    }

    private static void report(final String impl, final String test, final Histogram h, final double rate,
                               final String extra) {
        result(impl, test, "p50", h.getValueAtPercentile(50) / 1e3, extra);
        result(impl, test, "p99", h.getValueAtPercentile(99) / 1e3, extra);
        result(impl, test, "p999", h.getValueAtPercentile(99.9) / 1e3, extra);
        result(impl, test, "rate", rate, extra);
    }

    static void deleteAll(final Path dir) throws IOException {
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            entries.forEach(files::add);
        }
        for (final Path file : files) {
            if (Files.isDirectory(file)) {
                deleteAll(file);
            } else {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
