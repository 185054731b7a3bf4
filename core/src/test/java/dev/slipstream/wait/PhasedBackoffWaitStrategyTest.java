package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PhasedBackoffWaitStrategyTest {

    /** A fallback that records that it was reached, then waits like the blocking strategy. */
    private static final class RecordingFallback implements WaitStrategy {
        final BlockingWaitStrategy delegate = new BlockingWaitStrategy();
        final AtomicInteger waits = new AtomicInteger();
        final AtomicInteger signals = new AtomicInteger();

        @Override
        public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                            final SequenceBarrier barrier) throws AlertException, InterruptedException {
            waits.incrementAndGet();
            return delegate.waitFor(sequence, cursor, dependentSequence, barrier);
        }

        @Override
        public void signalAllWhenBlocking() {
            signals.incrementAndGet();
            delegate.signalAllWhenBlocking();
        }
    }

    @Test
    void handsTheWaitToTheFallbackAfterSpinningAndYielding() throws Exception {
        final RecordingFallback fallback = new RecordingFallback();
        final TestBarrier barrier = new TestBarrier(new PhasedBackoffWaitStrategy(
                Duration.ofNanos(50_000), Duration.ofNanos(50_000), fallback));
        final Waiter waiter = Waiter.start(barrier, 0).awaitAsleep();   // asleep: only the fallback sleeps
        assertEquals(1, fallback.waits.get());
        barrier.publish(0);
        assertEquals(0, waiter.get());
        assertTrue(fallback.signals.get() >= 1, "the producer's signal reached the fallback");
    }

    @Test
    void doesNotReachTheFallbackWhenTheEventIsAlreadyThere() throws Exception {
        final RecordingFallback fallback = new RecordingFallback();
        final TestBarrier barrier = new TestBarrier(new PhasedBackoffWaitStrategy(
                Duration.ofSeconds(1), Duration.ofSeconds(1), fallback));
        barrier.cursor.set(3);
        assertEquals(3, barrier.waitFor(2));
        assertEquals(0, fallback.waits.get());
    }

    @Test
    void factoriesPickTheirFallback() {
        final Duration d = Duration.ofNanos(10);
        assertTrue(PhasedBackoffWaitStrategy.withLock(d, d).toString().contains("fallback=BlockingWaitStrategy"));
        assertTrue(PhasedBackoffWaitStrategy.withLiteLock(d, d).toString().contains("fallback=LiteBlockingWaitStrategy"));
        assertTrue(PhasedBackoffWaitStrategy.withSleep(d, d).toString().contains("fallback=SleepingWaitStrategy"));
    }

    @Test
    void aHugeDurationSaturatesInsteadOfOverflowing() {
        final PhasedBackoffWaitStrategy strategy = new PhasedBackoffWaitStrategy(
                Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE), new BlockingWaitStrategy());
        assertTrue(strategy.toString().contains("spinAndYieldNanos=" + Long.MAX_VALUE), strategy.toString());
    }
}
