package dev.slipstream.cluster;

import static dev.slipstream.cluster.TimerPipelines.schedule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.logbuffer.Header;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Stage timers against a stub {@link Cluster} fed a fixed log, so every check is deterministic:
 * timer events reach the stages in log order; the timers scheduled depend on the log alone, not on
 * how far the stages have got (and the check behind that catches a policy that schedules what a
 * stage asked for through a queue); bad ids, schedulers used from a stage thread or after the
 * policy returned, and replies to timer events are refused with the reason.
 */
class StageTimerRulesTest {
    /**
     * The log: a command ({@code C<amount>}) or a timer event ({@code T<id>}) at a cluster time in
     * ms. Timer 1 fires 50 ms after the first command; timer 2, 5 ms after the fourth.
     */
    private static final List<String> LOG = List.of("C" + schedule(1, 50) + "@1000", "C0@1010", "T1@1050",
            "C" + schedule(2, 5) + "@1060", "C0@1062", "T2@1065", "C0@1100");

    /** What one run recorded: the stage's events and the timers scheduled, each after a log entry's index. */
    private record Run(List<String> seen, List<String> scheduled) {
    }

    @Test
    void timerEventsEnterTheRingInLogOrderWithTheirClusterTimeAndFilledPayload() {
        final Run run = feed(TimerPipelines.POLICY, new ConcurrentLinkedQueue<>(), false, false);
        assertEquals(List.of("C10050@1000", "C0@1010", "T1:-1001@1050", "C20005@1060", "C0@1062", "T2:-1002@1065",
                "C0@1100"), run.seen());
        assertEquals(List.of("0:schedule 1@1050", "3:schedule 2@1065"), run.scheduled());
    }

    @Test
    void theTimersScheduledDependOnTheLogNotOnHowFarTheStagesHaveGot() {
        assertTimersFollowTheLog(TimerPipelines.POLICY, new ConcurrentLinkedQueue<>());
    }

    /**
     * The seeded bug: a stage asks for its timers through a queue and the policy schedules what it
     * finds there. When the service thread finds a request depends on the stage's speed: a member
     * whose stages ran ahead of or behind the leader's schedules at other log positions (and a
     * request made after the last command is never scheduled at all).
     */
    @Test
    void theTimerCheckCatchesAStageThatAsksForTimersThroughAQueue() {
        final Queue<long[]> requests = new ConcurrentLinkedQueue<>();
        final TimerPolicy<Amount> fromQueue = (event, timers) -> {
            long[] request;
            while ((request = requests.poll()) != null) {
                timers.schedule(request[0], request[1]);
            }
        };
        assertThrows(AssertionError.class, () -> assertTimersFollowTheLog(fromQueue, requests));
    }

    private static void assertTimersFollowTheLog(final TimerPolicy<Amount> policy, final Queue<long[]> requests) {
        final Run keptUp = feed(policy, requests, false, true);
        requests.clear();
        final Run heldBack = feed(policy, requests, true, true);
        assertFalse(keptUp.scheduled().isEmpty(), "timers scheduled");
        assertEquals(keptUp.scheduled(), heldBack.scheduled(), "timers scheduled, after which log entry");
    }

