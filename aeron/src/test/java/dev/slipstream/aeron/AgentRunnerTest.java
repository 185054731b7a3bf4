package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.HybridWaitStrategy;
import io.aeron.ExclusivePublication;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The receiver composed with another agent under one AgentRunner, as a user would. */
class AgentRunnerTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void receiverRunsInACompositeAgentAndStopsWithItsRunner() throws Exception {
        try (EmbeddedAeron media = new EmbeddedAeron()) {
            final OrderChecker checker = new OrderChecker(1, 0, 0);
            final Slipstream<TestEvent> receiving = Slipstream.builder(TestEvent::new).name("receiving").ringSize(256)
                    .producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
            receiving.handleEventsWith(checker);
            receiving.start();
            final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, "aeron:ipc", 50,
                    receiving.ringBuffer(), TestEvent.DECODER).build();
            final AtomicInteger otherWork = new AtomicInteger();
            final Agent other = new Agent() {
                @Override
                public int doWork() {
                    otherWork.incrementAndGet();
                    return 0;
                }

                @Override
                public String roleName() {
                    return "other";
                }
            };
            final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace,
                    null, new CompositeAgent(inbound, other));
            AgentRunner.startOnThread(runner);

            final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 50);
            final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
            final TestEvent e = new TestEvent();
            for (int n = 0; n < 5_000; n++) {
                e.number = n;
                e.value = TestEvent.valueOf(0, n);
                outbound.onEvent(e, n, true);
            }
            while (checker.received() < 5_000) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            // close() while the runner polls leaves the subscription to the runner
            inbound.close();
            assertFalse(inbound.subscription().isClosed());
            runner.close();
            assertTrue(inbound.subscription().isClosed(), "the runner's onClose closed the subscription");
            assertTrue(otherWork.get() > 0);
            assertTrue(receiving.shutdown(Duration.ofSeconds(5)).isClean());
            assertTrue(checker.problems().isEmpty(), checker.problems()::toString);
            assertEquals(0, inbound.metrics().gaps());
            assertTrue(inbound.roleName().contains("aeron:ipc") && inbound.roleName().contains("50"));
            publication.close();
        }
    }
}
