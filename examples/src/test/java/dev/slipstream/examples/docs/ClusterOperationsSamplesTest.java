package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.cluster.RetentionPolicy;
import dev.slipstream.cluster.SharedSecretAuthenticator;
import dev.slipstream.topology.StageSpec;
import io.aeron.cluster.service.Cluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java sample of docs/guide/cluster-operations.md, as written there: a member started with a retention policy. */
class ClusterOperationsSamplesTest {
    @Test
    void aMemberStartsWithARetentionPolicy(@TempDir final Path dir) throws Exception {
        final PipelineClusteredService<long[]> service = PipelineClusteredService.builder(() -> new long[1])
                .ingress((buffer, offset, length, into) -> into[0] = buffer.getLong(offset))
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith(
                        StageSpec.<ClusterCommand<long[]>>of("count", (command, sequence, endOfBatch) -> { })))
                .build();
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:28640"), dir.resolve("member-0"));
        final SharedSecretAuthenticator authenticator = new SharedSecretAuthenticator(
                "a shared secret of the samples".getBytes(StandardCharsets.US_ASCII));

        RetentionPolicy retention = RetentionPolicy.NONE
                .withSnapshotEvery(256L << 20, Duration.ofMinutes(10))   // 256 MiB of log or 10 minutes
                .keeping(2);
        ClusterMember member = ClusterMember.start(config, service, authenticator, retention);

        try (member) {
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (member.role() != Cluster.Role.LEADER) {
                assertTrue(System.nanoTime() - deadline < 0, "no leader within 60 s: " + member.status());
                Thread.sleep(10);
            }
            assertEquals(retention, member.retention());
            assertEquals(256L << 20, member.retention().snapshotLogBytes());
            assertEquals(2, member.retention().snapshotsKept());
        }
    }
}
