package dev.slipstream.wait;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Bad constructor arguments are rejected with a message that names the argument and the rule. */
class WaitStrategyArgumentsTest {

    private static void rejects(final Class<? extends RuntimeException> type, final String message,
                                final Executable construction) {
        assertEquals(message, assertThrows(type, construction).getMessage());
    }

    @Test
    void yieldingRejectsNegativeSpins() {
        rejects(IllegalArgumentException.class, "spinTries must be >= 0, got -1", () -> new YieldingWaitStrategy(-1));
    }

    @Test
    void sleepingRejectsNegativeRetriesAndNonPositiveSleep() {
        rejects(IllegalArgumentException.class, "retries must be >= 0, got -5", () -> new SleepingWaitStrategy(-5, 100));
        rejects(IllegalArgumentException.class, "sleepNanos must be > 0, got 0", () -> new SleepingWaitStrategy(10, 0));
    }

    @Test
    void timeoutBlockingRejectsNonPositiveTimeoutsAndNulls() {
        rejects(IllegalArgumentException.class, "timeout must be > 0, got 0",
                () -> new TimeoutBlockingWaitStrategy(0, TimeUnit.MILLISECONDS));
        rejects(IllegalArgumentException.class, "timeout must be > 0, got -3",
                () -> new TimeoutBlockingWaitStrategy(-3, TimeUnit.MILLISECONDS));
        rejects(NullPointerException.class, "unit must not be null", () -> new TimeoutBlockingWaitStrategy(1, null));
        rejects(IllegalArgumentException.class, "timeout must be > 0, got PT0S",
                () -> new TimeoutBlockingWaitStrategy(Duration.ZERO));
        rejects(IllegalArgumentException.class, "timeout must be > 0, got PT-1S",
                () -> new TimeoutBlockingWaitStrategy(Duration.ofSeconds(-1)));
        rejects(NullPointerException.class, "timeout must not be null",
                () -> new TimeoutBlockingWaitStrategy((Duration) null));
    }

    @Test
    void phasedBackoffRejectsNegativeDurationsAndNulls() {
        final Duration ok = Duration.ofNanos(1);
        final BlockingWaitStrategy fallback = new BlockingWaitStrategy();
        rejects(IllegalArgumentException.class, "spinTimeout must be >= 0, got PT-0.000000001S",
                () -> new PhasedBackoffWaitStrategy(Duration.ofNanos(-1), ok, fallback));
        rejects(IllegalArgumentException.class, "yieldTimeout must be >= 0, got PT-1S",
                () -> new PhasedBackoffWaitStrategy(ok, Duration.ofSeconds(-1), fallback));
        rejects(NullPointerException.class, "spinTimeout must not be null",
                () -> new PhasedBackoffWaitStrategy(null, ok, fallback));
        rejects(NullPointerException.class, "yieldTimeout must not be null",
                () -> PhasedBackoffWaitStrategy.withLock(ok, null));
        rejects(NullPointerException.class,
                "fallback must not be null: pass the strategy to use after spinning and yielding",
                () -> new PhasedBackoffWaitStrategy(ok, ok, null));
    }

    @Test
    void hybridRejectsNegativeCountsAndNonPositivePark() {
        rejects(IllegalArgumentException.class, "spinTries must be >= 0, got -1", () -> new HybridWaitStrategy(-1, 0, 1));
        rejects(IllegalArgumentException.class, "yieldTries must be >= 0, got -2", () -> new HybridWaitStrategy(0, -2, 1));
        rejects(IllegalArgumentException.class, "upstreamParkNanos must be > 0, got 0",
                () -> new HybridWaitStrategy(0, 0, 0));
        rejects(IllegalArgumentException.class, "maxSpinNanos must be > 0, got 0",
                () -> new HybridWaitStrategy(0, 0L, 0, 1));
    }
}
