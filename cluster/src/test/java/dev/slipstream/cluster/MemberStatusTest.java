package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.Counter;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusterCounters;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClusterMember#status()} on a one-member cluster: every figure after commands, a rejected
 * one and a snapshot; answers once the member has stopped; refused once it is closed, also while
 * another thread reads it in a loop.
 */
class MemberStatusTest {
    @TempDir
    Path dir;

    @Test
    void aLeaderThatAppliedCommandsAndTookASnapshotShowsEveryFigure() {
        try (SingleMember cluster = new SingleMember(dir, 27600)) {
            cluster.start(TestPipelines.validating(Ledger::new, cluster.ledger, 0, CommandFailurePolicy.REJECT));
            final MemberStatus starting = cluster.member.status();
            assertEquals(0, starting.memberId());
            assertEquals(Optional.empty(), starting.failure());
            assertEquals(-1, starting.lastSnapshotNanos(), "no snapshot yet");

            final Replies replies = new Replies();
            try (ClusterCommandClient client = cluster.client(42, replies)) {
                final long[] amounts = SingleMember.range(1, 50);
                amounts[24] = TestPipelines.POISON;
                SingleMember.sendAll(client, amounts);
                assertEquals(CommandWireFormat.STATUS_REJECTED, replies.status.get(25L), "the poison is rejected");
                cluster.snapshot();

                final MemberStatus status = cluster.member.status();
                assertTrue(status.running(), status.toString());
                assertEquals(Optional.empty(), status.failure());
                assertEquals(Cluster.Role.LEADER, status.role());
                assertEquals(2, status.roleCode());
                assertEquals(0, status.leaderMemberId());
                assertTrue(status.leadershipTermId() >= 0, status.toString());
                assertTrue(status.commitPosition() > 0, status.toString());
                assertEquals(1, status.snapshotCount());
                assertTrue(status.lastSnapshotNanos() > 0, status.toString());
                assertEquals(1, status.clientsRemembered());
                assertEquals(1, status.sessionsBound());
                assertEquals(1, status.rejectedCommands());
                assertEquals(0, status.undeliverableReplies());
                Await.until("the outbox to empty", SingleMember.LIMIT, client::poll,
                        () -> cluster.member.status().outboxBacklog() == 0);
                assertTrue(status.toString().startsWith("member 0: LEADER, running; leader 0, term "),
                        status.toString());
                assertTrue(status.toString().contains("; 1 snapshot (last "), status.toString());
                assertTrue(status.toString().endsWith("; 1 client, 1 session; outbox backlog "
                        + status.outboxBacklog() + "; 1 command rejected, 0 replies undeliverable; archive "
                        + status.archiveBytes() + " bytes, log from -1"), status.toString());
                assertEquals(-1, status.logStartPosition(), "not known: this member purges nothing");
                // measured about once a second: the log's segment and the snapshot's recordings
                Await.until("the archive measured", SingleMember.LIMIT, client::poll,
                        () -> cluster.member.status().archiveBytes() > 0);
                // the consensus module's commit-position counter, the one found by its type id
                final ConsensusModule.Context context = cluster.member.consensusModuleContext();
                assertEquals(context.commitPositionCounter().id(), ClusterCounters.find(
                        context.aeron().countersReader(), ConsensusModule.Configuration.COMMIT_POSITION_TYPE_ID,
                        context.clusterId()));
                final long now = context.commitPositionCounter().get();
                assertTrue(status.commitPosition() <= now, status.commitPosition() + " then " + now
                        + " (the reply timer's events are appended to the log meanwhile)");
            }
            Await.until("the session to close", SingleMember.LIMIT, () -> { },
                    () -> cluster.member.status().sessionsBound() == 0);
            assertEquals(1, cluster.member.status().clientsRemembered(), "a client is remembered after it leaves");

            final ClusterMember member = cluster.member;
            cluster.stop();
            final IllegalStateException closed = assertThrows(IllegalStateException.class, member::status);
            assertEquals("cluster member 0 is closed", closed.getMessage());
        }
    }

