package dev.slipstream.examples.latency;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * Latency recording on a live pipeline: the last stage records, for every event, the time since
 * it was due into an HdrHistogram {@link Recorder}; a reporter thread takes an interval histogram
 * from it every {@code interval}, writes it to an {@code .hlog} file with a
 * {@link HistogramLogWriter}, and prints a one-line summary. The recording thread never waits for
 * the reporter: {@code recordValue} is wait-free, and {@code getIntervalHistogram} swaps in a
 * fresh histogram. (With exactly one recording thread, {@code SingleWriterRecorder} is a little
 * cheaper; {@code Recorder} also serves a work pool, whose workers record concurrently.)
 *
 * <p>The {@code .hlog} file can be read back with {@code HistogramLogReader} or plotted with the
 * HdrHistogram log tools, to see how latency moves over the run instead of a single summary.
 *
 * <pre>
 * java -cp examples/target/examples.jar dev.slipstream.examples.latency.LatencyRecordingExample \
 *      [seconds] [ratePerSecond] [log.hlog]
 * </pre>
 */
public final class LatencyRecordingExample {
    /** The event: a due time and a payload. */
    static final class Request {
        long dueNanos;
        long payload;
        long result;
    }

    /** The business stage: some work per event. */
    static final class Compute implements EventHandler<Request> {
        @Override
        public void onEvent(final Request request, final long sequence, final boolean endOfBatch) {
            long x = request.payload;
            for (int i = 0; i < 16; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            request.result = x;
        }
    }

    /** The last stage: records how long each event took from due time to here. */
    static final class RecordLatency implements EventHandler<Request> {
        private final Recorder recorder;

        RecordLatency(final Recorder recorder) {
            this.recorder = recorder;
        }

        @Override
        public void onEvent(final Request request, final long sequence, final boolean endOfBatch) {
            recorder.recordValue(System.nanoTime() - request.dueNanos);
        }
    }

    private LatencyRecordingExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional: seconds to run (default 3), events per second (default 50,000), and
     *     the log file (default a temporary file)
     * @throws Exception if the log cannot be written
     */
    public static void main(final String[] args) throws Exception {
        final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        final long rate = args.length > 1 ? Long.parseLong(args[1].replace("_", "")) : 50_000;
        final Path log = args.length > 2 ? Path.of(args[2]) : Files.createTempFile("slipstream-latency", ".hlog");
        final Histogram total = run(Duration.ofSeconds(seconds), rate, Duration.ofMillis(500), log, System.out);
        System.out.printf("whole run: %,d events, p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us%n",
                total.getTotalCount(), total.getValueAtPercentile(50) / 1e3, total.getValueAtPercentile(99) / 1e3,
                total.getValueAtPercentile(99.9) / 1e3, total.getMaxValue() / 1e3);
        System.out.println("interval log: " + log);
    }

    /**
     * Publishes paced events for {@code duration}, logging an interval histogram every {@code interval}.
     *
     * @return the sum of all intervals
     */
    static Histogram run(final Duration duration, final long ratePerSecond, final Duration interval,
                         final Path logFile, final PrintStream out) throws IOException {
        final Recorder recorder = new Recorder(3);
        final Histogram total = new Histogram(3);

        final Slipstream<Request> pipeline = Slipstream.builder(Request::new)
                .name("latency-demo").ringSize(8192).producers(ProducerType.SINGLE).build();
        pipeline.handleEventsWith(StageSpec.of("compute", new Compute()))
                .then(StageSpec.of("record", new RecordLatency(recorder)));

        final ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread thread = new Thread(r, "latency-reporter");
            thread.setDaemon(true);
            return thread;
        });
        try (PrintStream logStream = new PrintStream(Files.newOutputStream(logFile), true, "UTF-8")) {
            final HistogramLogWriter writer = new HistogramLogWriter(logStream);
            final long startMillis = System.currentTimeMillis();
            writer.outputLogFormatVersion();
            writer.outputStartTime(startMillis);
            writer.setBaseTime(startMillis);
            writer.outputLegend();
            // the reporter owns writer and total; runReport is also called once at the end, after
            // the reporter has stopped, so they are never used by two threads at once
            final Runnable report = new Runnable() {
                private Histogram recycled;

                @Override
                public void run() {
                    final Histogram h = recorder.getIntervalHistogram(recycled);
                    writer.outputIntervalHistogram(h);
                    total.add(h);
                    out.printf("  interval %5.1f s: %,7d events  p50 %7.1f us  p99 %7.1f us  max %8.1f us%n",
                            (h.getEndTimeStamp() - startMillis) / 1e3, h.getTotalCount(),
                            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3);
                    recycled = h;
                }
            };
            pipeline.start();
            reporter.scheduleAtFixedRate(report, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);

            final long events = duration.toNanos() * ratePerSecond / 1_000_000_000L;
            final long intervalNanos = 1_000_000_000L / ratePerSecond;
            final long start = System.nanoTime();
            for (long i = 0; i < events; i++) {
                final long due = start + i * intervalNanos;
                long now;
                while ((now = System.nanoTime()) < due) {
                    LockSupport.parkNanos(due - now);
                }
                final long sequence = pipeline.ringBuffer().next();
                final Request request = pipeline.ringBuffer().get(sequence);
                request.dueNanos = due;        // from the due time: stalls count against every delayed event
                request.payload = i;
                pipeline.ringBuffer().publish(sequence);
            }
            pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
            reporter.shutdown();
            try {
                if (!reporter.awaitTermination(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("latency reporter did not stop");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while stopping the reporter", e);
            }
            report.run();                      // the last, partial interval
        }
        return total;
    }
}
