package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members as separate processes under a steady stream of commands; the leader is killed
 * with SIGKILL mid-stream, or cut off the network ({@link Partition}: every UDP frame it sends or
 * receives dropped), after the members applied commands whose answers they withhold, so that
 * committed commands are re-sent; the client goes on through the new leader; the dead member is
 * started again, or the cut one's network healed, and it catches up. Then: every command the
 * client saw acknowledged is in every member's state exactly once, and the members agree.
 * The members fail over fast ({@link MemberConfig#withFastFailover()}) and the client re-sends
 * on the members' failover time ({@link ClusterCommandClient.Context#resendAfterFailoverOf}).
 * {@code -Dslipstream.cluster.kills=N} sets the number of kills (one by default; the
 * {@code cluster-long} profile runs 20). Each run prints how long the client waited for its
 * first answer after each fault (the failover time as the client sees it; indicative only, the
 * tests run beside other work; {@code benchmarks/scripts/failover.sh} measures it). A client
 * whose re-send timer is far longer than the test still gets every answer soon after a kill:
 * it re-sends on the new leader's event. Every build runs the kill and the re-send on the new
 * leader's event; {@code -Pstress} adds the network cut, the idle client, the restart of all
 * members from a snapshot and the seeded-bug proofs.
 */
class FailoverTest {
    private static final Duration LIMIT = Duration.ofMinutes(2);
    /**
     * The re-send tests' bound on the wait after the kill: well over a fast failover, well under
     * the client's re-send timer (a minute) and its message timeout (30 s), after which a session
     * that has not sent to the new leader is closed and connected again, which re-sends too.
     */
    private static final Duration AFTER_KILL = Duration.ofSeconds(10);
    /** Commands per kill; the members withhold the first answers of 100 to 110 of each round. */
    static final int PER_KILL = 150;

    @TempDir
    Path dir;

    /** What happens to the leader, and how the member comes back. */
    enum Fault {
        KILL("killed", "restarted"),
        PARTITION("cut off the network", "healed");

        final String injected;
        final String repaired;

        Fault(final String injected, final String repaired) {
            this.injected = injected;
            this.repaired = repaired;
        }

        void inject(final ProcessCluster cluster, final int member) throws Exception {
            if (this == KILL) {
                cluster.kill(member);
            } else {
                cluster.ask(member, "partition", "PARTITIONED");
            }
        }

        void repair(final ProcessCluster cluster, final int member) throws Exception {
            if (this == KILL) {
                cluster.start(member);
            } else {
                cluster.ask(member, "heal", "HEALED");
            }
        }
    }

    @Test
    void killingTheLeaderMidStreamLosesNoAcknowledgedCommandAndAppliesNoneTwice() throws Exception {
        runFaults(28000, Integer.getInteger("slipstream.cluster.kills", 1), "withhold", Fault.KILL);
    }

    @Test
    @Tag("stress")
    void cuttingTheLeaderOffTheNetworkLosesNoAcknowledgedCommandAndTheHealedMemberCatchesUp() throws Exception {
        runFaults(28100, 1, "withhold", Fault.PARTITION);
    }

    @Test
    @Tag("stress")
    void theFailoverCheckCatchesMembersWithoutDedup() {
        // the withheld commands were committed; re-sent after the kill, they are applied again
        final AssertionError caught = assertThrows(AssertionError.class,
                () -> runFaults(28200, 1, "no-dedup", Fault.KILL));
        assertTrue(caught.getMessage().contains("holds every command once"),
                caught.getMessage());
    }

    @Test
    void aClientReSendsToTheNewLeaderWhenItHearsOfItNotOnItsTimer() throws Exception {
        final String log = killWithTheTimerOutOfReach(28250, true);
        System.out.println("re-sent on the new leader's event: " + log);
    }

    @Test
    @Tag("stress")
    void theReSendCheckCatchesAClientThatLeavesItsReSendsToTheTimer() {
        // the seeded bug: commands the dead leader never committed wait for a timer a minute away
        final AssertionError caught = assertThrows(AssertionError.class,
                () -> killWithTheTimerOutOfReach(28350, false));
        assertTrue(caught.getMessage().contains("every command answered within"),
                caught.getMessage());
    }

    @Test
    @Tag("stress")
    void anIdleClientKeepsItsSessionThroughAFailover() throws Exception {
        assertEquals(0, idleThroughAKill(28150, true), "reconnects");
    }

    @Test
    @Tag("stress")
    void theIdleCheckCatchesAClientThatSendsNothingToTheNewLeader() throws Exception {
        // the seeded bug: nothing reaches the new leader, and Aeron closes the session at its timeout
        assertEquals(1, idleThroughAKill(28150, false), "reconnects");
    }

    /**
     * A client with nothing to send when its leader is killed: it hears of the new leader, polls
     * on for twice its message timeout (2 s), then sends again; returns how many times it had to
     * connect again meanwhile.
     */
    private long idleThroughAKill(final int basePort, final boolean confirmsNewLeader) throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir.resolve("idle-" + confirmsNewLeader), basePort, 3,
                "plain", "fast");
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            final Replies replies = new Replies();
            try (ClusterCommandClient client = cluster.connect(driver, replies, LIMIT,
                    context -> context.messageTimeoutNs(TimeUnit.SECONDS.toNanos(2)))) {
                client.confirmsNewLeader = confirmsNewLeader;
                SingleMember.sendAll(client, SingleMember.range(1, 20));
                final int leader = client.leaderMemberId();
                cluster.kill(leader);
                Await.until("the new leader's event", LIMIT, client::poll,
                        () -> client.leaderMemberId() >= 0 && client.leaderMemberId() != leader);
                final long idleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
                Await.until("twice the message timeout", LIMIT, client::poll, () -> System.nanoTime() - idleUntil > 0);
                SingleMember.sendAll(client, SingleMember.range(21, 20));
                assertEquals(40, replies.status.size(), "every command answered");
                return client.reconnects();
            }
        }
    }

    /**
     * Sends 400 commands, one a millisecond, to fast-failover members, with the client's re-send
     * timer a minute away; kills the leader after 150 answers; expects every command answered
     * within {@link #AFTER_KILL} of the kill. Commands offered to the dead leader after its
     * last commit are answered only if the client re-sends them to the new leader.
     */
    private String killWithTheTimerOutOfReach(final int basePort, final boolean resendsOnNewLeader)
            throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir.resolve("timer-" + resendsOnNewLeader), basePort, 3,
                "plain", "fast");
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            final Replies replies = new Replies();
            try (ClusterCommandClient client = cluster.connect(driver, replies, LIMIT,
                    context -> context.limits(1024, Long.BYTES).resendAfterNs(TimeUnit.MINUTES.toNanos(1))
                            .messageTimeoutNs(TimeUnit.SECONDS.toNanos(30)))) {
                client.resendsOnNewLeader = resendsOnNewLeader;
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
                final int total = 400;
                long sent = 0;
                long killedAt = 0;
                long nextSend = System.nanoTime();
                long deadline = System.nanoTime() + LIMIT.toNanos();
                while (sent < total || client.inFlight() > 0) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("every command answered within " + (killedAt == 0 ? LIMIT
                                : AFTER_KILL) + (killedAt == 0 ? "" : " of the kill") + ": sent " + sent + ", answered "
                                + replies.status.size() + ", in flight " + client.inFlight() + ", re-sends "
                                + client.resends());
                    }
                    if (sent < total && System.nanoTime() - nextSend >= 0) {
                        payload.putLong(0, sent + 1);
                        if (client.trySend(payload, 0, Long.BYTES) > 0) {
                            sent++;
                            nextSend += TimeUnit.MILLISECONDS.toNanos(1);
                        }
                    }
                    client.poll();
                    if (killedAt == 0 && replies.status.size() >= 150) {
                        cluster.kill(client.leaderMemberId());
                        killedAt = System.nanoTime();
                        deadline = killedAt + AFTER_KILL.toNanos();
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                }
                assertEquals(total, replies.status.size(), "every command answered");
                assertEquals(0, replies.repeated, "no command answered twice");
                return "answered " + total + " commands " + (System.nanoTime() - killedAt) / 1_000_000
                        + " ms after the kill, re-sends " + client.resends();
            }
        }
    }

    private void runFaults(final int basePort, final int kills, final String mode, final Fault fault)
            throws Exception {
        final int perKill = PER_KILL;
        final int total = perKill * (kills + 1);
        try (ProcessCluster cluster = new ProcessCluster(dir.resolve(mode), basePort, 3, mode, "fast");
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            final Replies replies = new Replies();
            try (ClusterCommandClient client = connect(driver, cluster, replies)) {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
            long sent = 0;
            int killed = 0;
            int dead = -1;
            long restartAfter = Long.MAX_VALUE;
            long faultAt = 0;
            long sentAtFault = 0;
            final List<String> log = new ArrayList<>();
            final long deadline = System.nanoTime() + LIMIT.multipliedBy(kills + 1).toNanos();
            while (sent < total || client.inFlight() > 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("timed out: sent " + sent + ", answered " + replies.status.size()
                            + ", in flight " + client.inFlight() + ", events " + log);
                }
                if (sent < total) {
                    payload.putLong(0, sent + 1);
                    if (client.trySend(payload, 0, Long.BYTES) > 0) {
                        sent++;
                    }
                }
                client.poll();
                final int answered = replies.status.size();
                // after the round's withheld commands (100 to 110) were applied and left unanswered
                // correlation ids follow the order of sending: an id above those sent before the
                // fault is a command the new leader took and answered
                if (faultAt != 0 && replies.highest > sentAtFault) {
                    log.add("a command sent after the fault answered " + (System.nanoTime() - faultAt) / 1_000_000
                            + " ms after it");
                    faultAt = 0;
                }
                if (dead < 0 && killed < kills && answered >= perKill * killed + 130 - 11) {
                    final int leader = client.leaderMemberId();
                    fault.inject(cluster, leader);
                    faultAt = System.nanoTime();
                    sentAtFault = sent;
                    dead = leader;
                    killed++;
                    restartAfter = answered + 40;
                    log.add(fault.injected + ": leader " + leader + " at " + answered + " answered, " + sent + " sent");
                }
                // after the first answer to a command sent after the fault: the restart blocks this loop
                // for a second or two, which would count in the failover time the test prints
                if (dead >= 0 && answered >= restartAfter && faultAt == 0) {
                    fault.repair(cluster, dead);
                    log.add(fault.repaired + ": " + dead + " at " + answered + " answered, leader now "
                            + client.leaderMemberId());
                    dead = -1;
                }
            }
            if (dead >= 0) {
                fault.repair(cluster, dead);
            }
            assertEquals(total, replies.status.size(), "every command answered: " + log);
            assertEquals(0, replies.repeated, "no command answered twice");
            final long duplicates = replies.status.values().stream()
                    .filter(status -> status == CommandWireFormat.STATUS_DUPLICATE).count();
            assertTrue("no-dedup".equals(mode) || duplicates > 0,
                    "the withheld commands, re-sent after a kill, were answered as duplicates: " + log);
            // every member catches up to the same state: each command once
            final Ledger expected = new Ledger();
            for (long v = 1; v <= total; v++) {
                expected.count++;
                expected.sum += v;
                expected.fingerprint += Ledger.hash(v);
            }
            final String[] digests = awaitDigests(cluster, total);
            for (int i = 0; i < digests.length; i++) {
                final String[] parts = digests[i].split("/");
                assertEquals(expected.count + "/" + expected.sum + "/" + Long.toHexString(expected.fingerprint),
                        parts[0] + "/" + parts[1] + "/" + parts[3], "member " + i + " holds every command once; " + log);
                assertEquals(digests[0], digests[i], "members 0 and " + i + " agree (order and cluster times too)");
            }
            System.out.println(fault + ": " + log + ", client reconnects " + client.reconnects() + ", resends "
                    + client.resends() + ", answered as duplicates " + duplicates);
            }
        }
    }

    @Test
    @Tag("stress")
    void aSnapshotAndARestartOfAllMembersKeepTheState() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir, 28300, 3);
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            final Replies replies = new Replies();
            try (ClusterCommandClient client = connect(driver, cluster, replies)) {
                SingleMember.sendAll(client, SingleMember.range(1, 100));
                final int leader = client.leaderMemberId();
                final long before = Long.parseLong(cluster.ask(leader, "snapshots", "SNAPSHOTS"));
                Await.until("the snapshot request to be placed", LIMIT, client::poll, () -> {
                    try {
                        return cluster.ask(leader, "snapshot", "SNAPSHOT-REQUESTED").startsWith("true");
                    } catch (final Exception e) {
                        throw new AssertionError(e);
                    }
                });
                for (int i = 0; i < 3; i++) {
                    final int member = i;
                    Await.until("member " + i + "'s snapshot", LIMIT, client::poll, () -> {
                        try {
                            return Long.parseLong(cluster.ask(member, "snapshots", "SNAPSHOTS")) > before;
                        } catch (final Exception e) {
                            throw new AssertionError(e);
                        }
                    });
                }
                SingleMember.sendAll(client, SingleMember.range(101, 20));
            }
            final String[] before = awaitDigests(cluster, 120);
            for (int i = 0; i < 3; i++) {
                cluster.stop(i);
            }
            cluster.startAll();
            final String[] after = awaitDigests(cluster, 120);
            for (int i = 0; i < 3; i++) {
                assertEquals(before[0], before[i], "members agree before the restart");
                assertEquals(before[0], after[i], "member " + i + " after the restart");
            }
        }
    }

    private static ClusterCommandClient connect(final ClientDriver driver, final ProcessCluster cluster,
            final Replies replies) {
        return cluster.connect(driver, replies, LIMIT);
    }

    /** Waits until every member's ledger holds at least {@code count} commands; returns their digests. */
    private static String[] awaitDigests(final ProcessCluster cluster, final long count) throws Exception {
        final String[] digests = new String[cluster.size()];
        for (int i = 0; i < cluster.size(); i++) {
            digests[i] = cluster.awaitAnswer(i, "digest", "DIGEST", digest -> !digest.startsWith("none")
                    && Long.parseLong(digest.substring(0, digest.indexOf('/'))) >= count, LIMIT);
        }
        return digests;
    }
}