    @Test
    void aStoppedMemberStillAnswersWithItsFailureAndAClosedOneRefusesWhileAnotherThreadReads() throws Exception {
        try (SingleMember cluster = new SingleMember(dir, 27610)) {
            cluster.start(TestPipelines.validating(Ledger::new, cluster.ledger, 0, CommandFailurePolicy.REJECT));
            final ClusterMember member = cluster.member;
            try (ClusterCommandClient client = cluster.client(42, new Replies())) {
                SingleMember.sendAll(client, 1, 2, 3);
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
                payload.putLong(0, TestPipelines.ERROR_BASE);  // an Error on member 0: it stops
                Await.until("room to send", SingleMember.LIMIT, client::poll,
                        () -> client.trySend(payload, 0, Long.BYTES) > 0);
                Await.until("the member to stop", SingleMember.LIMIT, client::poll, () -> !member.isRunning());
            }
            final MemberStatus stopped = member.status();
            assertFalse(stopped.running(), stopped.toString());
            assertTrue(stopped.failure().isPresent(), stopped.toString());
            assertEquals(member.failure(), stopped.failure());
            assertEquals(0, stopped.leaderMemberId(), "the service's figures are the last it published");
            assertEquals(1, stopped.clientsRemembered());
            assertTrue(stopped.toString().startsWith("member 0: "), stopped.toString());
            assertTrue(stopped.toString().contains(", stopped ("), stopped.toString());

            // a health thread reads the status in a loop while the member is closed
            final AtomicBoolean done = new AtomicBoolean();
            final AtomicLong answers = new AtomicLong();
            final CopyOnWriteArrayList<Throwable> unexpected = new CopyOnWriteArrayList<>();
            final AtomicReference<String> refusal = new AtomicReference<>();
            final Thread health = new Thread(() -> {
                while (!done.get()) {
                    try {
                        member.status();
                        answers.incrementAndGet();
                    } catch (final IllegalStateException e) {
                        refusal.set(e.getMessage());
                    } catch (final Throwable e) {
                        unexpected.add(e);
                    }
                }
            }, "health");
            health.start();
            Await.until("a few answers", SingleMember.LIMIT, () -> { }, () -> answers.get() > 10);
            cluster.stop();
            Await.until("a refusal", SingleMember.LIMIT, () -> { }, () -> refusal.get() != null);
            done.set(true);
            health.join();
            assertEquals("cluster member 0 is closed", refusal.get());
            assertTrue(unexpected.isEmpty(), unexpected.toString());
        }
    }

    @Test
    void aMemberWhoseClusterWasShutDownAnswersMinusOneForTheCountersItsConsensusModuleFreed() {
        try (SingleMember cluster = new SingleMember(dir, 27620)) {
            cluster.start(Ledger::new);
            final ClusterMember member = cluster.member;
            Await.until("the member to lead", SingleMember.LIMIT, () -> { },
                    () -> member.status().role() == Cluster.Role.LEADER);
            // what ClusterTool's shutdown command does: a snapshot, then every part stops
            final Counter toggle = member.consensusModuleContext().controlToggleCounter();
            Await.until("the shutdown toggle to be set", SingleMember.LIMIT, () -> { },
                    () -> ClusterControl.ToggleState.SHUTDOWN.toggle(toggle));
            Await.until("the consensus module to close", SingleMember.LIMIT, () -> { },
                    () -> member.status().commitPosition() == -1);
            final MemberStatus status = member.status();
            assertFalse(status.running(), status.toString());
            assertEquals(Optional.empty(), status.failure(), "a shutdown on purpose is no failure");
            assertEquals(null, status.role());
            assertEquals(MemberStatus.ROLE_UNKNOWN, status.roleCode());
            assertEquals(-1, status.snapshotCount());
            assertTrue(status.lastSnapshotNanos() > 0, "the service took the shutdown's snapshot: " + status);
            assertTrue(status.toString().startsWith("member 0: role unknown, stopped; leader 0, term 0, "
                    + "commit position -1; -1 snapshots (last "), status.toString());
        }
    }
}
