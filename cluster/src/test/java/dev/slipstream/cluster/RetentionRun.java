package dev.slipstream.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The retention bound over a longer run, for {@code benchmarks/scripts/retention.sh}: three
 * members in this JVM with periodic snapshots and purging, a client at a steady rate, and after
 * each snapshot one line per member with its archive's size, where its log starts, and the bound
 * (twice the latest snapshot plus the log since the snapshot before it, both measured from its
 * files and its recording log, once its purge after that snapshot is done); the run fails if a
 * member's archive ever exceeds its bound from its third snapshot on (before that there is
 * nothing to purge: the log from position 0 is still needed).
 *
 * <p>Arguments: directory, base port, snapshots to run to, commands per second, log bytes between
 * snapshots, segment length, and {@code quick} (a 1 MiB log term so that a short run purges) or
 * {@code full} (the member's own 8 MiB log term).
 */
public final class RetentionRun {
    private RetentionRun() {
    }

    public static void main(final String[] args) throws Exception {
        final Path dir = Path.of(args[0]);
        final int basePort = Integer.parseInt(args[1]);
        final int snapshots = Integer.parseInt(args[2]);
        final int rate = Integer.parseInt(args[3]);
        final long logBytes = Long.parseLong(args[4]);
        final int segment = Integer.parseInt(args[5]);
        if ("quick".equals(args[6])) {
            ClusterMember.logTermLengthForTests = "1m";
        }
        final RetentionPolicy policy = RetentionPolicy.NONE.withSnapshotEvery(logBytes, Duration.ZERO).keeping(2)
                .withSegmentLength(segment);
        final List<String> endpoints = List.of("localhost:" + basePort, "localhost:" + (basePort + 10),
                "localhost:" + (basePort + 20));
        final List<ClusterMember> members = new ArrayList<>();
        final ClientDriver clientDriver = new ClientDriver(dir.resolve("client-driver"));
        int exceeded = 0;
        try {
            for (int id = 0; id < 3; id++) {
                members.add(ClusterMember.start(new MemberConfig(id, endpoints, dir.resolve("member-" + id),
                        Duration.ofSeconds(5), Duration.ofSeconds(60)),
                        TestPipelines.service(Ledger::new, new AtomicReference<>()), null, policy));
            }
            System.out.printf(Locale.ROOT, "# retention run: %s, %d snapshots, %d commands/s of 1000 bytes, snapshot"
                    + " every %d log bytes, segment %d, keeping 2%n", args[6], snapshots, rate, logBytes, segment);
            System.out.println("# member snapshot commit_position log_start archive_bytes bound");
            try (ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(clientDriver.directory())
                    .ingressEndpoints(ClusterMembers.parse(endpoints).ingressEndpoints())
                    .clientId(1)
                    .resendAfterNs(TimeUnit.SECONDS.toNanos(60))
                    // keeps nothing per reply: a run of millions of commands must not fill the heap
                    .replyListener((correlationId, replyStatus, buffer, offset, length) -> { }))) {
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[1000]);
                final long[] seen = new long[3];
                final long intervalNs = TimeUnit.SECONDS.toNanos(1) / rate;
                long next = System.nanoTime();
                long value = 1;
                while (members.stream().anyMatch(m -> m.snapshotCount() < snapshots)) {
                    while (System.nanoTime() - next < 0) {
                        client.poll();
                        LockSupport.parkNanos(50_000);
                    }
                    payload.putLong(0, value);
                    while (client.trySend(payload, 0, payload.capacity()) <= 0) {
                        client.poll();
                    }
                    value++;
                    next += intervalNs;
                    client.poll();
                    for (int id = 0; id < 3; id++) {
                        final ClusterMember member = members.get(id);
                        final long count = member.snapshotCount();
                        if (count != seen[id] && member.status().logStartPosition() >= 0) {
                            seen[id] = count;
                            // the purge after this snapshot runs on the member's retention thread, and the
                            // consensus module then forgets the purged snapshots: measure once both are done
                            final long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                            while (RetentionTest.measure(id, member.config().baseDir(), 0).validSnapshotEntries()
                                    > 2 * policy.snapshotsKept() && System.nanoTime() - waitUntil < 0) {
                                client.poll();
                                Thread.sleep(Retention.TICK_MS);
                            }
                            final MemberStatus status = member.status();
                            final RetentionTest.Measure measure = RetentionTest.measure(id,
                                    member.config().baseDir(), status.commitPosition());
                            System.out.printf(Locale.ROOT, "%d %d %d %d %d %d%n", id, count, status.commitPosition(),
                                    status.logStartPosition(), measure.archiveBytes(), measure.bound());
                            // the bound holds once the first snapshot can be purged, with the log before it
                            if (count > policy.snapshotsKept() && measure.archiveBytes() > measure.bound()) {
                                exceeded++;
                            }
                        }
                    }
                }
            }
        } finally {
            CloseHelper.quietCloseAll(members);
            clientDriver.close();
        }
        System.out.println("# archives over their bound: " + exceeded);
        System.exit(exceeded == 0 ? 0 : 1);
    }
}
