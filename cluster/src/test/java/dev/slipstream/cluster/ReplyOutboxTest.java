package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The outbox keeps replies in order, retries pushed-back ones, and is offered from the service thread only. */
class ReplyOutboxTest {
    private static ClusterCommand<Amount> command(final long session, final long correlation) {
        final ClusterCommand<Amount> c = new ClusterCommand<>(new Amount());
        c.set(0, 0, session, 1, correlation);
        return c;
    }

    @Test
    void repliesLeaveInOrderAndAPushedBackReplyIsOfferedAgainNotDropped() {
        final ReplyOutbox outbox = new ReplyOutbox(4, 8);
        outbox.bindServiceThread(Thread.currentThread());
        for (long id = 1; id <= 3; id++) {
            outbox.reply(command(5, id), (b, o, v) -> {
                b.putLong(o, v);
                return 8;
            }, id * 10);
        }
        final List<Long> sent = new ArrayList<>();
        final int[] pushBacks = {1};
        final ReplyOutbox.ReplyTarget target = (session, buffer, offset, length) -> {
            if (pushBacks[0]-- > 0) {
                return ReplyOutbox.ReplyTarget.RETRY;
            }
            assertEquals(5, session);
            sent.add(buffer.getLong(offset + CommandWireFormat.REPLY_HEADER_LENGTH));
            return ReplyOutbox.ReplyTarget.SENT;
        };
        assertEquals(0, outbox.deliver(target));
        assertEquals(3, outbox.deliver(target));
        assertEquals(List.of(10L, 20L, 30L), sent);
        assertEquals(3, outbox.delivered());
        assertTrue(outbox.isIdle());
    }

    @Test
    void aSessionWithoutAConnectedChannelHoldsUpNoOtherSessionAndGetsItsRepliesInOrderLater() {
        final ReplyOutbox outbox = new ReplyOutbox(2, 8);
        outbox.bindServiceThread(Thread.currentThread());
        final ReplyWriter<Long> writer = (b, o, v) -> {
            b.putLong(o, v);
            return 8;
        };
        final boolean[] connected = {false};
        final List<String> sent = new ArrayList<>();
        final ReplyOutbox.ReplyTarget target = (session, buffer, offset, length) -> {
            if (session == 5 && !connected[0]) {
                return ReplyOutbox.ReplyTarget.NOT_CONNECTED;
            }
            sent.add(session + ":" + buffer.getLong(offset + CommandWireFormat.REPLY_HEADER_LENGTH));
            return ReplyOutbox.ReplyTarget.SENT;
        };
        // two buffers only: a stage could not queue the third reply if the waiting ones held theirs
        outbox.reply(command(5, 1), writer, 51L);
        outbox.reply(command(6, 1), writer, 61L);
        assertEquals(1, outbox.deliver(target));
        outbox.reply(command(5, 2), writer, 52L);
        outbox.reply(command(6, 2), writer, 62L);
        assertEquals(1, outbox.deliver(target));
        assertEquals(List.of("6:61", "6:62"), sent);
        assertFalse(outbox.isIdle(), "session 5's replies wait");
        connected[0] = true;
        outbox.reply(command(5, 3), writer, 53L);
        assertEquals(3, outbox.deliver(target));
        assertEquals(List.of("6:61", "6:62", "5:51", "5:52", "5:53"), sent, "session 5's in the order queued");
        assertTrue(outbox.isIdle());
        assertEquals(5, outbox.delivered());
    }

    @Test
    void aReplyQueuedForAWaitingSessionWaitsBehindItsOlderReplies() {
        final ReplyOutbox outbox = new ReplyOutbox(4, 8);
        outbox.bindServiceThread(Thread.currentThread());
        final ReplyWriter<Long> writer = (b, o, v) -> {
            b.putLong(o, v);
            return 8;
        };
        final int[] refusals = {1};
        final List<Long> sent = new ArrayList<>();
        final ReplyOutbox.ReplyTarget target = (session, buffer, offset, length) -> {
            if (refusals[0]-- > 0) {
                return ReplyOutbox.ReplyTarget.NOT_CONNECTED;
            }
            sent.add(buffer.getLong(offset + CommandWireFormat.REPLY_HEADER_LENGTH));
            return ReplyOutbox.ReplyTarget.SENT;
        };
        outbox.reply(command(5, 1), writer, 1L);
        outbox.reply(command(5, 2), writer, 2L);
        // the first is refused; the second must not overtake it although the session now takes replies
        assertEquals(0, outbox.deliver(target));
        assertEquals(List.of(), sent);
        assertEquals(2, outbox.deliver(target));
        assertEquals(List.of(1L, 2L), sent);
    }

