package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.monitor.StageBacklogEvent;
import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.monitor.StageStallEvent;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/monitoring.md, as written there. */
class MonitoringSamplesTest {
    private String alerted;

    private void alert(final String message) {
        alerted = message;
    }

    @Test
    void metricsGetters() throws Exception {
        final Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("orders").build();
        pipeline.handleEventsWith(StageSpec.of("journal", Support.<Order>counting(new AtomicLong())));
        pipeline.start();
        PipelineMetrics metrics = pipeline.metrics();
        System.out.printf("ring %s: cursor %d, %d of %d slots free%n", metrics.pipelineName(),
                metrics.cursor(), metrics.remainingCapacity(), metrics.bufferSize());
        for (StageMetrics stage : metrics.stages()) {        // upstream before downstream
            System.out.printf("  %-12s seq %d  lag %d  events %d  batches %d  errors %d%n",
                    stage.stageName(), stage.sequence(), stage.lag(), stage.eventsProcessed(),
                    stage.batchesProcessed(), stage.exceptionsHandled());
        }
        StageMetrics journal = metrics.stage("journal");
        if (journal.lag() > metrics.bufferSize() / 2) {
            alert("journal is falling behind");
        }
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
        assertTrue(alerted == null);
    }

    @Test
    void jfrRecording() throws Exception {
        try {
            try (Recording recording = new Recording()) {
                recording.enable(StageBacklogEvent.NAME).withPeriod(Duration.ofMillis(100));
                recording.enable(StageStallEvent.NAME).withPeriod(Duration.ofMillis(200));
                recording.start();
                // ... run the pipeline ...
                recording.dump(Path.of("pipeline.jfr"));
            }
            assertTrue(Files.size(Path.of("pipeline.jfr")) > 0);
        } finally {
            Files.deleteIfExists(Path.of("pipeline.jfr"));
        }
    }
}