    @Test
    void aNegativeTimerIdIsRefused() {
        final TimerPolicy<Amount> negative = (event, timers) -> timers.schedule(-5, event.timestamp());
        // the policy's exception is a function of the log: the command is rejected, as for a stage's
        try (StubbedService cluster = new StubbedService(PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .timers(negative, TimerPipelines.PAYLOAD)
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith((event, sequence, endOfBatch) -> { })))) {
            cluster.open(1, null);
            cluster.hello(1, 7);
            cluster.command(1, 7, 1, 10);
            cluster.drain();
            final String answer = cluster.repliesTo(1).get(1);
            assertTrue(answer.startsWith("1:3 java.lang.IllegalArgumentException") && answer.contains("timer -5")
                    && answer.contains("must be 0 or more"), answer);
        }
        // with halting chosen, the member stops
        final TimerPolicy<Amount> negativeCancel = (event, timers) -> timers.cancel(-1);
        try (StubbedService cluster = new StubbedService(PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .timers(negativeCancel, TimerPipelines.PAYLOAD)
                .onCommandException(CommandFailurePolicy.HALT)
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith((event, sequence, endOfBatch) -> { })))) {
            cluster.open(1, null);
            cluster.hello(1, 7);
            final AgentTerminationException stop = assertThrows(AgentTerminationException.class,
                    () -> cluster.command(1, 7, 1, 10));
            assertTrue(stop.getCause() instanceof IllegalArgumentException, String.valueOf(stop.getCause()));
        }
    }

    @Test
    void aTimerScheduledFromAStageThreadIsRefusedNamingTheServiceThread() {
        final AtomicReference<TimerScheduler> kept = new AtomicReference<>();
        final AtomicReference<Throwable> fromStage = new AtomicReference<>();
        final TimerPolicy<Amount> keeping = (event, timers) -> kept.set(timers);
        final Run run = feed(keeping, new ConcurrentLinkedQueue<>(), false, false, (event, outbox) -> {
            if (fromStage.get() == null) {
                try {
                    kept.get().schedule(9, event.timestamp() + 10);
                    fromStage.set(new AssertionError("scheduled from a stage thread"));
                } catch (final IllegalStateException refused) {
                    fromStage.set(refused);
                }
            }
        });
        assertEquals(List.of(), run.scheduled());
        final String message = fromStage.get().getMessage();
        final String serviceThread = Thread.currentThread().getName();
        assertTrue(fromStage.get() instanceof IllegalStateException, message);
        assertTrue(message.contains("only on the cluster's service thread ('" + serviceThread + "')"), message);
        // on the service thread, but after the policy returned
        final IllegalStateException late = assertThrows(IllegalStateException.class, () -> kept.get().cancel(9));
        assertTrue(late.getMessage().contains("outside the TimerPolicy's call"), late.getMessage());
    }

    @Test
    void aTimerEventHasNoClientAndCannotBeAnswered() {
        final AtomicReference<Throwable> reply = new AtomicReference<>();
        final List<String> ids = new ArrayList<>();
        feed(TimerPipelines.POLICY, new ConcurrentLinkedQueue<>(), false, false, (event, outbox) -> {
            if (event.isTimer()) {
                ids.add(event.clusterSessionId() + "/" + event.clientId() + "/" + event.correlationId());
                try {
                    outbox.reply(event, (b, o, a) -> 0, null);
                } catch (final IllegalArgumentException refused) {
                    reply.compareAndSet(null, refused);
                }
            } else {
                final IllegalStateException e = assertThrows(IllegalStateException.class, event::timerId);
                assertTrue(e.getMessage().contains("only a timer event has one"), e.getMessage());
            }
        });
        assertEquals(List.of("-1/-1/-1", "-1/-1/-1"), ids, "session/client/correlation of each timer event");
        assertNotNull(reply.get(), "a reply to a timer event was refused");
        assertTrue(reply.get().getMessage().contains("a timer event has no client session to answer"),
                reply.get().getMessage());
    }

    @Test
    void theBuilderRefusesAMissingPolicyOrPayload() {
        final PipelineClusteredService.Builder<Amount> builder = PipelineClusteredService.builder(Amount::new);
        final NullPointerException noPayload = assertThrows(NullPointerException.class,
                () -> builder.timers(TimerPipelines.POLICY, null));
        assertTrue(noPayload.getMessage().contains("timer payload must not be null"), noPayload.getMessage());
        assertThrows(NullPointerException.class, () -> builder.timers(null, TimerPipelines.PAYLOAD));
    }

    /** A stage's extra work on each event, after the recording stage, with the outbox. */
    @FunctionalInterface
    private interface StageWork {
        void on(ClusterCommand<Amount> event, ReplyOutbox outbox);
    }

    private static Run feed(final TimerPolicy<Amount> policy, final Queue<long[]> requests, final boolean holdBack,
            final boolean waitForStages) {
        return feed(policy, requests, holdBack, waitForStages, (event, outbox) -> { });
    }

    /**
     * Feeds {@link #LOG} to a fresh service with {@code policy}. Its second stage asks for a
     * timer through {@code requests} for each command that schedules one (what the seeded bug's
     * policy reads), answers commands and runs {@code work}; with {@code holdBack} it waits until
     * the log is fed, otherwise, with {@code waitForStages}, every stage handles each entry
     * before the next is fed.
     */
    private static Run feed(final TimerPolicy<Amount> policy, final Queue<long[]> requests, final boolean holdBack,
            final boolean waitForStages, final StageWork work) {
        final AtomicBoolean held = new AtomicBoolean(holdBack);
        final SeenEvents seen = new SeenEvents();
        final PipelineClusteredService<Amount> service = PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .timers(policy, TimerPipelines.PAYLOAD)
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith(seen)
                        .then((event, sequence, endOfBatch) -> {
                            while (held.get()) {
                                Thread.onSpinWait();
                            }
                            if (!event.isTimer()) {
                                final long amount = event.payload().value;
                                if (amount > 0) {
                                    requests.offer(new long[] {amount / 10_000, event.timestamp() + amount % 10_000});
                                }
                                outbox.reply(event, (b, o, a) -> 0, null);
                            }
                            work.on(event, outbox);
                        }))
                .build();
        final List<String> scheduled = new ArrayList<>();
        final int[] entry = {0};
        final ClientSession session = Stubs.session();
        final Cluster cluster = Stubs.cluster(session, (method, args) -> switch (method) {
            case "logPosition" -> 64L * entry[0];
            case "scheduleTimer" -> {
                if ((long) args[0] != PipelineClusteredService.REPLY_TIMER_ID) {
                    scheduled.add(entry[0] + ":schedule " + args[0] + "@" + args[1]);
                }
                yield true;
            }
            case "cancelTimer" -> {
                scheduled.add(entry[0] + ":cancel " + args[0]);
                yield true;
            }
            default -> throw new UnsupportedOperationException("the stub cluster has no " + method);
        });
        service.onStart(cluster, null);
        final UnsafeBuffer command = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH + 8]);
        final Header header = Stubs.header();
        try {
            long correlationId = 0;
            Stubs.hello(service, session, 7, 0);
            for (final String logEntry : LOG) {
                final long time = Long.parseLong(logEntry.substring(logEntry.indexOf('@') + 1));
                final long value = Long.parseLong(logEntry.substring(1, logEntry.indexOf('@')));
                if (waitForStages && !holdBack) {
                    Await.until("the stages to catch up", Duration.ofSeconds(30), () -> { },
                            () -> service.pipeline().ringBuffer().getMinimumGatingSequence()
                                    == service.pipeline().ringBuffer().getCursor());
                }
                if (logEntry.charAt(0) == 'C') {
                    command.putLong(CommandWireFormat.CLIENT_ID_OFFSET, 7);
                    command.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, ++correlationId);
                    command.putLong(CommandWireFormat.COMMAND_HEADER_LENGTH, value);
                    service.onSessionMessage(session, time, command, 0, command.capacity(), header);
                } else {
                    service.onTimerEvent(value, time);
                }
                entry[0]++;
            }
            held.set(false);
            Await.until("the stages to handle the log", Duration.ofSeconds(30), () -> { },
                    () -> seen.seen.size() == LOG.size()
                            && service.pipeline().ringBuffer().getMinimumGatingSequence()
                            == service.pipeline().ringBuffer().getCursor());
        } finally {
            held.set(false);
            service.onTerminate(cluster);
        }
        return new Run(List.copyOf(seen.seen), List.copyOf(scheduled));
    }
}
