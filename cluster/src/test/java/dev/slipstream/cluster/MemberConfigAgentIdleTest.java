package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aeron.cluster.service.Cluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a member's agents wait when idle: backing off unless the config says otherwise, and what it says is what runs. */
class MemberConfigAgentIdleTest {
    @TempDir
    Path dir;

    @Test
    void agentsBackOffUnlessToldOtherwiseAndTheWithersKeepIt() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21900"), dir);
        assertEquals(MemberConfig.AgentIdle.BACKOFF, config.agentIdle());
        final MemberConfig spinning = config.withAgentIdle(MemberConfig.AgentIdle.BUSY_SPIN).withFastFailover()
                .withAeronDir(dir.resolve("shm")).withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(5))
                .withPriorityHeapTimers().withStartupCanvassTimeout(Duration.ofSeconds(5));
        assertEquals(MemberConfig.AgentIdle.BUSY_SPIN, spinning.agentIdle());
        assertThrows(NullPointerException.class, () -> config.withAgentIdle(null));
    }

    @Test
    void eachKindMakesAFreshStrategyOfItsOwn() {
        assertInstanceOf(BackoffIdleStrategy.class, MemberConfig.AgentIdle.BACKOFF.newStrategy());
        assertInstanceOf(YieldingIdleStrategy.class, MemberConfig.AgentIdle.YIELDING.newStrategy());
        assertInstanceOf(BusySpinIdleStrategy.class, MemberConfig.AgentIdle.BUSY_SPIN.newStrategy());
        // a back-off keeps its state: two agents must never share one
        assertNotSame(MemberConfig.AgentIdle.BACKOFF.newStrategy(), MemberConfig.AgentIdle.BACKOFF.newStrategy());
    }

    @Test
    void theMembersAgentsWaitAsTheConfigSays() {
        for (final MemberConfig.AgentIdle idle : List.of(MemberConfig.AgentIdle.YIELDING,
                MemberConfig.AgentIdle.BACKOFF)) {
            final MemberConfig config = MemberConfig.of(0, List.of("localhost:21590"), dir.resolve(idle.name()))
                    .withAgentIdle(idle);
            try (ClusterMember member = ClusterMember.start(config,
                    TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
                Await.until("a leader", Duration.ofSeconds(30), () -> { }, () -> member.role() == Cluster.Role.LEADER);
                for (final IdleStrategy strategy : member.agentIdleStrategiesForTests()) {
                    assertEquals(idle.newStrategy().getClass(), strategy.getClass(), idle + ": " + strategy);
                }
            }
        }
    }
}
