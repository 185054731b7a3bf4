package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.MemberStatus;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.micrometer.ClusterMemberMetrics;
import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.monitor.StageBacklogEvent;
import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.monitor.StageStallEvent;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import io.aeron.cluster.service.Cluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void clusterMemberStatusAndMeters(@TempDir final Path dir) throws Exception {
        final PipelineClusteredService<long[]> service = PipelineClusteredService.builder(() -> new long[1])
                .ingress((buffer, offset, length, into) -> into[0] = buffer.getLong(offset))
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith(
                        StageSpec.<ClusterCommand<long[]>>of("count", (command, sequence, endOfBatch) -> { })))
                .build();
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:27640"), dir.resolve("member-0"));
        final MeterRegistry registry = new SimpleMeterRegistry();
        final ClusterMember member = ClusterMember.start(config, service);
        try {
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // the consensus module says LEADER first; the service hears of the new term just after
            while (member.role() != Cluster.Role.LEADER || member.status().leaderMemberId() != 0) {
                assertTrue(System.nanoTime() - deadline < 0, "no leader within 60 s: " + member.status());
                Thread.sleep(10);
            }
            MemberStatus status = member.status();      // one read, from any thread; throws only once closed
            System.out.println(status);
            if (!status.running()) {
                alert(status.toString());                // says why: its failure, if an error stopped it
            } else if (status.outboxBacklog() > 512) {
                alert("member " + status.memberId() + ": replies are piling up");
            }
            assertTrue(alerted == null, alerted);
            assertTrue(status.toString().startsWith("member 0: LEADER, running; leader 0, term 0, "),
                    status.toString());

            new ClusterMemberMetrics(member, Tags.of("service", "ledger")).bindTo(registry);
            assertEquals(2.0, registry.get("slipstream.cluster.role").tags("member", "0", "service", "ledger")
                    .gauge().value());
            assertEquals(1.0, registry.get("slipstream.cluster.running").gauge().value());
        } finally {
            member.close();
        }
        assertEquals("cluster member 0 is closed", assertThrows(IllegalStateException.class, member::status)
                .getMessage());
        assertEquals(0.0, registry.get("slipstream.cluster.running").gauge().value());
    }
}
