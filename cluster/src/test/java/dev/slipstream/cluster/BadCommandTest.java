package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command the stages throw for cannot stop the cluster. Three member processes: a poison
 * command among 1,500 others is rejected on every member, answered with its cause, and every
 * other command applied once; all three members are killed and started again on the same
 * directories, replay the poison command and come back; a client restarted with the same id goes
 * on where the cluster's record of it left off. An {@code Error} on one member stops that member
 * only; the others go on and the member restarted catches up.
 */
class BadCommandTest {
    private static final Duration LIMIT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    /** Every answer, by correlation id: status, and the payload (count, or reason) as text. */
    private static final class Answers implements ReplyListener {
        final Map<Long, Byte> status = new HashMap<>();
        final Map<Long, String> text = new HashMap<>();

        @Override
        public void onReply(final long correlationId, final byte replyStatus, final DirectBuffer buffer,
                final int offset, final int length) {
            status.put(correlationId, replyStatus);
            if (replyStatus == CommandWireFormat.STATUS_APPLIED && length == Long.BYTES) {
                text.put(correlationId, Long.toString(buffer.getLong(offset)));
            } else {
                final byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                text.put(correlationId, new String(bytes, StandardCharsets.UTF_8));
            }
        }

        long count(final byte wanted) {
            return status.values().stream().filter(s -> s == wanted).count();
        }
    }

    @Test
    void aPoisonCommandIsRejectedOnEveryMemberAndARestartReplaysItAndGoesOn() throws Exception {
        poisonAndRestart(26000, "validating");
    }

    @Test
    @Tag("stress")
    void theCheckCatchesMembersThatHaltOnAnException() {
        final AssertionError caught = assertThrows(AssertionError.class, () -> poisonAndRestart(26100, "validating-halt"));
        assertTrue(caught.getMessage().contains("poison command answered rejected with its cause"), caught.getMessage());
    }