    @Test
    void aWaitingReplyWhoseSessionClosesIsCountedUndeliverable() {
        final ReplyOutbox outbox = new ReplyOutbox(2, 8);
        outbox.bindServiceThread(Thread.currentThread());
        outbox.reply(command(5, 1), (b, o, v) -> 0, null);
        assertEquals(0, outbox.deliver((s, b, o, l) -> ReplyOutbox.ReplyTarget.NOT_CONNECTED));
        assertEquals(1, outbox.deliver((s, b, o, l) -> ReplyOutbox.ReplyTarget.GONE));
        assertEquals(1, outbox.undeliverable());
        assertTrue(outbox.isIdle());
    }

    @Test
    void aReplyToASessionThatIsGoneIsCountedAndItsBufferReused() {
        final ReplyOutbox outbox = new ReplyOutbox(2, 8);
        outbox.bindServiceThread(Thread.currentThread());
        for (int round = 0; round < 5; round++) {
            outbox.reply(command(5, round + 1), (b, o, v) -> 0, null);
            outbox.reply(command(5, round + 1), (b, o, v) -> 0, null);
            assertEquals(2, outbox.deliver((s, b, o, l) -> ReplyOutbox.ReplyTarget.GONE));
        }
        assertEquals(10, outbox.undeliverable());
    }

    @Test
    void aWriterThatOverrunsTheMaximumIsRefusedWithTheLimit() {
        final ReplyOutbox outbox = new ReplyOutbox(2, 8);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> outbox.reply(command(5, 1), (b, o, v) -> 9, null));
        assertTrue(e.getMessage().contains("expected 0 to 8"), e.getMessage());
    }

    @Test
    void badSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReplyOutbox(3, 8));
        assertThrows(IllegalArgumentException.class, () -> new ReplyOutbox(4, 0));
    }

    /** The seeded bug: a stage thread offers replies itself instead of queueing them. */
    @Test
    void theThreadCheckCatchesRepliesOfferedFromAStageThread() throws InterruptedException {
        final ReplyOutbox outbox = new ReplyOutbox(2, 8);
        outbox.bindServiceThread(Thread.currentThread());
        outbox.reply(command(5, 1), (b, o, v) -> 0, null);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread stage = new Thread(() -> {
            try {
                outbox.deliver((s, b, o, l) -> ReplyOutbox.ReplyTarget.SENT);
            } catch (final Throwable t) {
                failure.set(t);
            }
        }, "stage-reply");
        stage.start();
        stage.join();
        assertTrue(failure.get() instanceof IllegalStateException, String.valueOf(failure.get()));
        assertTrue(failure.get().getMessage().contains("not on 'stage-reply'"), failure.get().getMessage());
        assertEquals(0, outbox.delivered());
    }

    @Test
    void aStageThatOffersRepliesItselfHasItsCommandRejected(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir) {
        try (SingleMember cluster = new SingleMember(dir, 21300)) {
            cluster.start(PipelineClusteredService.builder(Amount::new)
                    .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                    .pipeline((pipeline, outbox, states) -> {
                        pipeline.handleEventsWith((command, sequence, endOfBatch) -> {
                            // the seeded bug: the stage offers replies itself
                            outbox.deliver((s, b, o, l) -> ReplyOutbox.ReplyTarget.SENT);
                            outbox.reply(command, (b, o, a) -> 0, null);
                        });
                    }).build());
            final java.util.List<String> answers = new java.util.concurrent.CopyOnWriteArrayList<>();
            try (ClusterCommandClient client = cluster.client(1, (id, status, buffer, offset, length) ->
                    answers.add(status + " " + buffer.getStringWithoutLengthUtf8(offset, length)))) {
                SingleMember.sendAll(client, 1);
            }
            // the thread check threw in the stage: on every member alike, so the command is rejected
            assertEquals(1, answers.size(), answers.toString());
            assertTrue(answers.get(0).startsWith(CommandWireFormat.STATUS_REJECTED + " java.lang.IllegalStateException")
                    && answers.get(0).contains("only, not on"), answers.get(0));
            assertTrue(cluster.service.pipeline().failures().isEmpty(), "the member goes on");
        }
    }
}
