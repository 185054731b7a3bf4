package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.PriorityHeapTimerServiceSupplier;
import io.aeron.cluster.WheelTimerServiceSupplier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timer service a member's consensus module uses is the one its config names. */
class MemberConfigTimersTest {
    @TempDir
    Path dir;

    @Test
    void aConfigHasAeronsTimerWheelUnlessToldOtherwise() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21900"), dir);
        assertEquals(MemberConfig.TimerService.WHEEL, config.timerService());
        assertEquals(Duration.ofMillis(8), config.timerWheelTick());
        assertEquals(config, new MemberConfig(0, List.of("localhost:21900"), dir,
                MemberConfig.DEFAULT_LEADER_HEARTBEAT_TIMEOUT, MemberConfig.DEFAULT_SESSION_TIMEOUT));
    }

    @Test
    void theWithersKeepWhatTheyDoNotChange() {
        final MemberConfig heap = MemberConfig.of(0, List.of("localhost:21900"), dir).withPriorityHeapTimers()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(4));
        assertEquals(MemberConfig.TimerService.PRIORITY_HEAP, heap.timerService());
        assertEquals(Duration.ofSeconds(3), heap.leaderHeartbeatTimeout());
        final MemberConfig wheel = heap.withTimerWheelTick(Duration.ofMillis(2));
        assertEquals(MemberConfig.TimerService.WHEEL, wheel.timerService());
        assertEquals(Duration.ofMillis(2), wheel.timerWheelTick());
        assertEquals(Duration.ofSeconds(4), wheel.sessionTimeout());
    }

    @Test
    void aTickUnderAMillisecondOrMissingIsRefused() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21900"), dir);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> config.withTimerWheelTick(Duration.ofNanos(500_000)));
        assertTrue(e.getMessage().contains("timerWheelTick must be at least 1 ms"), e.getMessage());
        assertThrows(NullPointerException.class, () -> config.withTimerWheelTick(null));
        assertThrows(NullPointerException.class, () -> new MemberConfig(0, List.of("localhost:21900"), dir,
                Duration.ofSeconds(1), Duration.ofSeconds(1), null, Duration.ofMillis(8)));
    }

    @Test
    void aMemberUsesTheWheelTickOfItsConfig() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21910"), dir.resolve("m"))
                .withTimerWheelTick(Duration.ofMillis(1));
        try (ClusterMember member = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
            awaitLeader(member);
            final ConsensusModule.Context context = member.consensusModuleContext();
            assertEquals(TimeUnit.MILLISECONDS.toNanos(1), context.wheelTickResolutionNs());
            assertInstanceOf(WheelTimerServiceSupplier.class, context.timerServiceSupplier());
        }
    }

    @Test
    void aMemberUsesAPriorityHeapWhenItsConfigSaysSo() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21920"), dir.resolve("m"))
                .withPriorityHeapTimers();
        try (ClusterMember member = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
            awaitLeader(member);
            assertInstanceOf(PriorityHeapTimerServiceSupplier.class, member.consensusModuleContext()
                    .timerServiceSupplier());
        }
    }

    /** Closing a member still recovering its log waits for its agents to time out: let it lead first. */
    private static void awaitLeader(final ClusterMember member) {
        Await.until("the member to lead", SingleMember.LIMIT, () -> { },
                () -> member.role() == io.aeron.cluster.service.Cluster.Role.LEADER);
    }
}
