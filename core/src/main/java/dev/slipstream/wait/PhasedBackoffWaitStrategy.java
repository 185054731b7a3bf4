package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

import java.time.Duration;
import java.util.Objects;

/**
 * Spins for a set time, then yields for a set time, then hands the wait to a fallback strategy
 * (blocking, lite-blocking or sleeping): phases measured in time rather than tries, so the
 * behaviour does not depend on how fast a spin is on the machine at hand. Use it when you know
 * how long a producer usually takes to publish again (spin through that) and want no CPU burnt
 * beyond it; while idle it burns one core for {@code spin + yield} time per wait, then whatever
 * the fallback burns (nothing for the blocking ones). Producers' signals go to the fallback.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = PhasedBackoffWaitStrategy.withLiteLock(
 *         Duration.ofNanos(20_000), Duration.ofNanos(100_000));   // 20 us spin, 100 us yield
 * WaitStrategy custom = new PhasedBackoffWaitStrategy(
 *         Duration.ofNanos(5_000), Duration.ZERO, new SleepingWaitStrategy());
 * }</pre>
 */
public final class PhasedBackoffWaitStrategy implements WaitStrategy {
    /** Spins between two readings of the clock: nanoTime costs some tens of nanoseconds. */
    private static final int SPINS_PER_CLOCK_READ = 64;

    private final long spinNanos;
    private final long spinAndYieldNanos;
    private final WaitStrategy fallback;

    /**
     * Creates the strategy.
     *
     * @param spinTimeout how long to spin, {@code >= 0}
     * @param yieldTimeout how long to yield after spinning, {@code >= 0}
     * @param fallback the strategy that takes over after both phases
     * @throws IllegalArgumentException if a duration is negative
     * @throws NullPointerException if an argument is null
     */
    public PhasedBackoffWaitStrategy(final Duration spinTimeout, final Duration yieldTimeout,
                                     final WaitStrategy fallback) {
        this.spinNanos = Checks.nonNegativeNanos("spinTimeout", spinTimeout);
        this.spinAndYieldNanos = Checks.saturatedAdd(spinNanos, Checks.nonNegativeNanos("yieldTimeout", yieldTimeout));
        this.fallback = Objects.requireNonNull(fallback,
                "fallback must not be null: pass the strategy to use after spinning and yielding");
    }

    /**
     * Spin, yield, then a {@link BlockingWaitStrategy}.
     *
     * @param spinTimeout how long to spin, {@code >= 0}
     * @param yieldTimeout how long to yield, {@code >= 0}
     * @return the strategy
     */
    public static PhasedBackoffWaitStrategy withLock(final Duration spinTimeout, final Duration yieldTimeout) {
        return new PhasedBackoffWaitStrategy(spinTimeout, yieldTimeout, new BlockingWaitStrategy());
    }

    /**
     * Spin, yield, then a {@link LiteBlockingWaitStrategy}.
     *
     * @param spinTimeout how long to spin, {@code >= 0}
     * @param yieldTimeout how long to yield, {@code >= 0}
     * @return the strategy
     */
    public static PhasedBackoffWaitStrategy withLiteLock(final Duration spinTimeout, final Duration yieldTimeout) {
        return new PhasedBackoffWaitStrategy(spinTimeout, yieldTimeout, new LiteBlockingWaitStrategy());
    }

    /**
     * Spin, yield, then a {@link SleepingWaitStrategy} with no further spinning.
     *
     * @param spinTimeout how long to spin, {@code >= 0}
     * @param yieldTimeout how long to yield, {@code >= 0}
     * @return the strategy
     */
    public static PhasedBackoffWaitStrategy withSleep(final Duration spinTimeout, final Duration yieldTimeout) {
        return new PhasedBackoffWaitStrategy(spinTimeout, yieldTimeout,
                new SleepingWaitStrategy(0, SleepingWaitStrategy.DEFAULT_SLEEP_NANOS));
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException {
        long available = dependentSequence.get();
        if (available >= sequence) {
            return available;
        }
        final long start = System.nanoTime();
        boolean yielding = spinNanos == 0;
        int spinsUntilClock = SPINS_PER_CLOCK_READ;
        while (true) {
            barrier.checkAlert();
            if (yielding) {
                // a yield takes microseconds, so reading the clock each time is cheap by comparison
                if (System.nanoTime() - start >= spinAndYieldNanos) {
                    return fallback.waitFor(sequence, cursor, dependentSequence, barrier);
                }
                Thread.yield();
            } else {
                Thread.onSpinWait();
                if (--spinsUntilClock == 0) {
                    spinsUntilClock = SPINS_PER_CLOCK_READ;
                    yielding = System.nanoTime() - start >= spinNanos;
                }
            }
            available = dependentSequence.get();
            if (available >= sequence) {
                return available;
            }
        }
    }

    /** Passes the signal to the fallback strategy, which is the only phase that can sleep. */
    @Override
    public void signalAllWhenBlocking() {
        fallback.signalAllWhenBlocking();
    }

    @Override
    public String toString() {
        return "PhasedBackoffWaitStrategy[spinNanos=" + spinNanos + ", spinAndYieldNanos="
                + spinAndYieldNanos + ", fallback=" + fallback + "]";
    }
}
