package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.ClientSession;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client id belongs to a session: credentials bound to client ids allow those only; two live
 * sessions with one id do not both speak for it (the newer takes over, the older is told); a
 * client restarted with its id goes on after what the cluster applied for it. Nothing a client
 * sends is dropped silently: every command is applied and answered, refused, or reported to its
 * client as of unknown outcome; none is answered as a duplicate unless it was applied.
 */
class ClientIdentityTest {
    private static final byte[] SECRET_7 = "gateway seven's own secret".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SECRET_8 = "gateway eight's own secret".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void perClientSecretsAdmitEachClientUnderItsOwnIdOnly() {
        final ClientSecrets secrets = ClientSecrets.builder().client(7, SECRET_7).client(8, SECRET_8).build();
        try (SingleMember cluster = new SingleMember(dir, 26300)) {
            cluster.service = TestPipelines.service(Ledger::new, cluster.ledger);
            cluster.member = ClusterMember.start(cluster.config, cluster.service, new ClientIdAuthenticator(secrets));
            final Replies replies = new Replies();
            try (ClusterCommandClient seven = ClusterCommandClient.connect(context(cluster, 7, replies)
                    .credentials(ClientSecrets.credentials(7, SECRET_7)))) {
                SingleMember.sendAll(seven, 5);
            }
            assertEquals(5, cluster.ledger.get().sum);

            final ClientRefusedException borrowed = assertThrows(ClientRefusedException.class,
                    () -> ClusterCommandClient.connect(context(cluster, 7, replies)
                            .credentials(ClientSecrets.credentials(8, SECRET_8))));
            assertTrue(borrowed.getMessage().contains("may not speak for client 7")
                    && borrowed.getMessage().contains("credentials are for client ids [8]"), borrowed.getMessage());

            final ClientRefusedException wrongSecret = assertThrows(ClientRefusedException.class,
                    () -> ClusterCommandClient.connect(context(cluster, 7, replies)
                            .credentials(ClientSecrets.credentials(7, SECRET_8))));
            assertTrue(wrongSecret.getMessage().contains("rejected client 7"), wrongSecret.getMessage());
            final ClientRefusedException unknown = assertThrows(ClientRefusedException.class,
                    () -> ClusterCommandClient.connect(context(cluster, 9, replies)
                            .credentials(ClientSecrets.credentials(9, SECRET_7))));
            assertTrue(unknown.getMessage().contains("rejected client 9"), unknown.getMessage());
            assertEquals(5, cluster.ledger.get().sum, "nothing of the refused clients applied");
        }
        final IllegalArgumentException shortSecret = assertThrows(IllegalArgumentException.class,
                () -> ClientSecrets.builder().client(1, new byte[15]));
        assertTrue(shortSecret.getMessage().contains("at least 16 bytes"), shortSecret.getMessage());
    }

    @Test
    void twoSessionsWithOneClientIdAndARestartedClientDropNothingSilently() throws Exception {
        try (SingleMember cluster = new SingleMember(dir, 26310).start(Ledger::new)) {
            assertTwoSessionsDropNothing(cluster);
        }
    }

    @Test
    void theCheckCatchesAServiceThatIgnoresWhichSessionSpeaksForAClient() {
        try (SingleMember cluster = new SingleMember(dir, 26320)) {
            final PipelineClusteredService<Amount> service = TestPipelines.service(Ledger::new, cluster.ledger);
            service.sessionsFactory = IdentityBlindSessions::new;
            cluster.start(service);
            final AssertionError caught = assertThrows(AssertionError.class, () -> assertTwoSessionsDropNothing(cluster));
            assertTrue(caught.getMessage().contains("answered as a duplicate but never applied"), caught.getMessage());
        }
    }

