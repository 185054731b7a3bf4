package dev.slipstream.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PipelineDemoTest {

    @Test
    void throughputPhaseDeliversEveryEventOnce() throws Exception {
        final PipelineDemo.Phase phase = PipelineDemo.runPhase(200_000, 0);

        assertTrue(phase.complete(), "sum " + phase.sum());
    }

    @Test
    void pacedPhaseRecordsOneLatencyPerEvent() throws Exception {
        final PipelineDemo.Phase phase = PipelineDemo.runPhase(2_000, 20_000);

        assertTrue(phase.complete(), "sum " + phase.sum());
        assertEquals(2_000, phase.latency().getTotalCount());
    }

    @Test
    void printsThroughputAndPercentiles() throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        final boolean ok = PipelineDemo.run(100_000, 1_000, 20_000, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        final String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(ok, out);
        assertTrue(out.contains("events/s") && out.contains("p99.99"), out);
    }

    @Test
    void refusesNonPositiveCounts() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PipelineDemo.run(0, 1, 1, System.out));
        assertEquals("events, latencyEvents and ratePerSecond must be positive, got 0, 1, 1", e.getMessage());
    }
}
