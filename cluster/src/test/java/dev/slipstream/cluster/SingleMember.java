package dev.slipstream.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.agrona.concurrent.UnsafeBuffer;

/** A one-member cluster in this JVM, with a client driver, for the in-process tests. */
final class SingleMember implements AutoCloseable {
    static final Duration LIMIT = Duration.ofSeconds(60);
    final Path dir;
    final MemberConfig config;
    final ClientDriver clientDriver;
    final AtomicReference<Ledger> ledger = new AtomicReference<>();
    PipelineClusteredService<Amount> service;
    ClusterMember member;

    SingleMember(final Path dir, final int basePort) {
        this.dir = dir;
        this.config = new MemberConfig(0, List.of("localhost:" + basePort), dir.resolve("member-0"),
                Duration.ofSeconds(10), Duration.ofSeconds(60));
        this.clientDriver = new ClientDriver(dir.resolve("client-driver"));
    }

    SingleMember start(final Supplier<? extends Ledger> ledgers) {
        return start(TestPipelines.service(ledgers, ledger));
    }

    SingleMember start(final PipelineClusteredService<Amount> clusteredService) {
        return start(clusteredService, clusteredService);
    }

    /** Starts the member with {@code container} (which wraps {@code clusteredService}) in its container. */
    SingleMember start(final PipelineClusteredService<Amount> clusteredService,
            final io.aeron.cluster.service.ClusteredService container) {
        this.service = clusteredService;
        this.member = ClusterMember.start(config, container);
        return this;
    }

    void stop() {
        member.close();
        member = null;
    }

    ClusterCommandClient client(final long clientId, final ReplyListener listener) {
        return ClusterCommandClient.connect(new ClusterCommandClient.Context()
                .aeronDirectoryName(clientDriver.directory())
                .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                .clientId(clientId)
                // no failovers here: a re-send after a slow replay would be answered as a
                // duplicate before the original's answer, which these tests read
                .resendAfterNs(java.util.concurrent.TimeUnit.SECONDS.toNanos(60))
                .replyListener(listener));
    }

    /** Sends one amount per value and waits for every reply. */
    static void sendAll(final ClusterCommandClient client, final long... values) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
        for (final long value : values) {
            payload.putLong(0, value);
            Await.until("room to send", LIMIT, client::poll, () -> client.trySend(payload, 0, Long.BYTES) > 0);
        }
        Await.until("every reply", LIMIT, client::poll, () -> client.inFlight() == 0);
    }

    static long[] range(final long from, final int n) {
        final long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = from + i;
        }
        return values;
    }

    /** Waits for a snapshot to be taken. */
    void snapshot() {
        final long before = member.snapshotCount();
        Await.until("the snapshot request to be placed", LIMIT, () -> { }, member::requestSnapshot);
        Await.until("the snapshot", LIMIT, () -> { }, () -> member.snapshotCount() > before);
    }

    @Override
    public void close() {
        if (member != null) {
            member.close();
        }
        clientDriver.close();
    }
}
