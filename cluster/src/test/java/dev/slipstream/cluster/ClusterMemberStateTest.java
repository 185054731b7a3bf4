package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.Cluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a member answers in each state: running, closed; and what a member that does not lead says
 * when asked for a snapshot. ({@link ClusterMemberSafetyTest} covers a member that stopped.)
 */
class ClusterMemberStateTest {
    @TempDir
    Path dir;

    @Test
    void aHealthyMemberRunsWithNoFailureAndTakesASnapshotWhenItLeads() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:23350"), dir.resolve("m"));
        final ClusterMember member = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()));
        try {
            Await.until("the member to lead", SingleMember.LIMIT, () -> { },
                    () -> member.role() == Cluster.Role.LEADER);
            assertTrue(member.isRunning());
            assertEquals(Optional.empty(), member.failure());
            assertEquals(0, member.snapshotCount());
            Await.until("the snapshot request to be placed", SingleMember.LIMIT, () -> { }, member::requestSnapshot);
            Await.until("the snapshot", SingleMember.LIMIT, () -> { }, () -> member.snapshotCount() == 1);
            assertTrue(member.isRunning());
            assertEquals(Optional.empty(), member.failure());
        } finally {
            member.close();
        }
        assertFalse(member.isRunning());
        assertEquals(Optional.empty(), member.failure(), "errors reported while closing are not failures");
        assertEquals(config, member.config());
        final List<Supplier<Object>> refused = List.of(member::role, member::snapshotCount, member::requestSnapshot,
                member::consensusModuleContext);
        for (final Supplier<Object> call : refused) {
            assertEquals("cluster member 0 is closed",
                    assertThrows(IllegalStateException.class, call::get).getMessage());
        }
        member.close();  // idempotent
        assertFalse(member.isRunning());
    }

    @Test
    void aFollowerAskedForASnapshotNamesItsRoleAndTheLeaderToAsk() {
        assertEquals("cluster member 1 is a follower, and only the leader acts on a snapshot request: ask the "
                + "leader, member 2", ClusterMember.notLeaderMessage(1, Cluster.Role.FOLLOWER, 2));
        assertEquals("cluster member 1 is a candidate, and only the leader acts on a snapshot request: no leader is "
                + "known to this member yet; ask again once an election has chosen one",
                ClusterMember.notLeaderMessage(1, Cluster.Role.CANDIDATE, -1));
        assertEquals("cluster member 1 is a follower, and only the leader acts on a snapshot request: this member led "
                + "the latest term but leads no longer; ask again once an election has chosen the next leader",
                ClusterMember.notLeaderMessage(1, Cluster.Role.FOLLOWER, 1));
    }
}
