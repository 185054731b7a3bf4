package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

/**
 * Spins for a number of tries, then calls {@link Thread#yield()} between reads: low latency
 * (a few microseconds at worst) when there are at least as many cores as busy threads, yet it
 * lets other runnable threads onto the core, so it degrades gracefully when the machine is
 * oversubscribed. While idle it still keeps its core 100% busy if nothing else wants to run
 * (yield returns at once), so it suits dedicated machines, not shared ones.
 *
 * <p>The spin tries re-read without {@link Thread#onSpinWait()}, so that 100 tries last a few
 * hundred nanoseconds and a caught-up consumer soon yields, leaving the cursor's line to the
 * producer while it fills a batch. With a pause per try the consumer took events one at a time
 * and pulled the line away each time, moving fewer events per second (figures in
 * {@code docs/benchmarks/history/speed-study.md}). {@link BusySpinWaitStrategy} keeps the pause.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new YieldingWaitStrategy();      // 100 spins, then yield
 * WaitStrategy shortSpin = new YieldingWaitStrategy(10);       // yield sooner
 * }</pre>
 */
public final class YieldingWaitStrategy implements WaitStrategy {
    /** Spins before the first yield when none is given. */
    public static final int DEFAULT_SPIN_TRIES = 100;

    private final int spinTries;

    /** Creates the strategy with {@value #DEFAULT_SPIN_TRIES} spins before yielding. */
    public YieldingWaitStrategy() {
        this(DEFAULT_SPIN_TRIES);
    }

    /**
     * Creates the strategy.
     *
     * @param spinTries how many times to spin before the first yield, {@code >= 0}
     * @throws IllegalArgumentException if {@code spinTries} is negative
     */
    public YieldingWaitStrategy(final int spinTries) {
        this.spinTries = Checks.nonNegative("spinTries", spinTries);
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException {
        long available;
        int spinsLeft = spinTries;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (spinsLeft > 0) {
                // no pause instruction: see the class comment
                spinsLeft--;
            } else {
                Thread.yield();
            }
        }
        return available;
    }

    /** Does nothing: a yielding consumer notices a publication by itself. */
    @Override
    public void signalAllWhenBlocking() {
    }

    @Override
    public String toString() {
        return "YieldingWaitStrategy[spinTries=" + spinTries + "]";
    }
}
