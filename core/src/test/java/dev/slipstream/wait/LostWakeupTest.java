package dev.slipstream.wait;

import dev.slipstream.sequence.WaitStrategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Ping-pong between two threads through strategies that park at once: each round trip makes
 * both sides park and be woken. A single lost wake-up leaves both parked, and the test times out.
 */
class LostWakeupTest {
    private static final int ROUNDS = 10_000;

    static Stream<Arguments> parkingStrategies() {
        return Stream.of(
                Arguments.of("hybrid", (Supplier<WaitStrategy>) () -> new HybridWaitStrategy(0, 0, 1_000)),
                Arguments.of("lite-blocking", (Supplier<WaitStrategy>) LiteBlockingWaitStrategy::new),
                Arguments.of("blocking", (Supplier<WaitStrategy>) BlockingWaitStrategy::new),
                Arguments.of("phased-lite", (Supplier<WaitStrategy>) () -> new PhasedBackoffWaitStrategy(
                        Duration.ZERO, Duration.ZERO, new LiteBlockingWaitStrategy())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parkingStrategies")
    void noWakeUpIsLostInAParkingPingPong(final String name, final Supplier<WaitStrategy> factory) throws Exception {
        final TestBarrier ping = new TestBarrier(factory.get());
        final TestBarrier pong = new TestBarrier(factory.get());
        final CompletableFuture<Long> ponger = onDaemonThread(() -> {
            long sum = 0;
            for (int i = 0; i < ROUNDS; i++) {
                sum += ping.waitFor(i);
                pong.publish(i);
            }
            return sum;
        });
        final CompletableFuture<Long> pinger = onDaemonThread(() -> {
            long sum = 0;
            for (int i = 0; i < ROUNDS; i++) {
                ping.publish(i);
                sum += pong.waitFor(i);
            }
            return sum;
        });
        final long expected = (long) ROUNDS * (ROUNDS - 1) / 2;
        // a lost wake-up leaves both threads parked: the get() times out and the test fails
        assertEquals(expected, pinger.get(60, TimeUnit.SECONDS));
        assertEquals(expected, ponger.get(60, TimeUnit.SECONDS));
    }

    private interface Side {
        long run() throws Exception;
    }

    private static CompletableFuture<Long> onDaemonThread(final Side side) {
        final CompletableFuture<Long> result = new CompletableFuture<>();
        final Thread thread = new Thread(() -> {
            try {
                result.complete(side.run());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        thread.setDaemon(true);
        thread.start();
        return result;
    }
}
