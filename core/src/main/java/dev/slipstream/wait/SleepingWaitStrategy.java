package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * Spins, then yields, then sleeps in short {@link LockSupport#parkNanos(long)} naps, and needs
 * no signal from producers (publishing costs them nothing extra): a good fit for consumers off
 * the critical path, such as logging or journalling, where some tens of microseconds of wake-up
 * latency are acceptable. While idle it wakes once per nap, which on Linux is about every 50 to
 * 60 microseconds whatever smaller nap is asked for (timer slack): a few percent of a core.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new SleepingWaitStrategy();             // 200 tries, 100 ns naps
 * WaitStrategy lazier = new SleepingWaitStrategy(50, 100_000);        // 50 tries, 100 us naps
 * }</pre>
 */
public final class SleepingWaitStrategy implements WaitStrategy {
    /** Tries (spins, then yields) before napping, when none is given. */
    public static final int DEFAULT_RETRIES = 200;
    /** Nap length when none is given; the OS usually rounds it up. */
    public static final long DEFAULT_SLEEP_NANOS = 100L;

    private final int retries;
    private final long sleepNanos;
    /** Shared by the consumers: each wait counts its own tries. */
    private final Backoff backoff;

    /** Creates the strategy with {@value #DEFAULT_RETRIES} tries and {@value #DEFAULT_SLEEP_NANOS} ns naps. */
    public SleepingWaitStrategy() {
        this(DEFAULT_RETRIES, DEFAULT_SLEEP_NANOS);
    }

    /**
     * Creates the strategy.
     *
     * @param retries how many times to look before napping: the first half spinning, the second
     *     half yielding, {@code >= 0}
     * @param sleepNanos how long each nap asks for, {@code > 0}
     * @throws IllegalArgumentException if {@code retries} is negative or {@code sleepNanos} is not positive
     */
    public SleepingWaitStrategy(final int retries, final long sleepNanos) {
        this.retries = Checks.nonNegative("retries", retries);
        this.sleepNanos = Checks.positive("sleepNanos", sleepNanos);
        this.backoff = new Backoff(retries - retries / 2, retries / 2, sleepNanos, sleepNanos);
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        long available;
        long tries = 0;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (backoff.idleAt(tries++) == Backoff.Phase.PARK) {
                UpstreamWait.throwIfInterrupted();
            }
        }
        return available;
    }

    /** Does nothing: a sleeping consumer wakes by itself after each nap. */
    @Override
    public void signalAllWhenBlocking() {
    }

    @Override
    public String toString() {
        return "SleepingWaitStrategy[retries=" + retries + ", sleepNanos=" + sleepNanos + "]";
    }
}
