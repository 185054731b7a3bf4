package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's side of a session: hello and welcome on connect and reconnect, numbering from the
 * cluster's record, deadlines, close, refusal and takeover, against a hand-written service
 * ({@link HelloService}) on one member that every test shares (each with a client id of its own).
 */
class ClientSessionTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final UnsafeBuffer PAYLOAD = new UnsafeBuffer(new byte[Long.BYTES]);

    @TempDir
    static Path dir;
    private static MemberConfig config;
    private static HelloService service;
    private static ClusterMember member;
    private static ClientDriver driver;

    @BeforeAll
    static void startMember() {
        config = new MemberConfig(0, List.of("localhost:25100"), dir.resolve("member-0"), Duration.ofSeconds(10),
                Duration.ofSeconds(60));
        service = new HelloService();
        member = ClusterMember.start(config, service);
        driver = new ClientDriver(dir.resolve("client-driver"));
    }

    @AfterAll
    static void stopMember() {
        if (driver != null) {
            driver.close();
        }
        if (member != null) {
            member.close();
        }
    }

    @BeforeEach
    void defaults() {
        service.refusal = null;
        service.maxCommandLength = 1024;
        service.answering = true;
        service.closeSessionOn = 0;
    }

    private static ClusterCommandClient.Context context(final long clientId, final ReplyListener listener) {
        return new ClusterCommandClient.Context()
                .aeronDirectoryName(driver.directory())
                .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                .clientId(clientId)
                .replyListener(listener);
    }

    /** Sends one command and returns its correlation id. */
    private static long send(final ClusterCommandClient client) {
        final long[] id = new long[1];
        Await.until("room to send", LIMIT, client::poll, () -> (id[0] = client.trySend(PAYLOAD, 0, Long.BYTES)) > 0);
        return id[0];
    }

    private static void awaitAnswers(final ClusterCommandClient client) {
        Await.until("every answer", LIMIT, client::poll, () -> client.inFlight() == 0);
    }

    @Test
    void afterCloseNothingIsSentAndNothingReconnects() {
        final Replies replies = new Replies();
        final ClusterCommandClient client = ClusterCommandClient.connect(context(1, replies));
        final long first = send(client);
        awaitAnswers(client);
        assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(first));

        client.close();
        client.close();  // idempotent
        final IllegalStateException sent = assertThrows(IllegalStateException.class,
                () -> client.trySend(PAYLOAD, 0, Long.BYTES));
        assertEquals("cluster client 1 is closed", sent.getMessage());
        final IllegalStateException polled = assertThrows(IllegalStateException.class, client::poll);
        assertEquals("cluster client 1 is closed", polled.getMessage());
        assertEquals(ClusterCommandClient.State.CLOSED, client.state());
        assertEquals(0, client.inFlight());
        assertEquals(0, client.reconnects());
        assertEquals(0, client.resends());
        assertEquals(-1, client.leaderMemberId());

        LockSupport.parkNanos(Duration.ofMillis(300).toNanos());  // time for a stray command to arrive
        assertEquals(1, service.commandsOf(1), "the service saw only the command sent before close");
        assertEquals(1, service.hellosOf(1), "the closed client did not connect again");
    }

    @Test
    void aCommandWithNoAnswerIsReportedOutcomeUnknownOnceAtItsDeadline() {
        final Replies replies = new Replies();
        final int[] emptyPayloads = new int[1];
        final ReplyListener listener = (id, status, buffer, offset, length) -> {
            emptyPayloads[0] += status == CommandWireFormat.STATUS_OUTCOME_UNKNOWN && length == 0 ? 1 : 0;
            replies.onReply(id, status, buffer, offset, length);
        };
        try (ClusterCommandClient client = ClusterCommandClient.connect(context(2, listener)
                .commandTimeout(Duration.ofMillis(300)))) {
            service.answering = false;
            final long start = System.nanoTime();
            final long unanswered = send(client);
            assertEquals(1, client.inFlight());
            awaitAnswers(client);  // ends although the service never answers
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos(), "reported before its deadline");
            assertEquals(CommandWireFormat.STATUS_OUTCOME_UNKNOWN, replies.status.get(unanswered));
            assertEquals(1, emptyPayloads[0], "reported once, with no payload");
            assertEquals(1, client.outcomesUnknown());

            // the service answers the held command before the next one: that late answer is dropped
            service.answering = true;
            final int lateBefore = service.lateAnswers.get();
            final long next = send(client);
            awaitAnswers(client);
            assertTrue(service.lateAnswers.get() > lateBefore, "the service answered the held command late");
            assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(next));
            assertEquals(CommandWireFormat.STATUS_OUTCOME_UNKNOWN, replies.status.get(unanswered));
            assertEquals(0, replies.repeated, "no command answered twice");
            assertEquals(1, client.outcomesUnknown());
        }
    }

    @Test
    void commandsAreNumberedFromTheHighestTheClusterApplied() {
        service.highestApplied.put(3L, 41L);
        final Replies replies = new Replies();
        try (ClusterCommandClient client = ClusterCommandClient.connect(context(3, replies))) {
            assertEquals(41, client.highestAppliedAtConnect());
            assertEquals(42, send(client));
            awaitAnswers(client);
            assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(42L));
        }
        // a process restarted with the same id goes on where the cluster's record of it ends
        try (ClusterCommandClient restarted = ClusterCommandClient.connect(context(3, replies))) {
            assertEquals(42, restarted.highestAppliedAtConnect());
            assertEquals(43, send(restarted));
            awaitAnswers(restarted);
            assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(43L));
        }
        assertEquals(List.of(42L, 43L), List.copyOf(service.commands.get(3L)));
        assertFalse(replies.status.containsKey(CommandWireFormat.HELLO_CORRELATION_ID),
                "the welcome never reaches the listener");
        assertEquals(0, service.withoutHello.get(), "no command came before its session's welcome");
    }

    @Test
    void aRefusedHelloFailsTheConnectWithTheServicesReason() {
        service.refusal = "these credentials may not use client id 4";
        final ClientRefusedException e = assertThrows(ClientRefusedException.class,
                () -> ClusterCommandClient.connect(context(4, new Replies())));
        assertTrue(e.getMessage().contains("these credentials may not use client id 4"), e.getMessage());
        assertTrue(e.getMessage().contains("refused cluster client 4"), e.getMessage());
        assertEquals(0, service.commandsOf(4));
    }

    @Test
    void aPayloadLimitAboveTheServicesIsRefusedAtConnect() {
        service.maxCommandLength = 64;
        final ClientRefusedException e = assertThrows(ClientRefusedException.class,
                () -> ClusterCommandClient.connect(context(5, new Replies()).limits(16, 128)));
        assertTrue(e.getMessage().contains("128 bytes (Context.limits)"), e.getMessage());
        assertTrue(e.getMessage().contains("accepts at most 64"), e.getMessage());
        assertTrue(e.getMessage().contains("raise the service's command limit"), e.getMessage());
        try (ClusterCommandClient client = ClusterCommandClient.connect(context(5, new Replies()).limits(16, 64))) {
            send(client);
            awaitAnswers(client);
        }
    }

    @Test
    void aNewerSessionWithTheSameIdStopsTheOlderClient() {
        final Replies older = new Replies();
        final ClusterCommandClient client = ClusterCommandClient.connect(context(6, older));
        service.answering = false;
        final long first = send(client);
        final long second = send(client);
        Await.until("the service to hold both commands", LIMIT, client::poll, () -> service.commandsOf(6) == 2);

        try (ClusterCommandClient newer = ClusterCommandClient.connect(context(6, new Replies()))) {
            Await.until("the older client to learn of the takeover", LIMIT, client::poll, client::isSuperseded);
            assertEquals(0, client.inFlight());
            assertEquals(CommandWireFormat.STATUS_OUTCOME_UNKNOWN, older.status.get(first));
            assertEquals(CommandWireFormat.STATUS_OUTCOME_UNKNOWN, older.status.get(second));
            assertEquals(2, client.outcomesUnknown());
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> client.trySend(PAYLOAD, 0, Long.BYTES));
            assertTrue(e.getMessage().contains("client 6 was taken over by a newer session: "), e.getMessage());
            assertThrows(IllegalStateException.class, client::poll);
            assertEquals(-1, client.leaderMemberId());

            service.answering = true;
            send(newer);
            awaitAnswers(newer);
            LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
            assertEquals(2, service.hellosOf(6), "the superseded client did not say hello again");
            assertEquals(0, client.reconnects());
        } finally {
            client.close();
        }
        assertEquals(ClusterCommandClient.State.SUPERSEDED, client.state(), "close keeps the reason it stopped");
    }

    @Test
    void aReconnectSaysHelloAgainAndKeepsTheNumbering() {
        final Replies replies = new Replies();
        try (ClusterCommandClient client = ClusterCommandClient.connect(context(7, replies))) {
            send(client);
            awaitAnswers(client);
            service.closeSessionOn = 2;  // the service drops the session instead of answering 2
            assertEquals(2, send(client));
            Await.until("the re-sent command's answer", LIMIT, client::poll, () -> client.inFlight() == 0);
            assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(2L));
            assertEquals(1, client.reconnects());
            assertTrue(client.resends() >= 1, "command 2 was re-sent on the new session");
            assertEquals(2, service.hellosOf(7), "a hello on connect and on the reconnect");
            assertEquals(3, send(client));
            awaitAnswers(client);
        }
    }

    @Test
    void aReconnectTheClusterRefusesStopsTheClient() {
        final Replies replies = new Replies();
        final ClusterCommandClient client = ClusterCommandClient.connect(context(8, replies));
        try {
            send(client);
            awaitAnswers(client);
            service.refusal = "client id 8 was retired";
            service.closeSessionOn = 2;
            assertEquals(2, send(client));
            Await.until("the refused reconnect", LIMIT, client::poll,
                    () -> client.state() == ClusterCommandClient.State.REFUSED);
            assertEquals(0, client.inFlight());
            assertEquals(CommandWireFormat.STATUS_OUTCOME_UNKNOWN, replies.status.get(2L));
            assertEquals(1, client.outcomesUnknown());
            final IllegalStateException e = assertThrows(IllegalStateException.class, client::poll);
            assertTrue(e.getMessage().contains("client id 8 was retired"), e.getMessage());
            assertTrue(e.getMessage().contains("cluster client 8 stopped on reconnecting"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> client.trySend(PAYLOAD, 0, Long.BYTES));
        } finally {
            client.close();
        }
    }

    @Test
    void aNonPositiveCommandTimeoutIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ClusterCommandClient.Context().commandTimeout(Duration.ZERO));
        assertEquals("commandTimeout must be positive, was PT0S", e.getMessage());
    }
}
