package dev.slipstream.bench.journal;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.topology.Slipstream;
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
 * slipstream-journal against Chronicle Queue, one library and one test per JVM, same 64-byte
 * payload, same machine; {@code benchmarks/scripts/journal-interleaved.sh} runs it interleaved
 * and prints the median ratios. Each run prints one {@code RESULT} line per figure.
 *
 * <ul>
 *   <li>{@code --test throughput}: append {@code --records} events with no sync (the journal stage
 *       called back to back, batches of 256), timing the second half; then replay everything
 *       twice, timing the second pass. Figures: {@code append} and {@code replay}, events/s.</li>
 *   <li>{@code --policy batch|never|Nus} (Slipstream only, latency test): the sync policy, a force
 *       every batch (the default), never, or at most every N microseconds; the test's name gets the
 *       policy appended when it is not the default.</li>
 *   <li>{@code --test latency --rate N}: a pipeline (paced producer, ring, journal stage with a
 *       force every batch, then a recording stage) at N events/s for {@code --seconds} after a
 *       one-second warm-up; the latency of each event runs from when it was due to be published
 *       (no coordinated omission) until the stage after the journal sees it, durable. Figures:
 *       {@code p50}, {@code p99}, {@code p999} (microseconds) and {@code rate} (events/s achieved).</li>
 * </ul>
 *
 * <pre>
 * java $CHRONICLE_FLAGS -cp benchmarks.jar dev.slipstream.bench.journal.JournalBench --impl chronicle --test throughput
 * </pre>
 */
public final class JournalBench {
    private JournalBench() {
    }

    public static void main(final String[] args) throws Exception {
        final Map<String, String> o = new HashMap<>(Map.of("--impl", "slipstream", "--test", "throughput",
                "--records", "4000000", "--rate", "100000", "--seconds", "3", "--dir", System.getProperty("java.io.tmpdir"),
                "--policy", "batch"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!o.containsKey(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; expected one of " + o.keySet());
            }
            o.put(args[i], args[i + 1].replace("_", ""));
        }
        final String impl = o.get("--impl");
        final Path dir = Files.createTempDirectory(Path.of(o.get("--dir")), "journal-bench-" + impl);
        try {
            if ("throughput".equals(o.get("--test"))) {
                throughput(impl, dir, Long.parseLong(o.get("--records")));
            } else {
                latency(impl, dir, Long.parseLong(o.get("--rate")), Long.parseLong(o.get("--seconds")), o.get("--policy"));
            }
        } finally {
            deleteAll(dir);
        }
    }

    private static void result(final String impl, final String test, final String figure, final double value) {
        System.out.printf("RESULT impl=%s test=%s figure=%s value=%.3f%n", impl, test, figure, value);
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
            result(impl, "throughput", "append", appendRate);
            final long expected = journal.replayAll();
            final long replayStart = System.nanoTime();
            final long sum = journal.replayAll();
            final double replayRate = records * 1e9 / (System.nanoTime() - replayStart);
            if (sum != expected) {
                throw new IllegalStateException("replays differ: " + sum + " vs " + expected);
            }
            result(impl, "throughput", "replay", replayRate);
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

    private static void latency(final String impl, final Path dir, final long rate, final long seconds,
                                final String policy) throws InterruptedException {
        if (!"batch".equals(policy) && !"slipstream".equals(impl)) {
            throw new IllegalArgumentException("--policy " + policy + " applies to --impl slipstream only"
                    + " (Chronicle is measured with a sync every batch)");
        }
        try (JournalAdapter journal = "batch".equals(policy) ? JournalAdapter.create(impl, dir, true)
                : new SlipstreamJournalAdapter(dir, SlipstreamJournalAdapter.policy(policy))) {
            final Recorder recorder = new Recorder();
            final Slipstream<Record64> pipeline = Slipstream.builder(Record64::new).name("journal-latency")
                    .ringSize(1 << 16).waitStrategy(new YieldingWaitStrategy()).build();
            pipeline.handleEventsWith(journal.stage()).then(recorder);
            pipeline.start();
            final long interval = 1_000_000_000L / rate;
            final long warmup = rate;
            final long total = warmup + rate * seconds;
            final long start = System.nanoTime() + 10_000_000L;
            long measuredFrom = 0;
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
            pipeline.shutdown(Duration.ofSeconds(30));
            final Histogram h = recorder.histogram;
            final String test = "latency-" + rate + ("batch".equals(policy) ? "" : "-" + policy);
            result(impl, test, "p50", h.getValueAtPercentile(50) / 1e3);
            result(impl, test, "p99", h.getValueAtPercentile(99) / 1e3);
            result(impl, test, "p999", h.getValueAtPercentile(99.9) / 1e3);
            result(impl, test, "rate", achieved);
        }
    }

    private static void deleteAll(final Path dir) throws IOException {
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
