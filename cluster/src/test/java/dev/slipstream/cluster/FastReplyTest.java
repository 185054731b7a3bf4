package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.Cluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader's fast reply path: a reply a stage makes after its command's log callback returned
 * leaves from {@code doBackgroundWork} on the leader's own publication, without another command
 * and without the reply timer; a session's replies keep their order whichever path sends them;
 * followers never send. The reply timer's first tick is set to an hour here, far beyond every
 * wait, so a reply that arrives did not wait for it.
 */
class FastReplyTest {
    private static final Duration LIMIT = SingleMember.LIMIT;
    private static final Duration NO_TIMER = Duration.ofHours(1);

    @TempDir
    Path dir;

    @Test
    void aReplyMadeAfterItsCallbackReturnedReachesTheClientWithoutAnotherCommandOrTheReplyTimer() {
        try (SingleMember cluster = new SingleMember(dir, 24100)) {
            assertRepliesLeaveBetweenCallbacks(cluster, startLate(cluster, true), LIMIT);
        }
    }

    @Test
    @Tag("stress")
    void theCheckCatchesALeaderThatSendsOnlyInLogCallbacks() {
        try (SingleMember cluster = new SingleMember(dir, 24110)) {
            final CallbackWatch watch = startLate(cluster, false);
            // without the fast path the first reply waits for a callback that never comes
            final AssertionError caught = assertThrows(AssertionError.class,
                    () -> assertRepliesLeaveBetweenCallbacks(cluster, watch, Duration.ofSeconds(3)));
            assertTrue(caught.getMessage().contains("with no command after it"), caught.getMessage());
        }
    }

