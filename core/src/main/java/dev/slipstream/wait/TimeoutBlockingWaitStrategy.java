package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

abstract class TimeoutBlockingLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

abstract class TimeoutBlockingSleepers extends TimeoutBlockingLhsPadding {
    /**
     * Consumers that went to sleep since the last signal (more after a timeout or a spurious
     * wake-up, never fewer); changed only under the lock.
     */
    volatile long sleepers;
}

abstract class TimeoutBlockingRhsPadding extends TimeoutBlockingSleepers {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * Waits like {@link BlockingWaitStrategy} (asleep on a condition, no CPU while idle) but gives
 * up after a timeout, throwing {@link TimeoutException#INSTANCE}; a batch event processor turns
 * that into {@code EventHandler.onTimeout}, which suits stages that must act when the stream goes
 * quiet (flush a buffer, send a heartbeat). The timeout covers the whole wait, including the
 * wait for slow upstream stages after the cursor has moved. While idle it wakes once per timeout.
 * Producers take the lock the way {@link BlockingWaitStrategy} takes its monitor: only when a
 * consumer has gone to sleep since the last signal; otherwise a publish costs a fence and a load.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new TimeoutBlockingWaitStrategy(Duration.ofMillis(10));
 * EventHandler<Trade> journal = new EventHandler<>() {
 *     public void onEvent(Trade t, long seq, boolean endOfBatch) { buffer(t); }
 *     public void onTimeout(long seq) { flush(); }      // nothing arrived for 10 ms
 * };
 * }</pre>
 */
public final class TimeoutBlockingWaitStrategy extends TimeoutBlockingRhsPadding implements WaitStrategy {
    private static final VarHandle SLEEPERS;

    static {
        try {
            SLEEPERS = MethodHandles.lookup()
                    .findVarHandle(TimeoutBlockingSleepers.class, "sleepers", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
        // acquire: fast path, no lock and no count when the cursor is already there
        if (cursor.get() < sequence) {
            lock.lock();
            try {
                while (true) {
                    // volatile store of the count, full fence, then the volatile re-check of the
                    // cursor: the StoreLoad pair of BlockingWaitStrategy. Either this re-check sees
                    // the publish, or the producer sees the count and signals under the lock, so
                    // not before awaitNanos() below has released it.
                    SLEEPERS.setVolatile(this, sleepers + 1L);
                    VarHandle.fullFence();
                    if (cursor.getVolatile() >= sequence) {
                        // not sleeping after all: take this round's count back (a signaller zeroes
                        // the count only under the lock, held here since the count went up)
                        SLEEPERS.setVolatile(this, sleepers - 1L);
                        break;
                    }
                    if (barrier.isAlerted()) {
                        SLEEPERS.setVolatile(this, sleepers - 1L);
                        barrier.checkAlert();
                    }
                    final long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        SLEEPERS.setVolatile(this, sleepers - 1L);
                        throw TimeoutException.INSTANCE;
                    }
                    // A signaller zeroes the count as it wakes every waiter, so a woken thread
                    // counts itself again before it sleeps again. A timeout, a spurious wake-up or
                    // an interrupt leaves this round's count in: one needless signal, never a lost one.
                    published.awaitNanos(left);
                }
            } finally {
                lock.unlock();
            }
        }
        return UpstreamWait.await(sequence, dependentSequence, barrier, deadline);
    }

    /**
     * Wakes every consumer sleeping on the condition. Takes the lock only when a consumer has gone
     * to sleep since the last signal; otherwise it costs a full fence and one load.
     */
    @Override
    public void signalAllWhenBlocking() {
        // full fence (StoreLoad): the caller's publishing store is visible before the count is read
        VarHandle.fullFence();
        if ((long) SLEEPERS.getVolatile(this) != 0L) {
            lock.lock();
            try {
                // volatile store under the lock: every sleeper is woken here, so until one of them
                // (or another consumer) counts itself again, publishes skip the lock
                SLEEPERS.setVolatile(this, 0L);
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
