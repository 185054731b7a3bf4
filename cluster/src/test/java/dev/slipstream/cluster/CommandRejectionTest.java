package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.topology.StageSpec;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.concurrent.AgentTerminationException;
import org.junit.jupiter.api.Test;

/**
 * An exception a stage throws for a command is a function of the log: the service rejects that
 * command (the stages behind see it rejected, its client is answered once with the cause) and
 * goes on. An {@code Error} stops the member; {@link CommandFailurePolicy#HALT} stops it on any
 * exception.
 */
class CommandRejectionTest {
    /** Amount 99 is an unknown account: the ledger throws, as the user's stage did. */
    private static final long POISON = 99;

    /** validate (throws for the poison) -> book (records what it sees) -> reply. */
    private static PipelineClusteredService.Builder<Amount> ledger(final List<String> booked) {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> {
                    if (length == 0) {
                        throw new IllegalArgumentException("empty payload; expected an 8-byte amount");
                    }
                    into.value = buffer.getLong(offset);
                })
                .ringSize(64)
                .pipeline((pipeline, outbox, states) -> pipeline
                        .handleEventsWith(StageSpec.of("validate", (command, sequence, endOfBatch) -> {
                            if (command.payload().value == POISON) {
                                throw new ArrayIndexOutOfBoundsException("Index 99 out of bounds for length 8");
                            }
                        }))
                        .then(StageSpec.of("book", (command, sequence, endOfBatch) ->
                                booked.add(command.payload().value + (command.isRejected() ? " rejected: "
                                        + command.rejection() : ""))))
                        .then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
                                outbox.reply(command, (buffer, offset, amount) -> {
                                    buffer.putLong(offset, amount.value);
                                    return Long.BYTES;
                                }, command.payload()))));
    }

    @Test
    void aCommandAStageThrowsForIsRejectedOnceAndThePipelineGoesOn() {
        final List<String> booked = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(ledger(booked))) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            cluster.command(1, 42, 1, 10);
            cluster.command(1, 42, 2, POISON);
            cluster.command(1, 42, 3, 30);
            cluster.drain();
            cluster.command(1, 42, 2, POISON);  // the client re-sends it
            cluster.drain();

            final String cause = "java.lang.ArrayIndexOutOfBoundsException: Index 99 out of bounds for length 8";
            assertEquals(List.of("10", "99 rejected: " + cause, "30"), booked, "what the stage behind saw");
            // a rejection leaves when the stage that threw makes it, possibly before earlier replies
            final List<String> answers = new java.util.ArrayList<>(cluster.repliesTo(1));
            answers.sort(null);
            assertEquals(List.of("0:5 highest=0 limit=65536", "1:0 =10", "2:1", "2:3 " + cause, "3:0 =30"),
                    answers, "one answer per command: the reply stage's for a rejected one is dropped");
            assertTrue(cluster.service.pipeline().failures().isEmpty(), "no stage stopped");
            assertEquals(1, cluster.service.outbox().rejectedCommands());
            assertEquals(1, cluster.service.outbox().droppedReplies());
            cluster.service.doBackgroundWork(0);  // the member goes on
        }
    }

    @Test
    void aCommandTheDecoderThrowsForReachesEveryStageRejected() {
        final List<String> booked = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(ledger(booked))) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            cluster.send(1, 42, 1, 0, 0);  // no payload: the decoder throws
            cluster.command(1, 42, 2, 20);
            cluster.drain();
            assertEquals(2, booked.size());
            assertTrue(booked.get(0).contains("rejected: java.lang.IllegalArgumentException: empty payload"), booked.get(0));
            assertEquals("20", booked.get(1));
            assertEquals(List.of("0:5 highest=0 limit=65536",
                    "1:3 java.lang.IllegalArgumentException: empty payload; expected an 8-byte amount", "2:0 =20"),
                    cluster.repliesTo(1));
        }
    }

    @Test
    void aLongReasonIsCutToTheBound() {
        final String longMessage = "x".repeat(1000);
        try (StubbedService cluster = new StubbedService(PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith((command, sequence, endOfBatch) -> {
                    throw new IllegalStateException(longMessage);
                })))) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            cluster.command(1, 42, 1, 10);
            cluster.drain();
            final StubbedService.Reply reply = cluster.replies.get(1);
            assertEquals(CommandWireFormat.STATUS_REJECTED, reply.status());
            assertEquals(CommandWireFormat.MAX_REJECTION_LENGTH, reply.text().length());
            assertTrue(reply.text().startsWith("java.lang.IllegalStateException: xxx"), reply.text());
        }
    }

    @Test
    void anErrorStopsTheMember() {
        try (StubbedService cluster = new StubbedService(PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith((command, sequence, endOfBatch) -> {
                    throw new StackOverflowError("deep");
                })))) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            cluster.command(1, 42, 1, 10);
            Await.until("the stage to stop", SingleMember.LIMIT, () -> { },
                    () -> !cluster.service.pipeline().failures().isEmpty());
            final AgentTerminationException stop = assertThrows(AgentTerminationException.class,
                    () -> cluster.service.doBackgroundWork(0));
            assertTrue(stop.getMessage().contains("StackOverflowError"), stop.getMessage());
            assertFalse(cluster.repliesTo(1).stream().anyMatch(r -> r.startsWith("1:")), "no answer: the member stops");
        }
    }

    @Test
    void haltingIsAChoiceThatStopsTheMemberOnAnyException() {
        final List<String> booked = new CopyOnWriteArrayList<>();
        try (StubbedService cluster = new StubbedService(ledger(booked).onCommandException(CommandFailurePolicy.HALT))) {
            cluster.open(1, null);
            cluster.hello(1, 42);
            cluster.command(1, 42, 1, POISON);
            Await.until("the stage to stop", SingleMember.LIMIT, () -> { },
                    () -> !cluster.service.pipeline().failures().isEmpty());
            assertThrows(AgentTerminationException.class, () -> cluster.service.doBackgroundWork(0));
            assertEquals(List.of(), booked);
        }
    }
}
