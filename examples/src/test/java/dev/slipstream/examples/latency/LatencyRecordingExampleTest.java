package dev.slipstream.examples.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class LatencyRecordingExampleTest {

    @Test
    void everyEventIsRecordedOnceAndTheLogReadsBack(@TempDir final Path dir) throws Exception {
        final Path log = dir.resolve("latency.hlog");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        final Histogram total = LatencyRecordingExample.run(Duration.ofMillis(500), 10_000, Duration.ofMillis(100),
                log, new PrintStream(out, true, StandardCharsets.UTF_8));

        assertEquals(5_000, total.getTotalCount(), "500 ms at 10,000/s");
        long logged = 0;
        int intervals = 0;
        final HistogramLogReader reader = new HistogramLogReader(log.toFile());
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            logged += ((Histogram) h).getTotalCount();
            intervals++;
        }
        assertEquals(5_000, logged, "the intervals in the log add up to every event");
        assertTrue(intervals >= 2, "several intervals were logged: " + intervals);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("interval"), out::toString);
    }
}
