package dev.slipstream.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.CommandWireFormat;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.topology.StageSpec;
import io.aeron.cluster.service.Cluster;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClusterMemberMetrics} on a one-member cluster in this JVM: after commands, one of them
 * rejected, and a snapshot, every meter reads what the member's status says; once the member is
 * closed, each reads NaN and {@code running} 0.
 */
class ClusterMemberMetricsTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    /** An amount the validating stage throws for. */
    private static final long POISON = -1;

    @TempDir
    Path dir;

    /** The amount a command carries; one per ring slot. */
    private static final class Amount {
        long value;
    }

    private static PipelineClusteredService<Amount> service() {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .pipeline((pipeline, outbox, states) -> pipeline
                        .handleEventsWith(StageSpec.of("validate", (command, sequence, endOfBatch) -> {
                            if (command.payload().value == POISON) {
                                throw new IllegalArgumentException("no account " + POISON);
                            }
                        }))
                        .then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
                                outbox.reply(command, (buffer, offset, amount) -> {
                                    buffer.putLong(offset, amount.value);
                                    return Long.BYTES;
                                }, command.payload()))))
                .build();
    }

    @Test
    void everyMeterReadsTheMembersStatus() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:27700"), dir.resolve("member-0"));
        final MeterRegistry registry = new SimpleMeterRegistry();
        final ClusterMember member = ClusterMember.start(config, service());
        try (MediaDriver clientDriver = clientDriver()) {
            new ClusterMemberMetrics(member, Tags.of("service", "ledger")).bindTo(registry);
            await("the member to lead", () -> member.role() == Cluster.Role.LEADER);
            assertEquals(2.0, gauge(registry, "slipstream.cluster.role"), "leader");

            final Map<Long, Byte> answers = new ConcurrentHashMap<>();
            try (ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(clientDriver.aeronDirectoryName())
                    .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                    .clientId(7)
                    .replyListener((correlationId, status, buffer, offset, length) ->
                            answers.put(correlationId, status)))) {
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
                for (long i = 1; i <= 20; i++) {
                    payload.putLong(0, i == 10 ? POISON : i);
                    await("room to send", () -> client.poll() >= 0 && client.trySend(payload, 0, Long.BYTES) > 0);
                }
                await("every answer", () -> client.poll() >= 0 && client.inFlight() == 0);
                assertEquals(20, answers.size());
                assertEquals(CommandWireFormat.STATUS_REJECTED, answers.get(10L));

                await("the snapshot request to be placed", member::requestSnapshot);
                await("the snapshot", () -> member.snapshotCount() == 1);

                assertEquals(1.0, gauge(registry, "slipstream.cluster.running"));
                assertEquals(0.0, gauge(registry, "slipstream.cluster.leader"));
                assertTrue(gauge(registry, "slipstream.cluster.leadership.term") >= 0);
                assertTrue(gauge(registry, "slipstream.cluster.commit.position") > 0);
                assertEquals(1.0, registry.get("slipstream.cluster.snapshots").tags("member", "0")
                        .functionCounter().count());
                // one member: one election, the one that made it leader
                assertEquals(1.0, registry.get("slipstream.cluster.elections").tags("member", "0")
                        .functionCounter().count());
                final double seconds = registry.get("slipstream.cluster.snapshot.last.duration").tags("member", "0")
                        .timeGauge().value(TimeUnit.SECONDS);
                assertTrue(seconds > 0 && seconds < LIMIT.toSeconds(), seconds + " s");
                assertEquals(1.0, gauge(registry, "slipstream.cluster.clients"));
                assertEquals(1.0, gauge(registry, "slipstream.cluster.sessions"));
                await("the outbox to empty", () -> gauge(registry, "slipstream.cluster.outbox.backlog") == 0);
                assertEquals(1.0, registry.get("slipstream.cluster.commands.rejected").tags("member", "0")
                        .functionCounter().count());
                assertEquals(0.0, registry.get("slipstream.cluster.replies.undeliverable").tags("member", "0")
                        .functionCounter().count());
                assertEquals("ledger", registry.get("slipstream.cluster.role").gauge().getId().getTag("service"));
                // measured about once a second; this member purges nothing, so where its log starts is not known
                await("the archive measured", () -> gauge(registry, "slipstream.cluster.archive.size") > 0);
                assertTrue(Double.isNaN(gauge(registry, "slipstream.cluster.log.start.position")),
                        "not known without purging");
                assertEquals(15, registry.getMeters().stream()
                        .filter(meter -> meter.getId().getName().startsWith("slipstream.cluster.")).count());
            }
        } finally {
            member.close();
        }
        assertEquals(0.0, gauge(registry, "slipstream.cluster.running"), "closed");
        assertTrue(Double.isNaN(gauge(registry, "slipstream.cluster.role")), "closed: no role");
        assertTrue(Double.isNaN(registry.get("slipstream.cluster.snapshots").functionCounter().count()));
        assertTrue(Double.isNaN(registry.get("slipstream.cluster.elections").functionCounter().count()));
        assertTrue(Double.isNaN(gauge(registry, "slipstream.cluster.archive.size")), "closed: not known");
        assertThrows(IllegalStateException.class, member::status);
    }

    private static double gauge(final MeterRegistry registry, final String name) {
        return registry.get(name).tags("member", "0").gauge().value();
    }

    private static void await(final String what, final BooleanSupplier done) {
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + LIMIT + " waiting for " + what);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** A media driver of the test's own for its client (never the member's). */
    private MediaDriver clientDriver() {
        return MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(dir.resolve("client-driver").toAbsolutePath().toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MILLISECONDS.toNanos(1)))
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
    }
}
