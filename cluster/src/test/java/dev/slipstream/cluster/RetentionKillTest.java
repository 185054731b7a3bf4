package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three member processes with periodic snapshots and purging ({@link MemberProcess} mode
 * {@code retention}): a follower SIGKILLed once its log's first segments are purged, started
 * again on its directory, loads its latest snapshot (the log below it is gone) and reaches the
 * same ledger as the others.
 */
class RetentionKillTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aFollowerKilledAfterAPurgeRestartsFromItsLatestSnapshotWithTheOthersState() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir, 28740, 3, "retention");
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            try (ClusterCommandClient client = cluster.connect(driver, new Replies(), LIMIT)) {
                final int leader = client.leaderMemberId();
                final int follower = (leader + 1) % 3;
                long next = 1;
                final long deadline = System.nanoTime() + LIMIT.toNanos();
                while (Long.parseLong(cluster.ask(follower, "log-start", "LOG-START")) <= 0) {
                    assertTrue(System.nanoTime() - deadline < 0, "member " + follower + " purged nothing in " + LIMIT);
                    SingleMember.sendAll(client, SingleMember.range(next, 2_000));
                    next += 2_000;
                }
                System.out.println("retention kill: member " + follower + "'s log starts at "
                        + cluster.ask(follower, "log-start", "LOG-START") + " after " + (next - 1) + " commands; SIGKILL");
                cluster.kill(follower);
                SingleMember.sendAll(client, SingleMember.range(next, 100));
                next += 100;
                cluster.start(follower);
                SingleMember.sendAll(client, SingleMember.range(next, 100));
                next += 100;
                final long commands = next - 1;
                final String expected = cluster.awaitAnswer(leader, "digest", "DIGEST",
                        digest -> digest.startsWith(commands + "/"), LIMIT);
                for (int m = 0; m < 3; m++) {
                    assertEquals(expected, cluster.awaitAnswer(m, "digest", "DIGEST", expected::equals, LIMIT),
                            "member " + m + "'s ledger");
                }
                System.out.println("retention kill: every member's ledger " + expected + "; member " + follower
                        + "'s log starts at " + cluster.ask(follower, "log-start", "LOG-START"));
                assertTrue(Long.parseLong(cluster.ask(follower, "log-start", "LOG-START")) > 0,
                        "the restarted member's log starts after 0, so it started from a snapshot");
            }
        }
    }
}