    private void poisonAndRestart(final int basePort, final String mode) throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir.resolve(mode), basePort, 3, mode);
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            final Answers answers = new Answers();
            final long poisonId;
            try (ClusterCommandClient client = connect(cluster, driver, answers)) {
                sendAll(client, SingleMember.range(1, 500));
                poisonId = sendAll(client, TestPipelines.POISON);
                sendAll(client, SingleMember.range(501, 20));
                awaitAnswers(client);
                // checked before the rest: members that halted would leave each command to its deadline
                assertEquals(CommandWireFormat.STATUS_REJECTED, answers.status.get(poisonId),
                        "the poison command answered rejected with its cause: " + answers.text.get(poisonId));
                sendAll(client, SingleMember.range(521, 980));
                awaitAnswers(client);
            }
            assertEquals("java.lang.ArrayIndexOutOfBoundsException: no account " + TestPipelines.POISON,
                    answers.text.get(poisonId));
            assertEquals(1500, answers.count(CommandWireFormat.STATUS_APPLIED), "every other command applied");
            assertEquals(1501, answers.status.size(), "every command answered once");
            final String[] before = awaitEqualDigests(cluster, 1500, 1500);

            // every member killed and started again on its directory: each replays the poison command
            for (int i = 0; i < 3; i++) {
                cluster.kill(i);
            }
            cluster.startAll();
            assertEquals(before[0], awaitEqualDigests(cluster, 1500, 1500)[0], "the same state after the replay");
            final Answers later = new Answers();
            try (ClusterCommandClient restarted = connect(cluster, driver, later)) {
                assertEquals(1501, restarted.highestAppliedAtConnect(), "the restarted client's record");
                sendAll(restarted, SingleMember.range(1501, 100));
                awaitAnswers(restarted);
            }
            assertEquals(100, later.count(CommandWireFormat.STATUS_APPLIED),
                    "none of the restarted client's commands answered as a duplicate: " + later.status.values());
            awaitEqualDigests(cluster, 1600, 1600);
        }
    }

    @Test
    void anErrorOnOneMemberStopsThatMemberOnlyAndItCatchesUpAfterARestart() throws Exception {
        errorOnOneMember(26200, "validating", LIMIT);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAMemberThatRejectsAnErrorAndGoesOn() {
        // a member that went on after an Error would hold a state no other member can reproduce
        final AssertionError caught = assertThrows(AssertionError.class,
                () -> errorOnOneMember(26300, "validating-errors-rejected", Duration.ofSeconds(5)));
        assertTrue(caught.getMessage().contains("answered running with true"), caught.getMessage());
    }

    private void errorOnOneMember(final int basePort, final String mode, final Duration stopLimit) throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir.resolve(mode), basePort, 3, mode);
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            final Answers answers = new Answers();
            try (ClusterCommandClient client = connect(cluster, driver, answers)) {
                sendAll(client, SingleMember.range(1, 200));
                final int leader = client.leaderMemberId();
                final int failing = (leader + 1) % 3;
                sendAll(client, TestPipelines.ERROR_BASE + failing);
                sendAll(client, SingleMember.range(201, 200));
                awaitAnswers(client);
                assertEquals(401, answers.count(CommandWireFormat.STATUS_APPLIED), "the client sees no loss");
                final String running = cluster.awaitAnswer(failing, "running", "RUNNING",
                        answer -> answer.startsWith("false"), stopLimit);
                assertTrue(running.contains("AssertionError") && running.contains("alone fails"), running);
                for (int i = 0; i < 3; i++) {
                    if (i != failing) {
                        assertTrue(cluster.ask(i, "running", "RUNNING").startsWith("true"), "member " + i + " goes on");
                    }
                }
                cluster.kill(failing);
                cluster.start(failing, "validating-healed");
                sendAll(client, SingleMember.range(401, 50));
                awaitAnswers(client);
            }
            awaitEqualDigests(cluster, 451, 451);
        }
    }

    private static ClusterCommandClient connect(final ProcessCluster cluster, final ClientDriver driver,
            final ReplyListener answers) {
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            try {
                return ClusterCommandClient.connect(new ClusterCommandClient.Context()
                        .aeronDirectoryName(driver.directory())
                        .ingressEndpoints(cluster.ingressEndpoints())
                        .clientId(1)
                        .limits(64, Long.BYTES)
                        // a member that halts answers nothing: give up on a command well inside the test's limit
                        .commandTimeout(Duration.ofSeconds(10))
                        .replyListener(answers));
            } catch (final IllegalStateException noLeaderYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw noLeaderYet;
                }
            }
        }
    }

    /** Sends one amount per value; returns the last one's correlation id. */
    private static long sendAll(final ClusterCommandClient client, final long... values) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
        long id = -1;
        for (final long value : values) {
            payload.putLong(0, value);
            final long deadline = System.nanoTime() + LIMIT.toNanos();
            while ((id = client.trySend(payload, 0, Long.BYTES)) < 0) {
                client.poll();
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no room to send within " + LIMIT + "; in flight " + client.inFlight());
                }
            }
        }
        return id;
    }

    private static void awaitAnswers(final ClusterCommandClient client) {
        Await.until("every command answered (or given up)", LIMIT, client::poll, () -> client.inFlight() == 0);
    }

    /** Waits until every member holds {@code count} commands; checks the count and that all agree. */
    private static String[] awaitEqualDigests(final ProcessCluster cluster, final long count, final long expected)
            throws Exception {
        final String[] digests = new String[cluster.size()];
        for (int i = 0; i < cluster.size(); i++) {
            digests[i] = cluster.awaitAnswer(i, "digest", "DIGEST", digest -> !digest.startsWith("none")
                    && Long.parseLong(digest.substring(0, digest.indexOf('/'))) >= count, LIMIT);
            assertEquals(expected, Long.parseLong(digests[i].substring(0, digests[i].indexOf('/'))),
                    "member " + i + "'s ledger count");
            assertEquals(digests[0], digests[i], "members 0 and " + i + " agree");
        }
        return digests;
    }
}
