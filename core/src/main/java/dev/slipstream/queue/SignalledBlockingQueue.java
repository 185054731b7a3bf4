package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What {@link ScqBlockingQueue}, {@link LscqBlockingQueue} and {@link LprqBlockingQueue}
 * share: a lock-free {@link BatchQueue} inside, takers that wait on a {@link QueueSignal} instead
 * of a lock, timed waits, {@code drainTo} and the read-only {@code Collection} views. The subclasses add how
 * elements go in (a bounded queue's putters wait on a second signal).
 *
 * @param <E> the element type; null elements are rejected
 */
abstract class SignalledBlockingQueue<E> extends PollOnlyQueue<E> implements BlockingQueue<E>, BatchQueue<E> {
    /** The queue that holds the elements; package-private so that tests can reach it. */
    final BatchQueue<E> queue;
    /** Takers wait on it; every successful offer signals it. */
    final QueueSignal notEmpty;

    SignalledBlockingQueue(final BatchQueue<E> queue, final WaitStrategy waitStrategy) {
        this.notEmpty = new QueueSignal(waitStrategy);
        this.queue = queue;
    }

    /**
     * Removes the oldest element, waiting for one. On a queue that can be closed, a close releases
     * every waiting taker: the elements accepted before the close are still taken, one per call,
     * and once the queue is closed and all of them are taken this throws
     * {@link QueueClosedException} instead of waiting for an element that can never come.
     *
     * @return the element
     * @throws InterruptedException if interrupted while waiting
     * @throws QueueClosedException if the queue is closed and every element it accepted has been
     *     taken (never thrown by a queue that cannot be closed)
     */
    @Override
    public final E take() throws InterruptedException {
        E e = poll();
        if (e != null) {
            return e;
        }
        notEmpty.register();
        try {
            while (true) {
                final long seen = notEmpty.seen();
                if ((e = poll()) != null) {
                    return e;
                }
                // after register(): either the close that is about to happen sees this taker and
                // moves the counter past seen, or this load sees the close
                if (isClosedToProducers()) {
                    if (isClosedAndDrained()) {
                        throw new QueueClosedException(
                                "queue is closed and empty: take() has nothing left to return; every element"
                                        + " accepted before close() has been taken");
                    }
                    // an offer in progress at the close: it completes (and signals) or fails, and
                    // polls resolve it; no signal comes for a failed one, so look again soon
                    notEmpty.awaitNanos(seen, System.nanoTime(), QueueSignal.MAX_TIMED_PARK_NANOS);
                    continue;
                }
                notEmpty.await(seen);
            }
        } finally {
            notEmpty.deregister();
        }
    }

    /**
     * Removes the oldest element, waiting up to the timeout for one. A timeout of zero or less
     * (however large its magnitude) polls once and returns; a huge one waits as long as
     * {@link TimeUnit#toNanos} allows (about 292 years), without overflowing. On a queue that can
     * be closed, a close releases every waiting poll: the elements accepted before the close are
     * still returned, and once the queue is closed and all of them are taken this returns null at
     * once, whatever the timeout.
     *
     * @param timeout how long to wait; zero or less does not wait
     * @param unit the unit of {@code timeout}
     * @return the element, or null if the timeout passed with the queue still empty, or the queue
     *     is closed and every element it accepted has been taken
     * @throws InterruptedException if interrupted while waiting
     * @throws NullPointerException if {@code unit} is null
     */
    @Override
    public final E poll(final long timeout, final TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit must not be null");
        E e = poll();
        if (e != null) {
            return e;
        }
        // saturates at Long.MIN_VALUE / Long.MAX_VALUE instead of overflowing
        final long nanos = unit.toNanos(timeout);
        if (nanos <= 0) {
            // no wait: one more try, as ArrayBlockingQueue makes (and, like it, an interrupt
            // pending on entry is reported)
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            return poll();
        }
        final long start = System.nanoTime();
        notEmpty.register();
        try {
            while (true) {
                final long seen = notEmpty.seen();
                if ((e = poll()) != null) {
                    return e;
                }
                long wait = nanos;
                // after register(), as in take()
                if (isClosedToProducers()) {
                    if (isClosedAndDrained()) {
                        return null;
                    }
                    // an offer in progress at the close, as in take(): look again soon
                    wait = Math.min(nanos, System.nanoTime() - start + QueueSignal.MAX_TIMED_PARK_NANOS);
                }
                if (!notEmpty.awaitNanos(seen, start, wait) && wait == nanos) {
                    return poll();
                }
            }
        } finally {
            notEmpty.deregister();
        }
    }

    /**
     * Whether the queue is closed to producers, so that no offer will signal the takers again
     * (but one in progress at the close may still complete). Read by a waiting taker after it
     * registered; the closing thread stores the close before it signals. False for a queue that
     * cannot be closed.
     */
    boolean isClosedToProducers() {
        return false;
    }

    /**
     * Whether the queue is closed and every element it accepted has been taken; asked only once
     * {@link #isClosedToProducers()} is true.
     */
    boolean isClosedAndDrained() {
        return false;
    }

    /**
     * Weakly consistent look at the oldest element, as the queue inside has it.
     *
     * @return the element, or null
     */
    @Override
    public final E peek() {
        return queue.peek();
    }

    /**
     * The number of elements: exact when no other thread operates; while others do, a count
     * taken position by position, not a snapshot (see {@link ScqQueue#size()}).
     *
     * @return the count
     */
    @Override
    public final int size() {
        return queue.size();
    }

    /**
     * Whether no element was seen; weakly consistent like {@link #peek()}.
     *
     * @return true if empty
     */
    @Override
    public final boolean isEmpty() {
        return queue.isEmpty();
    }

    /**
     * The strategy waiting threads use.
     *
     * @return the wait strategy
     */
    public final WaitStrategy waitStrategy() {
        return notEmpty.strategy();
    }

    /**
     * Removes every element and adds it to {@code c}, oldest first.
     *
     * @param c where the elements go
     * @return how many were moved
     * @throws NullPointerException if {@code c} is null
     * @throws IllegalArgumentException if {@code c} is this queue
     */
    @Override
    public final int drainTo(final Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    /**
     * Removes up to {@code maxElements} elements and adds them to {@code c}, oldest first. If
     * {@code c.add} throws, the element it was given has left this queue and is lost with the
     * exception (as with {@link #drain}); the rest stay.
     *
     * @param c where the elements go
     * @param maxElements the most to move; zero or less moves none
     * @return how many were moved
     * @throws NullPointerException if {@code c} is null
     * @throws IllegalArgumentException if {@code c} is this queue
     */
    @Override
    public final int drainTo(final Collection<? super E> c, final int maxElements) {
        Objects.requireNonNull(c, "collection must not be null");
        if (c == this || c == queue) {
            throw new IllegalArgumentException("cannot drain a queue into itself");
        }
        return maxElements <= 0 ? 0 : drain(c::add, maxElements);
    }

    /**
     * A weakly consistent iterator, as the queue inside has it (see {@link ScqQueue#iterator()}):
     * FIFO order, no element twice, every element present for the whole iteration returned,
     * never a {@link java.util.ConcurrentModificationException}; {@link Iterator#remove()} is
     * not supported.
     *
     * @return the iterator
     */
    @Override
    public final Iterator<E> iterator() {
        return queue.iterator();
    }
}
