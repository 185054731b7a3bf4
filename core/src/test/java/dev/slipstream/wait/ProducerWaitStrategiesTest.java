package dev.slipstream.wait;

import dev.slipstream.sequence.ProducerWaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProducerWaitStrategiesTest {

    /** Each attempt must come back: a producer calls idle() in a loop and re-checks for space. */
    private static void idlesAndReturns(final ProducerWaitStrategy strategy, final int attempts) {
        for (int attempt = 0; attempt < attempts; attempt++) {
            strategy.idle(attempt);
        }
    }

    @Test
    void everyStrategyReturnsFromEachAttempt() {
        idlesAndReturns(ProducerWaitStrategies.busySpin(), 1_000);
        idlesAndReturns(ProducerWaitStrategies.yielding(), 100);
        idlesAndReturns(ProducerWaitStrategies.parking(1_000), 20);
        idlesAndReturns(ProducerWaitStrategies.hybrid(10, 5, 1_000), 40);
        idlesAndReturns(ProducerWaitStrategies.defaultStrategy(), 200);
    }

    @Test
    void aWrappedAttemptCounterParksInsteadOfSpinning() {
        ProducerWaitStrategies.hybrid(Integer.MAX_VALUE, 0, 1_000).idle(Integer.MIN_VALUE);
        ProducerWaitStrategies.defaultStrategy().idle(-1);
    }

    @Test
    void theDefaultIsTheRingsOwnDefault() {
        assertSame(dev.slipstream.sequence.ProducerWaitStrategy.defaultStrategy(),
                ProducerWaitStrategies.defaultStrategy(), "one default for rings and pipelines");
        assertEquals("ProducerWaitStrategy.defaultStrategy(): 100 spins, 10 yields, then parks of 1000 ns doubling"
                + " up to 100000 ns", ProducerWaitStrategies.defaultStrategy().toString());
        assertSame(ProducerWaitStrategies.defaultStrategy(), ProducerWaitStrategies.defaultStrategy());
        assertEquals("ProducerWaitStrategies.hybrid(0, 0, 5000)", ProducerWaitStrategies.parking(5_000).toString());
    }

    @Test
    void badArgumentsAreRejected() {
        assertEquals("nanos must be > 0, got 0",
                assertThrows(IllegalArgumentException.class, () -> ProducerWaitStrategies.parking(0)).getMessage());
        assertEquals("spins must be >= 0, got -1",
                assertThrows(IllegalArgumentException.class, () -> ProducerWaitStrategies.hybrid(-1, 0, 1)).getMessage());
        assertEquals("yields must be >= 0, got -1",
                assertThrows(IllegalArgumentException.class, () -> ProducerWaitStrategies.hybrid(0, -1, 1)).getMessage());
        assertEquals("parkNanos must be > 0, got -7",
                assertThrows(IllegalArgumentException.class, () -> ProducerWaitStrategies.hybrid(0, 0, -7)).getMessage());
    }
}
