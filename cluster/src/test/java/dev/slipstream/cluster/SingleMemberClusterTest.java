package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands in, replies out, at most once, through a one-member cluster in this JVM. */
class SingleMemberClusterTest {
    @TempDir
    Path dir;

    @Test
    void everyCommandIsAppliedInOrderAndAnsweredOnce() {
        try (SingleMember cluster = new SingleMember(dir, 21100).start(Ledger::new)) {
            final Replies replies = new Replies();
            try (ClusterCommandClient client = cluster.client(1, replies)) {
                SingleMember.sendAll(client, SingleMember.range(1, 300));
            }
            assertEquals(300, replies.status.size());
            assertEquals(0, replies.repeated);
            for (long id = 1; id <= 300; id++) {
                assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(id), "status of " + id);
                assertEquals(id, replies.count.get(id), "the ledger's count after command " + id);
            }
            final Ledger ledger = cluster.ledger.get();
            assertEquals(300, ledger.published);
            assertEquals(300 * 301 / 2, ledger.sum);
        }
    }

    @Test
    void aCommandSentTwiceIsAppliedOnceAndTheSecondIsAnsweredAsDuplicate() {
        try (SingleMember cluster = new SingleMember(dir, 21110).start(Ledger::new)) {
            assertDuplicatesAreNotApplied(cluster);
        }
    }

    @Test
    void theDedupCheckCatchesAServiceWithoutDedup() {
        try (SingleMember cluster = new SingleMember(dir, 21120)) {
            final PipelineClusteredService<Amount> service = TestPipelines.service(Ledger::new, cluster.ledger);
            service.dedup = new DedupTable() {
                @Override
                int tryApply(final long clientId, final long correlationId, final long timestamp) {
                    return APPLY;  // the seeded bug: every command is applied, resends included
                }
            };
            cluster.start(service);
            assertThrows(AssertionError.class, () -> assertDuplicatesAreNotApplied(cluster));
        }
    }

    /** Sends (client 99, correlation 1) twice and (99, 2) once through a raw cluster client. */
    static void assertDuplicatesAreNotApplied(final SingleMember cluster) {
        final List<byte[]> egress = new ArrayList<>();
        final EgressListener listener = (sessionId, timestamp, buffer, offset, length, header) -> {
            final byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            egress.add(copy);
        };
        try (AeronCluster raw = AeronCluster.connect(new AeronCluster.Context()
                .aeronDirectoryName(cluster.clientDriver.directory())
                .ingressChannel("aeron:udp")
                .ingressEndpoints(cluster.config.clusterMembers().ingressEndpoints())
                .egressChannel("aeron:udp?endpoint=localhost:0")
                .egressListener(listener))) {
            final UnsafeBuffer command = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH + 8]);
            RawClient.hello(raw, 99, egress);
            for (final long correlationId : new long[] {1, 1, 2}) {
                command.putLong(CommandWireFormat.CLIENT_ID_OFFSET, 99);
                command.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, correlationId);
                command.putLong(CommandWireFormat.COMMAND_HEADER_LENGTH, 1000);
                Await.until("the command to be offered", SingleMember.LIMIT, raw::pollEgress,
                        () -> raw.offer(command, 0, command.capacity()) > 0);
            }
            Await.until("three replies", SingleMember.LIMIT, raw::pollEgress, () -> egress.size() >= 3);
        }
        final List<String> seen = new ArrayList<>();
        for (final byte[] reply : egress) {
            final UnsafeBuffer b = new UnsafeBuffer(reply);
            seen.add(b.getLong(CommandWireFormat.REPLY_CORRELATION_ID_OFFSET) + ":"
                    + b.getByte(CommandWireFormat.REPLY_STATUS_OFFSET));
        }
        // the duplicate's answer comes from the service thread, possibly before the first reply
        seen.sort(null);
        assertEquals(List.of("1:0", "1:1", "2:0"), seen, "replies as correlation:status");
        assertEquals(2, cluster.ledger.get().published, "commands applied");
        assertEquals(2000, cluster.ledger.get().sum);
    }

    @Test
    void aCommandShorterThanItsHeaderIsRefusedWithTheReason() {
        try (SingleMember cluster = new SingleMember(dir, 21130).start(Ledger::new)) {
            final List<String> reasons = new ArrayList<>();
            final EgressListener listener = (sessionId, timestamp, buffer, offset, length, header) -> {
                assertEquals(CommandWireFormat.STATUS_REFUSED, buffer.getByte(offset + CommandWireFormat.REPLY_STATUS_OFFSET));
                reasons.add(buffer.getStringWithoutLengthAscii(offset + CommandWireFormat.REPLY_HEADER_LENGTH,
                        length - CommandWireFormat.REPLY_HEADER_LENGTH));
            };
            try (AeronCluster raw = AeronCluster.connect(new AeronCluster.Context()
                    .aeronDirectoryName(cluster.clientDriver.directory())
                    .ingressChannel("aeron:udp")
                    .ingressEndpoints(cluster.config.clusterMembers().ingressEndpoints())
                    .egressChannel("aeron:udp?endpoint=localhost:0")
                    .egressListener(listener))) {
                final UnsafeBuffer shortCommand = new UnsafeBuffer(new byte[5]);
                Await.until("the command to be offered", SingleMember.LIMIT, raw::pollEgress,
                        () -> raw.offer(shortCommand, 0, 5) > 0);
                Await.until("the refusal", SingleMember.LIMIT, raw::pollEgress, () -> !reasons.isEmpty());
            }
            assertTrue(reasons.get(0).contains("shorter than its header"), reasons.get(0));
            assertEquals(0, cluster.ledger.get().published);
        }
    }
}
