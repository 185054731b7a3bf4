package dev.slipstream.cluster;

import static dev.slipstream.cluster.TimerPipelines.schedule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stage timers through a one-member cluster in this JVM: a command's timer reaches the stages
 * as an event after it, at its cluster time, a cancelled one never does, and a restarted member's
 * stages see the same commands and timer events, at the same times, whether it replays the whole
 * log or starts from a snapshot taken while a timer was pending. The cluster's time unit is
 * Aeron's default, the millisecond.
 */
class StageTimerTest {
    @TempDir
    Path dir;

    private final AtomicReference<SeenEvents> events = new AtomicReference<>();

    @Test
    void aCommandsTimerReachesTheStagesAfterItAtItsClusterTimeAndACancelledOneNever() {
        try (SingleMember cluster = new SingleMember(dir, 21400).start(TimerPipelines.service(events))) {
            final Replies replies = new Replies();
            try (ClusterCommandClient client = cluster.client(1, replies)) {
                SingleMember.sendAll(client, schedule(1, 50));
                assertEquals(1, replies.count.get(1L), "the command's reply, as without timers: one event seen");
                Await.until("timer 1's event", SingleMember.LIMIT, client::poll, () -> events.get().saw("T1:"));
                // timer 2 cancelled before its deadline; timer 3, due no earlier, shows when 2 would have fired
                SingleMember.sendAll(client, schedule(2, 50), -2, schedule(3, 50));
                Await.until("timer 3's event", SingleMember.LIMIT, client::poll, () -> events.get().saw("T3:"));
                // a pending timer 2 would have fired no later than 3, so its event would be in the log before this
                SingleMember.sendAll(client, 0);
            }
            final SeenEvents seen = events.get();
            final List<String> log = List.copyOf(seen.seen);
            assertTrue(log.get(0).startsWith("C10050@") && log.get(1).startsWith("T1:-1001@"),
                    "the command, then its timer's event with the payload the timer payload filled: " + log);
            assertTrue(seen.timeOf("T1:") >= seen.timeOf("C10050@") + 50,
                    "the timer event's cluster time is at or after its deadline: " + log);
            assertTrue(log.indexOf(log.stream().filter(e -> e.startsWith("C30050@")).findFirst().orElseThrow())
                    < log.indexOf(log.stream().filter(e -> e.startsWith("T3:")).findFirst().orElseThrow()), log::toString);
            assertFalse(seen.saw("T2:"), "the cancelled timer fired: " + log);
            assertEquals(7, log.size(), "five commands and two timer events: " + log);
        }
    }

    @Test
    void aMemberRestartedWithoutASnapshotReplaysTheSameCommandsAndTimerEvents() {
        try (SingleMember cluster = new SingleMember(dir, 21410).start(TimerPipelines.service(events))) {
            try (ClusterCommandClient client = cluster.client(1, new Replies())) {
                SingleMember.sendAll(client, schedule(1, 50), schedule(2, 80), schedule(3, 20), -2);
                Await.until("timers 1 and 3", SingleMember.LIMIT, client::poll,
                        () -> events.get().saw("T1:") && events.get().saw("T3:"));
                SingleMember.sendAll(client, schedule(4, 10), 0);
                Await.until("timer 4", SingleMember.LIMIT, client::poll, () -> events.get().saw("T4:"));
            }
            final List<String> before = List.copyOf(events.get().seen);
            assertFalse(events.get().saw("T2:"), before::toString);
            cluster.stop();
            cluster.start(TimerPipelines.service(events));
            final List<String> after = seenAfterOneMoreCommand(cluster, before.size());
            assertEquals(before, after.subList(0, before.size()), "the replayed events");
        }
    }

    @Test
    void aTimerPendingAtASnapshotFiresAfterARestartFromIt() {
        try (SingleMember cluster = new SingleMember(dir, 21420).start(TimerPipelines.service(events))) {
            try (ClusterCommandClient client = cluster.client(1, new Replies())) {
                SingleMember.sendAll(client, schedule(1, 20));
                Await.until("timer 1", SingleMember.LIMIT, client::poll, () -> events.get().saw("T1:"));
                SingleMember.sendAll(client, schedule(2, 3_000));
            }
            cluster.snapshot();
            final List<String> atSnapshot = List.copyOf(events.get().seen);
            assertEquals(3, events.get().atSnapshot, "timer 2 pending at the snapshot: " + atSnapshot);
            cluster.stop();
            // the consensus module restores timer 2 from the snapshot; the service reloads the stage
            cluster.start(TimerPipelines.service(events));
            Await.until("timer 2 after the restart", SingleMember.LIMIT, () -> { }, () -> events.get().saw("T2:"));
            final List<String> after = seenAfterOneMoreCommand(cluster, 4);
            assertEquals(atSnapshot.subList(0, 3), after.subList(0, 3), "the events restored from the snapshot");
            assertTrue(after.get(3).startsWith("T2:-1002@"), after::toString);
            final SeenEvents seen = events.get();
            assertTrue(seen.timeOf("T2:") >= seen.timeOf("C" + schedule(2, 3_000) + "@") + 3_000, after::toString);
        }
    }

    /**
     * Sends one more command (amount 0) from a new client and returns every event the restarted
     * stage saw, checking that its reply counts {@code seenBefore} events and itself: the replay,
     * answered in log order, ended before it and held no event more.
     */
    private List<String> seenAfterOneMoreCommand(final SingleMember cluster, final int seenBefore) {
        final Replies replies = new Replies();
        try (ClusterCommandClient client = cluster.client(2, replies)) {
            SingleMember.sendAll(client, 0);
        }
        final List<String> after = List.copyOf(events.get().seen);
        assertEquals(seenBefore + 1, replies.count.get(1L), "events seen, the last command included: " + after);
        assertTrue(after.get(seenBefore).startsWith("C0@"), after::toString);
        return after;
    }
}
