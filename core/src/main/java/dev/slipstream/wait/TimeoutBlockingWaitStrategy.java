package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Waits like {@link BlockingWaitStrategy} (asleep on a condition, no CPU while idle) but gives
 * up after a timeout, throwing {@link TimeoutException#INSTANCE}; a batch event processor turns
 * that into {@code EventHandler.onTimeout}, which suits stages that must act when the stream goes
 * quiet (flush a buffer, send a heartbeat). The timeout covers the whole wait, upstream stages
 * included; while idle it wakes once per timeout. Producers signal as {@link BlockingWaitStrategy}'s do.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new TimeoutBlockingWaitStrategy(Duration.ofMillis(10));
 * EventHandler<Trade> journal = new EventHandler<>() {
 *     public void onEvent(Trade t, long seq, boolean endOfBatch) { buffer(t); }
 *     public void onTimeout(long seq) { flush(); }      // nothing arrived for 10 ms
 * };
 * }</pre>
 */
public final class TimeoutBlockingWaitStrategy implements WaitStrategy {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();
    /** Who sleeps on the condition; see {@link SleeperCount} for the handshake and its ordering. */
    private final SleeperCount sleepers = new SleeperCount();
    private final long timeoutNanos;

    /**
     * Creates the strategy.
     *
     * @param timeout how long one wait may last, {@code > 0}
     * @param unit the unit of {@code timeout}
     * @throws IllegalArgumentException if {@code timeout} is not positive
     * @throws NullPointerException if {@code unit} is null
     */
    public TimeoutBlockingWaitStrategy(final long timeout, final TimeUnit unit) {
        this.timeoutNanos = Objects.requireNonNull(unit, "unit must not be null")
                .toNanos(Checks.positive("timeout", timeout));
    }

    /**
     * Creates the strategy.
     *
     * @param timeout how long one wait may last, positive
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     * @throws NullPointerException if {@code timeout} is null
     */
    public TimeoutBlockingWaitStrategy(final Duration timeout) {
        this.timeoutNanos = Checks.positiveNanos("timeout", timeout);
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException {
        // deadlines are compared by subtraction, which stays right when nanoTime + timeout wraps
        final long deadline = System.nanoTime() + timeoutNanos;
        // acquire: fast path, no lock and no count when the cursor is already there
        if (cursor.get() < sequence) {
            lock.lock();
            try {
                // counted again each round, as in BlockingWaitStrategy; a timeout, too, leaves
                // this round's count in: one needless signal, never a lost one
                while (!sleepers.countInUnlessReached(sequence, cursor, barrier)) {
                    final long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        sleepers.countOut();
                        throw TimeoutException.INSTANCE;
                    }
                    published.awaitNanos(left);
                }
            } finally {
                lock.unlock();
            }
        }
        return UpstreamWait.await(sequence, dependentSequence, barrier, deadline);
    }

    /** Wakes every consumer sleeping on the condition; the lock is taken only if one sleeps. */
    @Override
    public void signalAllWhenBlocking() {
        if (sleepers.anyAsleep()) {
            lock.lock();
            try {
                sleepers.reset();
                published.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public String toString() {
        return "TimeoutBlockingWaitStrategy[timeoutNanos=" + timeoutNanos + "]";
    }
}