    /**
     * Client A (id 42) sends 100 commands, its amounts 1,000 + i; client B, a second process with
     * the same id, connects while A is sending and sends 100 of its own (2,000 + i); then B is
     * closed and a third client with the id, as a restarted process, sends 10 more (3,000 + i).
     */
    private static void assertTwoSessionsDropNothing(final SingleMember cluster) throws Exception {
        final Outcomes a = new Outcomes(1000);
        final Outcomes b = new Outcomes(2000);
        final Outcomes c = new Outcomes(3000);
        final CountDownLatch aHalfway = new CountDownLatch(1);
        final AtomicReference<Throwable> aFailed = new AtomicReference<>();
        final Thread first = new Thread(() -> {
            try (ClusterCommandClient client = cluster.client(42, a)) {
                a.sendAll(client, 100, aHalfway);
            } catch (final Throwable t) {
                aFailed.set(t);
            }
        }, "client-a");
        first.start();
        aHalfway.await();
        try (ClusterCommandClient client = cluster.client(42, b)) {
            b.sendAll(client, 100, new CountDownLatch(1));
        }
        first.join();
        if (aFailed.get() != null) {
            throw new AssertionError("client A failed", aFailed.get());
        }
        try (ClusterCommandClient restarted = cluster.client(42, c)) {
            c.sendAll(restarted, 10, new CountDownLatch(1));
        }
        // the ledger holds every applied command: compare it with what the clients were told
        Await.until("the ledger to settle", SingleMember.LIMIT, () -> { }, () -> cluster.service.outbox() != null
                && cluster.service.pipeline().ringBuffer().getMinimumGatingSequence()
                == cluster.service.pipeline().ringBuffer().getCursor());
        final Ledger ledger = cluster.ledger.get();
        long appliedSum = 0;
        long appliedCount = 0;
        long unknownSum = 0;
        long unknownCount = 0;
        for (final Outcomes outcomes : List.of(a, b, c)) {
            for (final Map.Entry<Long, Byte> entry : outcomes.status.entrySet()) {
                final long amount = outcomes.amounts.get(entry.getKey());
                final byte status = entry.getValue();
                if (status == CommandWireFormat.STATUS_DUPLICATE) {
                    throw new AssertionError("command " + entry.getKey() + " of amount " + amount
                            + " answered as a duplicate but never applied (the ledger holds each amount once: "
                            + "a duplicate answer is for a command applied before, and every amount here is new)");
                }
                if (status == CommandWireFormat.STATUS_APPLIED) {
                    appliedSum += amount;
                    appliedCount++;
                } else if (status == CommandWireFormat.STATUS_OUTCOME_UNKNOWN) {
                    unknownSum += amount;
                    unknownCount++;
                }
            }
            assertEquals(outcomes.sent, outcomes.status.size(), "every command of a client answered or given up");
        }
        assertEquals(100, b.count(CommandWireFormat.STATUS_APPLIED), "the newer session's commands all applied");
        assertEquals(10, c.count(CommandWireFormat.STATUS_APPLIED), "the restarted client's commands all applied");
        assertTrue(ledger.count >= appliedCount && ledger.count <= appliedCount + unknownCount,
                "applied " + ledger.count + ": every command answered applied, and only those or ones of unknown outcome");
        assertTrue(ledger.sum >= appliedSum && ledger.sum <= appliedSum + unknownSum, "the ledger's sum " + ledger.sum);
    }

    /** One client's commands: the amount of each, and how it was answered. */
    private static final class Outcomes implements ReplyListener {
        final Map<Long, Long> amounts = new HashMap<>();
        final Map<Long, Byte> status = new HashMap<>();
        final long base;
        int sent;

        Outcomes(final long base) {
            this.base = base;
        }

        @Override
        public void onReply(final long correlationId, final byte replyStatus, final DirectBuffer buffer,
                final int offset, final int length) {
            status.put(correlationId, replyStatus);
        }

        long count(final byte wanted) {
            return status.values().stream().filter(s -> s == wanted).count();
        }

        /** Sends {@code n} commands, counting down {@code halfway} after the first half is answered. */
        void sendAll(final ClusterCommandClient client, final int n, final CountDownLatch halfway) {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
            try {
                for (int i = 1; i <= n; i++) {
                    payload.putLong(0, base + i);
                    long id;
                    while ((id = client.trySend(payload, 0, Long.BYTES)) < 0) {
                        client.poll();
                    }
                    amounts.put(id, base + i);
                    sent++;
                    if (i == n / 2) {
                        Await.until("the first half answered", SingleMember.LIMIT, client::poll,
                                () -> client.inFlight() == 0);
                        halfway.countDown();
                    }
                }
                Await.until("every answer", SingleMember.LIMIT, client::poll, () -> client.inFlight() == 0);
            } catch (final IllegalStateException superseded) {
                if (!client.isSuperseded()) {
                    throw superseded;
                }
            } finally {
                halfway.countDown();
            }
        }
    }

    /** The seeded bug: any session speaks for any client id, and every client is welcomed as new. */
    private static final class IdentityBlindSessions extends ClientSessions {
        IdentityBlindSessions(final DedupTable dedup) {
            super(dedup);
        }

        @Override
        long onHello(final ClientSession session, final long clientId, final long timestamp, final ReplyOutbox outbox,
                final int maxCommandLength) {
            outbox.welcomeFromService(session.id(), 0, maxCommandLength);
            return DedupTable.NO_SESSION;
        }

        @Override
        String checkSender(final long sessionId, final long clientId) {
            return null;
        }
    }

    private static ClusterCommandClient.Context context(final SingleMember cluster, final long clientId,
            final ReplyListener listener) {
        return new ClusterCommandClient.Context()
                .aeronDirectoryName(cluster.clientDriver.directory())
                .ingressEndpoints(cluster.config.clusterMembers().ingressEndpoints())
                .clientId(clientId)
                .replyListener(listener);
    }

}