    /** A one-stage service whose stage answers each command only once the command's callback has returned. */
    private static CallbackWatch startLate(final SingleMember cluster, final boolean fastReplies) {
        final CallbackWatch[] watch = new CallbackWatch[1];
        final PipelineClusteredService<Amount> service = PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .fastReplies(fastReplies)
                .replyTimerFirstTick(NO_TIMER)
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith((command, sequence, endOfBatch) -> {
                    Await.until("the callback of command " + command.correlationId() + " to return", LIMIT, () -> { },
                            () -> watch[0].returned() >= command.correlationId());
                    outbox.reply(command, (buffer, offset, id) -> {
                        buffer.putLong(offset, id);
                        return Long.BYTES;
                    }, command.correlationId());
                }))
                .build();
        watch[0] = new CallbackWatch(service, n -> { });
        cluster.start(service, watch[0]);
        return watch[0];
    }

    /** Sends three commands one at a time, each after the reply to the one before. */
    private static void assertRepliesLeaveBetweenCallbacks(final SingleMember cluster, final CallbackWatch watch,
            final Duration limit) {
        final List<Long> arrived = new ArrayList<>();
        try (ClusterCommandClient client = cluster.client(1, (id, status, buffer, offset, length) -> arrived.add(id))) {
            awaitHandle(cluster.service, client);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
            for (long n = 1; n <= 3; n++) {
                final long expected = n;
                payload.putLong(0, n);
                Await.until("room to send", limit, client::poll, () -> client.trySend(payload, 0, Long.BYTES) > 0);
                Await.until("the reply to command " + n + ", with no command after it", limit, client::poll,
                        () -> arrived.size() == expected);
            }
        }
        // the client closed its session: the leader closes the publication it kept for it
        Await.until("the session's own publication to be closed", LIMIT, () -> { },
                () -> cluster.service.egress.handlesUp() == 0);
        assertEquals(List.of(1L, 2L, 3L), arrived);
        assertEquals(0, watch.timerEvents(), "timer events: none was needed");
        assertEquals(3, cluster.service.repliesBetweenCallbacks(), "replies sent between log callbacks");
    }

    /**
     * The leader adds its own publication to a new session asynchronously; until it is up, the
     * session's replies wait for a log callback (in production the reply timer's, about 1 ms).
     */
    private static void awaitHandle(final PipelineClusteredService<Amount> service, final ClusterCommandClient client) {
        if (service.fastReplies()) {
            Await.until("the leader's own publication to the client", LIMIT, client::poll,
                    () -> service.egress.handlesUp() == 1);
            // the driver shares it with the cluster's own session publication: one image at the client
            assertEquals(1, service.egress.handlesShared(), "handles sharing the cluster's session publication");
        }
    }

    /**
     * Bursts of four commands, the next burst sent once all four are answered. The first of each
     * burst is answered while the callback of the second is held: it leaves in that log callback.
     * The last is answered after its own callback returned, and no command follows until it
     * arrives: it leaves between callbacks. Every reply must arrive in correlation order.
     */
    @Test
    void aSessionsRepliesArriveInOrderWhicheverPathSendsThem() {
        final int bursts = 100;
        try (SingleMember cluster = new SingleMember(dir, 24120)) {
            final CallbackWatch[] watch = new CallbackWatch[1];
            final long[] replied = new long[1];
            final Object lock = new Object();
            final PipelineClusteredService<Amount> service = PipelineClusteredService.builder(Amount::new)
                    .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                    .ringSize(64)
                    .replyTimerFirstTick(NO_TIMER)
                    .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith((command, sequence, eob) -> {
                        final long k = command.correlationId();
                        if (k % 4 == 1) {
                            Await.until("the callback of command " + (k + 1) + " to begin", LIMIT, () -> { },
                                    () -> watch[0].entered() >= k + 1);
                        } else {
                            Await.until("the callback of command " + k + " to return", LIMIT, () -> { },
                                    () -> watch[0].returned() >= k);
                        }
                        outbox.reply(command, (buffer, offset, id) -> {
                            buffer.putLong(offset, id);
                            return Long.BYTES;
                        }, k);
                        synchronized (lock) {
                            replied[0] = k;
                        }
                    }))
                    .build();
            watch[0] = new CallbackWatch(service, n -> {
                if (n % 4 == 2) {
                    // hold the callback until the reply to the command before is queued
                    Await.until("the reply to command " + (n - 1), LIMIT, () -> { }, () -> {
                        synchronized (lock) {
                            return replied[0] >= n - 1;
                        }
                    });
                }
            });
            cluster.start(service, watch[0]);
            final List<Long> arrived = new ArrayList<>();
            try (ClusterCommandClient client = cluster.client(1,
                    (id, status, buffer, offset, length) -> arrived.add(id))) {
                awaitHandle(service, client);
                for (int burst = 0; burst < bursts; burst++) {
                    SingleMember.sendAll(client, SingleMember.range(burst * 4L + 1, 4));
                }
            }
            final List<Long> expected = new ArrayList<>();
            for (long id = 1; id <= bursts * 4L; id++) {
                expected.add(id);
            }
            assertEquals(expected, arrived, "replies in the order of their commands");
            final long between = service.repliesBetweenCallbacks();
            final long inCallbacks = service.outbox().delivered() - between;
            assertTrue(between >= bursts, "replies sent between callbacks: " + between);
            assertTrue(inCallbacks >= bursts, "replies sent in log callbacks: " + inCallbacks);
            assertEquals(0, watch[0].timerEvents(), "timer events");
        }
    }

    /**
     * Three members; the leader is closed while a client's session is open; the new leader adds
     * its own publication for that session when it takes over, and its replies go out on it.
     */
    @Test
    void aNewLeaderSendsOnItsOwnPublicationToASessionOpenedBefore() {
        final List<String> endpoints = List.of("localhost:24400", "localhost:24410", "localhost:24420");
        final List<ClusterMember> members = new ArrayList<>();
        final List<PipelineClusteredService<Amount>> services = new ArrayList<>();
        final ClientDriver clientDriver = new ClientDriver(dir.resolve("client-driver"));
        try {
            for (int id = 0; id < endpoints.size(); id++) {
                services.add(TestPipelines.service(Ledger::new, new AtomicReference<>()));
                members.add(ClusterMember.start(new MemberConfig(id, endpoints, dir.resolve("member-" + id),
                        Duration.ofSeconds(2), Duration.ofSeconds(60)), services.get(id)));
            }
            final int first = awaitLeader(members, -1);
            final Replies replies = new Replies();
            try (ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(clientDriver.directory())
                    .ingressEndpoints(members.get(0).config().clusterMembers().ingressEndpoints())
                    .clientId(1)
                    .resendAfterNs(TimeUnit.SECONDS.toNanos(60))
                    .replyListener(replies))) {
                SingleMember.sendAll(client, SingleMember.range(1, 50));
                members.get(first).close();
                members.set(first, null);  // closed once
                final int second = awaitLeader(members, first);
                Await.until("the new leader's own publication to the session", LIMIT, client::poll,
                        () -> services.get(second).egress.handlesUp() >= 1);
                SingleMember.sendAll(client, SingleMember.range(51, 50));
                assertTrue(services.get(second).fastRepliesSent() > 0,
                        "replies the new leader sent on its own publication: " + services.get(second).fastRepliesSent());
            }
            assertEquals(100, replies.status.size());
        } finally {
            CloseHelper.quietCloseAll(members);
            clientDriver.close();
        }
    }

    /** @return the index of the member that leads, other than {@code not} */
    private static int awaitLeader(final List<ClusterMember> members, final int not) {
        final int[] leader = {-1};
        Await.until("a leader", LIMIT, () -> { }, () -> {
            for (int id = 0; id < members.size(); id++) {
                if (id != not && members.get(id).role() == Cluster.Role.LEADER) {
                    leader[0] = id;
                    return true;
                }
            }
            return false;
        });
        return leader[0];
    }

    @Test
    void followersNeverSend() {
        assertFollowersNeverSend(24200, LeaderEgress::new);
    }

    @Test
    @Tag("stress")
    void theFollowerCheckCatchesAFastPathThatSendsFromFollowers() {
        final AssertionError caught = assertThrows(AssertionError.class,
                () -> assertFollowersNeverSend(24300, () -> new LeaderEgress() {
                    @Override
                    boolean sends() {
                        return true;  // the seeded bug: every member sends, whatever its role
                    }
                }));
        assertTrue(caught.getMessage().contains("as a follower"), caught.getMessage());
    }

    /** Three members in this JVM; a client's commands all answered; then no follower has sent a reply. */
    private void assertFollowersNeverSend(final int basePort, final Supplier<LeaderEgress> egress) {
        final List<String> endpoints = List.of("localhost:" + basePort, "localhost:" + (basePort + 10),
                "localhost:" + (basePort + 20));
        final List<ClusterMember> members = new ArrayList<>();
        final List<PipelineClusteredService<Amount>> services = new ArrayList<>();
        final ClientDriver clientDriver = new ClientDriver(dir.resolve("client-driver"));
        try {
            for (int id = 0; id < endpoints.size(); id++) {
                final PipelineClusteredService<Amount> service = TestPipelines.service(Ledger::new,
                        new AtomicReference<>());
                service.egress = egress.get();
                services.add(service);
                members.add(ClusterMember.start(new MemberConfig(id, endpoints, dir.resolve("member-" + id),
                        Duration.ofSeconds(10), Duration.ofSeconds(60)), service));
            }
            Await.until("a leader", LIMIT, () -> { },
                    () -> members.stream().anyMatch(m -> m.role() == Cluster.Role.LEADER));
            final Replies replies = new Replies();
            try (ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(clientDriver.directory())
                    .ingressEndpoints(members.get(0).config().clusterMembers().ingressEndpoints())
                    .clientId(1)
                    .resendAfterNs(TimeUnit.SECONDS.toNanos(60))
                    .replyListener(replies))) {
                for (int round = 0; round < 10; round++) {
                    SingleMember.sendAll(client, SingleMember.range(round * 50L + 1, 50));
                }
            }
            assertEquals(500, replies.status.size());
            for (int id = 0; id < members.size(); id++) {
                final long sent = services.get(id).fastRepliesSent();
                if (members.get(id).role() == Cluster.Role.LEADER) {
                    assertTrue(sent > 0, "the leader sent its replies on its own publication: " + sent);
                } else {
                    assertEquals(0, sent, "replies member " + id + " sent as a follower");
                }
            }
        } finally {
            CloseHelper.quietCloseAll(members);
            clientDriver.close();
        }
    }
}
