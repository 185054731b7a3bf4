package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.logbuffer.Header;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The reply timer is scheduled as a function of the log alone. Aeron Cluster matches the timer
 * events in the log against the timers each member's service schedules, by id; a member whose
 * service scheduled differently from the leader's (its stages faster, or a replay after a
 * restart) has a later timer swallowed as already fired, and the reply it was for never goes
 * out. Here the same log (commands and timer events at fixed cluster times) is fed to a
 * service twice, once with stages that keep up and once with a reply stage held back, against
 * a stub {@link Cluster} that records every timer scheduled: the two records must be equal.
 */
class ReplyTimerTest {
    /** The log: a command ({@code C}) or a reply timer event ({@code T}) at a cluster time in ms. */
    private static final List<String> LOG = List.of("C1000", "C1000", "T1001", "T1002", "C1003", "T1004",
            "T1005", "T1007", "T1011", "T1019", "T1035", "T1067", "T1131", "C1150", "T1151", "T1152", "T1154",
            "T11500");

    @Test
    void theTimersScheduledDependOnTheLogNotOnHowFarThePipelineHasGot() {
        final List<String> keptUp = timersScheduled(false);
        final List<String> heldBack = timersScheduled(true);
        assertFalse(keptUp.isEmpty());
        assertEquals(keptUp, heldBack);
    }

    @Test
    void afterTheLastCommandTheTimerTicksAtGrowingIntervalsAndStops() {
        assertEquals(List.of("1001",  // one tick after the first command; the second finds it armed
                "1002", "1004",  // 1 and 2 ms after it; the command at 1003 finds one due at 1004
                "1005", "1007", "1011", "1019", "1035", "1067", "1131",  // 1, 2, 4, ... 64 ms after it
                "1231",  // at most 100 ms apart
                "1151",  // moved earlier: one tick after the command at 1150
                "1152", "1154", "1158"),  // none once 10 s have passed since the last command
                timersScheduled(false));
    }

    /** Feeds the fixed log to a fresh service and returns the deadlines it scheduled, in order. */
    private static List<String> timersScheduled(final boolean holdBackReplies) {
        final AtomicBoolean held = new AtomicBoolean(holdBackReplies);
        final PipelineClusteredService<Amount> service = PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .pipeline((pipeline, outbox, states) -> {
                    pipeline.handleEventsWith(new Ledger()).then((command, sequence, endOfBatch) -> {
                        while (held.get()) {
                            Thread.yield();
                        }
                        outbox.reply(command, (b, o, a) -> 0, null);
                    });
                }).build();
        final List<String> scheduled = new ArrayList<>();
        final long[] now = {0};
        final ClientSession session = Stubs.session();
        final Cluster cluster = Stubs.cluster(session, (method, args) -> switch (method) {
            case "time" -> now[0];
            case "scheduleTimer" -> {
                scheduled.add(String.valueOf(args[1]));
                yield true;
            }
            default -> throw new UnsupportedOperationException("the stub cluster has no " + method);
        });
        service.onStart(cluster, null);
        final UnsafeBuffer command = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH + 8]);
        final Header header = Stubs.header();
        try {
            long correlationId = 0;
            // the session's hello, at the first command's time: it arms the same reply timer
            Stubs.hello(service, session, 7, Long.parseLong(LOG.get(0).substring(1)));
            for (final String entry : LOG) {
                final long time = Long.parseLong(entry.substring(1));
                now[0] = time;
                if (entry.charAt(0) == 'C') {
                    command.putLong(CommandWireFormat.CLIENT_ID_OFFSET, 7);
                    command.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, ++correlationId);
                    command.putLong(CommandWireFormat.COMMAND_HEADER_LENGTH, correlationId);
                    service.onSessionMessage(session, time, command, 0, command.capacity(), header);
                } else {
                    if (!holdBackReplies) {
                        // every command so far handled by every stage before the event
                        Await.until("the pipeline to catch up", Duration.ofSeconds(30), () -> { },
                                () -> service.pipeline().ringBuffer().getMinimumGatingSequence()
                                        == service.pipeline().ringBuffer().getCursor());
                    }
                    service.onTimerEvent(PipelineClusteredService.REPLY_TIMER_ID, time);
                }
            }
        } finally {
            held.set(false);
            service.onTerminate(cluster);
        }
        return scheduled;
    }
}
