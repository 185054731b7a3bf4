package dev.slipstream.stress.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.stress.TestSize;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.LiteBlockingWaitStrategy;
import dev.slipstream.wait.PhasedBackoffWaitStrategy;
import dev.slipstream.wait.TimeoutBlockingWaitStrategy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No lost wake-up in any parking strategy: ping-pong round trips where every wait races a publish
 * (2,000 in every build, 20,000 with {@code -Pstress}, 200,000 with
 * {@code -Dslipstream.stress.long=true}: {@link TestSize}). The same harness
 * stops within a few round trips on a strategy that re-checks before it announces itself.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("scaled")
class WakeUpPingPongTest {
    private static final long ROUND_TRIPS = TestSize.pick(2_000L, 20_000L, 200_000L);
    private static final long LIMIT = TimeUnit.SECONDS.toNanos(60);

    static Stream<Arguments> parkingStrategies() {
        return Stream.of(
                Arguments.of("blocking", (Supplier<WaitStrategy>) BlockingWaitStrategy::new),
                Arguments.of("lite-blocking", (Supplier<WaitStrategy>) LiteBlockingWaitStrategy::new),
                Arguments.of("hybrid, parks at once", (Supplier<WaitStrategy>) () ->
                        new HybridWaitStrategy(0, 0, HybridWaitStrategy.DEFAULT_UPSTREAM_PARK_NANOS)),
                Arguments.of("hybrid, adaptive", (Supplier<WaitStrategy>) HybridWaitStrategy::new),
                Arguments.of("timeout-blocking", (Supplier<WaitStrategy>) () ->
                        new TimeoutBlockingWaitStrategy(Duration.ofDays(1))),
                Arguments.of("phased, lite lock", (Supplier<WaitStrategy>) () ->
                        PhasedBackoffWaitStrategy.withLiteLock(Duration.ofNanos(1), Duration.ofNanos(2))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parkingStrategies")
    void everyRoundTripCompletes(final String name, final Supplier<WaitStrategy> strategy) throws Exception {
        final long completed = PingPong.run(strategy, ROUND_TRIPS, LIMIT);
        assertEquals(ROUND_TRIPS, completed, name + ": a wake-up was lost after " + completed + " round trips");
    }

    @Test
    @Tag("stress")
    void theHarnessCatchesAStrategyThatReChecksBeforeItAnnouncesItself() throws Exception {
        assertCaught("late-registering", LateRegisteringWait::new);
    }

    @Test
    @Tag("stress")
    void theHarnessCatchesABlockingStrategyThatZeroesItsSleeperCountOutsideTheMonitor() throws Exception {
        // BlockingWaitStrategy's signaller zeroes the count under the monitor; this copy does it
        // after releasing it, so a consumer that went back to sleep in between loses its count
        assertCaught("reset-after-release", ResetAfterReleaseBlockingWait::new);
    }

    /** Runs the harness on a mutant until it loses a wake-up; fails if 20 attempts all complete. */
    private static void assertCaught(final String mutant, final Supplier<WaitStrategy> strategy) throws Exception {
        // each attempt is a fresh pair of rings; one lost wake-up in any attempt is the catch
        for (int attempt = 1; attempt <= 20; attempt++) {
            final long completed = PingPong.run(strategy, ROUND_TRIPS, TimeUnit.SECONDS.toNanos(3));
            if (completed < ROUND_TRIPS) {
                System.out.println(mutant + " mutant stopped after " + completed + " round trips, attempt " + attempt);
                return;
            }
        }
        fail("the " + mutant + " mutant completed every round trip of 20 attempts");
    }
}
