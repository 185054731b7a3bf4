package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.topology.StageSpec;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A session speaks for the one client id it said hello with, and only while no newer session of
 * that id took over; the welcome tells a client where its record stands; commands over the
 * service's limit are refused with it.
 */
class ClientSessionsTest {
    private static PipelineClusteredService.Builder<Amount> applying(final List<Long> applied) {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith(StageSpec.of("apply",
                        (command, sequence, endOfBatch) -> {
                            applied.add(command.payload().value);
                            outbox.reply(command, (buffer, offset, amount) -> 0, null);
                        })));
    }

    @Test
    void aCommandBeforeHelloOrUnderAnotherClientIdIsRefusedNamingBoth() {
        final List<Long> applied = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(applying(applied))) {
            cluster.open(1, null);
            cluster.command(1, 42, 1, 10);
            cluster.hello(1, 42);
            cluster.command(1, 43, 1, 20);
            cluster.hello(1, 43);
            cluster.drain();
            final List<String> answers = cluster.repliesTo(1);
            assertEquals(4, answers.size(), answers.toString());
            assertTrue(answers.get(0).startsWith("1:2 session 1 speaks for no client: its first message must be a hello"),
                    answers.get(0));
            assertEquals("0:5 highest=0 limit=65536", answers.get(1));
            assertEquals("1:2 client id 43 is not this session's: session 1 said hello as client 42", answers.get(2));
            assertTrue(answers.get(3).startsWith("0:2 session 1 already speaks for client 42"), answers.get(3));
            assertEquals(List.of(), applied);
        }
    }

    @Test
    void aSecondSessionOfOneClientIdTakesOverAndTheFirstIsToldAndClosed() {
        final List<Long> applied = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(applying(applied))) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            for (long id = 1; id <= 3; id++) {
                cluster.command(1, 42, id, 100 + id);
            }
            cluster.drain();
            cluster.open(2, null);
            cluster.hello(2, 42);  // client B, the same id
            cluster.command(1, 42, 4, 104);  // A's next command, after the takeover
            for (long id = 4; id <= 5; id++) {
                cluster.command(2, 42, id, 200 + id);  // B goes on from the welcome's highest
            }
            cluster.drain();

            assertEquals(List.of(101L, 102L, 103L, 204L, 205L), applied, "nothing of B's dropped as a duplicate");
            assertEquals(List.of(1L), cluster.closed, "the older session closed");
            // its late command is refused, and the refusal not offered to a closing session
            assertEquals(List.of("0:5 highest=0 limit=65536", "1:0", "2:0", "3:0", "0:6 client 42 was taken over by "
                    + "session 2, which said hello with the same client id; this session is closed"),
                    cluster.repliesTo(1));
            assertEquals(List.of("0:5 highest=3 limit=65536", "4:0", "5:0"), cluster.repliesTo(2));
        }
    }

    @Test
    void aClientRestartedWithItsIdLearnsItsHighestAppliedId() {
        final List<Long> applied = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(applying(applied))) {
            cluster.open(1, null);
            cluster.hello(1, 7);
            cluster.command(1, 7, 1, 1);
            cluster.command(1, 7, 3, 3);  // 2 still in flight when the process died
            cluster.close(1);
            cluster.open(2, null);
            cluster.hello(2, 7);
            cluster.drain();
            assertEquals(List.of("0:5 highest=3 limit=65536"), cluster.repliesTo(2));
        }
    }

    @Test
    void credentialsBoundToClientIdsAllowThoseOnly() {
        final List<Long> applied = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(applying(applied))) {
            cluster.open(1, ClientPrincipal.encode(new long[] {7, 8}));
            cluster.hello(1, 42);
            cluster.hello(1, 8);
            cluster.command(1, 8, 1, 80);
            cluster.drain();
            final List<String> answers = cluster.repliesTo(1);
            assertEquals("0:2 session 1 may not speak for client 42: its credentials are for client ids [7, 8]",
                    answers.get(0));
            assertEquals("0:5 highest=0 limit=65536", answers.get(1));
            assertEquals(List.of(80L), applied);
        }
    }

    @Test
    void aCommandLongerThanTheServiceLimitIsRefusedWithTheLimit() {
        assertLongCommandRefused(service -> { });
        final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> PipelineClusteredService.builder(Amount::new).commandLimit(PipelineClusteredService.MAX_COMMAND_LENGTH + 1));
        assertTrue(tooBig.getMessage().contains("the longest message the cluster's log carries"), tooBig.getMessage());
    }

    @Test
    void theLimitCheckCatchesAServiceWithoutALimitOfItsOwn() {
        // the seeded bug: only the client limits a command's length, as before the service had a limit
        final AssertionError caught = assertThrows(AssertionError.class,
                () -> assertLongCommandRefused(service -> service.commandLimitEnforced = false));
        assertTrue(caught.getMessage().contains("refused with the limit"), caught.getMessage());
    }

    private static void assertLongCommandRefused(
            final java.util.function.Consumer<PipelineClusteredService<Amount>> seed) {
        final List<Long> applied = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(applying(applied).commandLimit(16), seed)) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            cluster.send(1, 42, 1, 5, 17);
            cluster.send(1, 42, 1, 6, 16);  // the same id again, within the limit: not remembered as applied
            cluster.drain();
            final List<String> answers = cluster.repliesTo(1);
            assertEquals("1:2 command payload of 17 bytes is longer than the service's limit of 16 bytes",
                    answers.get(1), "the long command refused with the limit: " + answers);
            assertEquals(List.of("0:5 highest=0 limit=16",
                    "1:2 command payload of 17 bytes is longer than the service's limit of 16 bytes", "1:0"), answers);
            assertEquals(List.of(6L), applied);
        }
    }

    @Test
    void aNegativeClientOrCorrelationIdIsRefusedWithTheReason() {
        final List<Long> applied = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(applying(applied))) {
            cluster.open(1, null);
            cluster.hello(1, -3);
            cluster.hello(1, 42);
            cluster.command(1, 42, -5, 10);
            cluster.command(1, 42, 1, 11);
            cluster.drain();
            assertEquals(List.of("0:2 client id -3 is negative; expected a client id of 0 or more",
                    "0:5 highest=0 limit=65536",
                    "-5:2 correlation id -5 is negative; expected 1, 2, 3, ... per client (0 is the hello)", "1:0"),
                    cluster.repliesTo(1));
            assertEquals(List.of(11L), applied);
        }
    }

    @Test
    void badSettingsAreRefusedNamingWhatIsExpected() {
        final IllegalArgumentException clients = assertThrows(IllegalArgumentException.class,
                () -> PipelineClusteredService.builder(Amount::new).maxClients(0));
        assertEquals("maxClients must be at least 1, was 0", clients.getMessage());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> PipelineClusteredService.builder(Amount::new).commandLimit(-1));
        assertTrue(negative.getMessage().startsWith("command limit of -1 bytes; expected 0 to "), negative.getMessage());
        assertThrows(NullPointerException.class, () -> PipelineClusteredService.builder(Amount::new)
                .onCommandException(null));
        assertThrows(NullPointerException.class, () -> new ClientIdAuthenticator(null));
        final IllegalArgumentException negativeId = assertThrows(IllegalArgumentException.class,
                () -> ClientSecrets.builder().client(-1, new byte[16]));
        assertEquals("client id must not be negative, was -1", negativeId.getMessage());
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> ClientSecrets.builder().client(7, new byte[16]).client(7, new byte[16]));
        assertTrue(twice.getMessage().contains("client 7 is given a secret twice"), twice.getMessage());
        final IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> ClientSecrets.builder().build());
        assertTrue(none.getMessage().startsWith("no clients"), none.getMessage());
        // credentials the store cannot read are refused, not thrown on
        final ClientSecrets secrets = ClientSecrets.builder().client(7, new byte[16]).build();
        assertEquals(null, secrets.clientIdsFor(new byte[3]));
        assertEquals(null, secrets.clientIdsFor(new byte[0]));
    }
}
