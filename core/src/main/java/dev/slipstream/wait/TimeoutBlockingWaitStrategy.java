package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Waits like {@link BlockingWaitStrategy} (asleep on a condition, no CPU while idle) but gives
 * up after a timeout, throwing {@link TimeoutException#INSTANCE}; a batch event processor turns
 * that into {@code EventHandler.onTimeout}, which suits stages that must act when the stream goes
 * quiet (flush a buffer, send a heartbeat). The timeout covers the whole wait, including the
 * wait for slow upstream stages after the cursor has moved. While idle it wakes once per timeout.
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
        if (unit == null) {
            throw new NullPointerException("unit must not be null");
        }
        this.timeoutNanos = unit.toNanos(Checks.positive("timeout", timeout));
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
        // acquire: fast path, no lock when the cursor is already there
        if (cursor.get() < sequence) {
            lock.lock();
            try {
                // Under the lock, as in BlockingWaitStrategy: a signal cannot slip in between
                // this check and awaitNanos().
                while (cursor.get() < sequence) {
                    barrier.checkAlert();
                    final long left = deadline - System.nanoTime();
                    if (left <= 0) {
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

    /** Wakes every consumer sleeping on the condition; takes the lock on every call. */
    @Override
    public void signalAllWhenBlocking() {
        lock.lock();
        try {
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "TimeoutBlockingWaitStrategy[timeoutNanos=" + timeoutNanos + "]";
    }
}
