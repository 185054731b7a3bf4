package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/** 120 bytes before the waiter count. */
abstract class QueueSignalPad0 {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** Threads waiting on this signal; read by every signalling operation, written by waiters only. */
abstract class QueueSignalWaiting extends QueueSignalPad0 {
    int waiting;
}

/** 120 bytes after the waiter count. */
abstract class QueueSignalPad1 extends QueueSignalWaiting {
    int pi1;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/**
 * One condition of a blocking queue ("not empty" or "not full") waited on with a
 * {@link WaitStrategy} instead of a lock.
 *
 * <p>A waiter registers (count + 1), reads the event counter, re-checks the queue, and waits with
 * the strategy for the counter to pass what it read. An operation that may release waiters (an
 * offer for "not empty", a poll for "not full") reads the waiter count after it completes, and
 * only if it is not zero moves the counter and calls
 * {@link WaitStrategy#signalAllWhenBlocking()}. The waiter's count increment and the operation's
 * completion are both volatile writes, each followed by a volatile read of the other's variable:
 * at least one side sees the other, so a wake-up is never lost.
 *
 * <p>Cost: while nobody waits, one volatile load of a cache line only waiters write. While
 * someone waits, an atomic increment and the strategy's signal per operation.
 *
 * <p>Timed waits cannot use the strategy: {@code WaitStrategy.waitFor} has no deadline, and a
 * parked waiter would sleep past it until the next signal. They follow the back-off
 * {@link #TIMED_WAIT} (spin, yield, then park in slices of at most {@link #MAX_TIMED_PARK_NANOS}),
 * so a timed waiter notices an operation within that slice.
 */
final class QueueSignal extends QueueSignalPad1 {
    /** The longest a timed waiter sleeps before looking again: 100 µs. */
    static final long MAX_TIMED_PARK_NANOS = 100_000L;
    /**
     * A timed waiter's back-off: 200 spins, 20 yields, then parks from 5 µs doubling up to
     * {@link #MAX_TIMED_PARK_NANOS}, each cut to what is left of the timeout. Shared: each wait
     * counts its own attempts.
     */
    private static final Backoff TIMED_WAIT = new Backoff(200, 20, 5_000L, MAX_TIMED_PARK_NANOS);

    private static final VarHandle WAITING = FieldHandles.of(QueueSignalWaiting.class, "waiting", int.class);

    /** Moves once per signalling operation that found a waiter; starts at 0. */
    private final Sequence events = new Sequence(0L);
    private final WaitStrategy strategy;

    QueueSignal(final WaitStrategy strategy) {
        this.strategy = Objects.requireNonNull(strategy, "waitStrategy must not be null");
    }

    WaitStrategy strategy() {
        return strategy;
    }

    /** The counter waiters wait on, for owners that call the strategy themselves. */
    Sequence events() {
        return events;
    }

    /** Called after an operation that may let a waiter proceed. */
    void signal() {
        // volatile, after the operation's last volatile write: sees a waiter that registered
        // before that write (StoreLoad on both sides)
        if (lvWaiting() != 0) {
            // volatile FAA: the counter the waiters wait on moves past what they read
            events.incrementAndGet();
            strategy.signalAllWhenBlocking();
        }
    }

    /** Announces a waiter; call before {@link #seen()} and the re-check of the queue. */
    void register() {
        // a signalling operation that completes after this sees the waiter
        faaWaiting(1);
    }

    /** Withdraws a waiter registered with {@link #register()}. */
    void deregister() {
        faaWaiting(-1);
    }

    private int lvWaiting() {
        return (int) WAITING.getVolatile(this);
    }

    private void faaWaiting(final int delta) {
        WAITING.getAndAdd(this, delta);
    }

    /** The event counter, read before the waiter re-checks the queue. */
    long seen() {
        // ordered after register() and before the re-check
        return events.getVolatile();
    }

    /**
     * Waits with the strategy until a signal moves the counter past {@code seen}.
     *
     * @throws InterruptedException if the thread is interrupted (checked by the barrier in the
     *     strategy's loop, or by a parked strategy)
     */
    void await(final long seen) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        try {
            strategy.waitFor(seen + 1, events, events, InterruptBarrier.INSTANCE);
        } catch (AlertException e) {
            Thread.interrupted();
            throw new InterruptedException();
        } catch (TimeoutException e) {
            // a timing-out strategy gave up: the caller looks at its queue and waits again
        }
    }

    /**
     * Waits until a signal moves the counter past {@code seen} or {@code nanos} have passed since
     * {@code start} ({@link System#nanoTime()}). Counts elapsed time, never a deadline, so no
     * timeout from 0 to {@link Long#MAX_VALUE} nanoseconds overflows.
     *
     * @param nanos the timeout, {@code >= 0}
     * @return false if the timeout passed
     * @throws InterruptedException if the thread is interrupted
     */
    boolean awaitNanos(final long seen, final long start, final long nanos) throws InterruptedException {
        long attempt = 0;
        // as in seen()
        while (events.getVolatile() == seen) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            // elapsed is small and non-negative, so the difference cannot overflow
            final long remaining = nanos - (System.nanoTime() - start);
            if (remaining <= 0) {
                return false;
            }
            TIMED_WAIT.idleAt(attempt++, remaining);
        }
        return true;
    }

    /**
     * The barrier a blocked queue operation waits with: alerted while the waiting thread is
     * interrupted, so that strategies which never park still let {@code take} be interrupted.
     */
    enum InterruptBarrier implements SequenceBarrier {
        INSTANCE;

        @Override
        public long waitFor(final long sequence) {
            throw new UnsupportedOperationException("only checkAlert() is used by queue waits");
        }

        @Override
        public long getCursor() {
            return -1L;
        }

        @Override
        public boolean isAlerted() {
            return Thread.currentThread().isInterrupted();
        }

        @Override
        public void alert() {
            throw new UnsupportedOperationException("interrupt the waiting thread instead");
        }

        @Override
        public void clearAlert() {
            // the interrupt status is cleared by the wait that reports it
        }

        @Override
        public void checkAlert() throws AlertException {
            if (Thread.currentThread().isInterrupted()) {
                throw AlertException.INSTANCE;
            }
        }
    }
}
