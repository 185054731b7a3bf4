package dev.slipstream.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * 120 bytes before the head pointer. Each padding class also declares an int: the JVM fills
 * 4-byte holes with later subclasses' fields, and a reference would otherwise land in the hole
 * after the object header, in front of the padding instead of behind it.
 */
abstract class LinkedRingsPad0<E> extends PollOnlyQueue<E> {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** The ring consumers poll; moves forward when a drained ring has a successor. */
abstract class LinkedRingsHead<E, R> extends LinkedRingsPad0<E> {
    R headRing;
}

/** 120 bytes between the head and tail pointers. */
abstract class LinkedRingsPad1<E, R> extends LinkedRingsHead<E, R> {
    int pi1;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/** The ring producers offer to; moves forward when a full or closed ring gets a successor. */
abstract class LinkedRingsTail<E, R> extends LinkedRingsPad1<E, R> {
    R tailRing;
}

/** 120 bytes after the tail pointer. */
abstract class LinkedRingsPad2<E, R> extends LinkedRingsTail<E, R> {
    int pi2;
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54;
}

/**
 * What the unbounded queues {@link LprqQueue} and {@link LscqQueue} share: a list of rings
 * ({@code R}: a {@link PrqRing}, or an LSCQ segment) between a head and a tail pointer, each on
 * its own cache lines (padding by class hierarchy: the JVM keeps a superclass's fields before a
 * subclass's), the closed flag, the count of rings allocated, the walks over the rings
 * ({@code peek}, {@code size}, the iterator's search for the last ring), the drain and fill
 * loops and the public contracts of these methods and of {@code isDrained}. The subclass owns
 * the algorithm: how an offer, a poll and a close walk and link the rings, with the access mode
 * each needs, and says how a walk reads the list ({@link #walkHead()}, {@link #walkNext}) and
 * a ring.
 *
 * <pre>{@code
 * final class MyLinkedQueue<E> extends LinkedRingsQueue<E, MyRing> {
 *     MyLinkedQueue() { linkFirst(new MyRing()); }
 *     // offer, poll, close, ... over laHeadRing(), casTailRing(t, next), ...;
 *     // walkHead(), walkNext(r), peekRing(r), countRing(r), drainHeadRing(sink, n),
 *     // drainedOnceClosed(), iterator(first, last)
 * }
 * }</pre>
 *
 * @param <E> the element type; null elements are rejected
 * @param <R> the ring type
 */
abstract class LinkedRingsQueue<E, R> extends LinkedRingsPad2<E, R>
        implements ClosableBatchQueue<E> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle ALLOCATED;
    private static final VarHandle CLOSED;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(LinkedRingsHead.class, "headRing", Object.class);
            TAIL = lookup.findVarHandle(LinkedRingsTail.class, "tailRing", Object.class);
            ALLOCATED = lookup.findVarHandle(LinkedRingsQueue.class, "ringsAllocated", long.class);
            CLOSED = lookup.findVarHandle(LinkedRingsQueue.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written only when a ring is allocated. */
    long ringsAllocated;
    /** Written once, by {@code close()}. */
    boolean closed;

    /**
     * Makes {@code first} the only ring, counted as allocated. Call once, at the end of the
     * subclass's constructor (after its own plain initialisation).
     */
    final void linkFirst(final R first) {
        this.ringsAllocated = 1;
        this.headRing = first;
        this.tailRing = first;
        // release fence: a thread that obtains the queue through a data race still sees both
        // pointers set (they are not final, so final-field semantics do not cover them)
        VarHandle.releaseFence();
    }

    /** The head ring, read with the access mode the subclass's polls read it with. */
    abstract R walkHead();

    /** The ring after {@code ring}, or null after the last ring (the closed link ends the list). */
    abstract R walkNext(R ring);

    /** The oldest element {@code ring} holds, weakly consistent, or null. */
    abstract Object peekRing(R ring);

    /** The elements {@code ring} holds between its head and tail, counted without writing. */
    abstract long countRing(R ring);

    /**
     * Returns the oldest element without removing it, weakly consistent: the element returned
     * was in the queue during the call, and null means none was seen. While another thread's
     * offer is between claiming its position and writing it, a later element may be returned
     * than the next poll will take. Exact when no other thread operates on the queue.
     *
     * @return the element, or null
     */
    @Override
    @SuppressWarnings("unchecked")
    public final E peek() {
        for (R r = walkHead(); r != null; r = walkNext(r)) {
            final Object e = peekRing(r);
            if (e != null) {
                return (E) e;
            }
        }
        return null;
    }

    /**
     * The number of elements, counted by walking every ring's positions between head and tail:
     * exact when no other thread operates on the queue. While others do, it is not a snapshot:
     * each position is looked at once, at its own moment, so an element offered or polled
     * during the call may or may not be counted. Takes time proportional to the positions
     * walked and writes nothing, so offer and poll pay nothing for it.
     *
     * @return the count, at most {@link Integer#MAX_VALUE}
     */
    @Override
    public final int size() {
        long size = 0;
        for (R r = walkHead(); r != null; r = walkNext(r)) {
            size += countRing(r);
        }
        return (int) Math.min(size, Integer.MAX_VALUE);
    }

    /**
     * A weakly consistent iterator over the elements, oldest first, across the rings. It never
     * throws {@link java.util.ConcurrentModificationException} and may run while other threads
     * offer and poll: it returns every element that is in the queue for the whole iteration
     * exactly once, never returns an element twice, returns elements in FIFO order, and returns
     * no element offered after it was created; an element polled during the iteration may or
     * may not be returned. It only reads (no counter, cell or element is written), so it does
     * not slow producers or consumers down. {@link Iterator#remove()} is not supported (see
     * {@link #remove(Object)}).
     *
     * <pre>{@code
     * List<Request> backlog = new ArrayList<>(ingress);   // a copy of what waits, oldest first
     * }</pre>
     *
     * @return the iterator
     */
    @Override
    public final Iterator<E> iterator() {
        // the head ring, read before the last one so that the last is reachable
        final R first = walkHead();
        R last = first;
        R next;
        while ((next = walkNext(last)) != null) {
            last = next;
        }
        return iterator(first, last);
    }

    /**
     * The iterator from {@code first} through {@code last}: it reads the tail of {@code last}
     * now, after {@code last} was found, so every offer that completed before the call put its
     * element below that position of {@code last}, or into an earlier ring.
     */
    abstract Iterator<E> iterator(R first, R last);

    /**
     * Removes what the head ring holds, in bulk, for {@link #drain}: up to {@code limit}
     * elements handed to {@code sink}, without crossing to the next ring (the loop polls for
     * that). A queue with no bulk path returns 0.
     *
     * @return how many were removed
     */
    abstract int drainHeadRing(Consumer<Object> sink, int limit);

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, in FIFO order.
     * A consumer that throws loses only the element it was given, which has left the queue.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    @SuppressWarnings("unchecked")
    public final int drain(final Consumer<? super E> consumer, final int limit) {
        Objects.requireNonNull(consumer, "consumer must not be null");
        ScqQueue.checkLimit(limit);
        final Consumer<Object> sink = (Consumer<Object>) consumer;
        int n = 0;
        while (n < limit) {
            n += drainHeadRing(sink, limit - n);
            if (n == limit) {
                break;
            }
            final Object e = poll(); // crosses to the next ring, or finds the queue empty
            if (e == null) {
                break;
            }
            n++;
            sink.accept(e);
        }
        return n;
    }

    /**
     * Inserts {@code limit} elements from {@code supplier} (all of them: the queue is
     * unbounded), unless the queue is closed.
     *
     * @param supplier produces the elements; must not return null
     * @param limit how many to insert, {@code >= 0}
     * @return how many were inserted: {@code limit}, or fewer once the queue is closed (if it
     *     closes during the call, the element supplied last may be dropped)
     * @throws NullPointerException if {@code supplier} is null or returns null (the elements
     *     supplied before stay in the queue)
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public final int fill(final Supplier<? extends E> supplier, final int limit) {
        return ClosableBatchQueue.fillUntilClosed(this, supplier, limit);
    }

    /**
     * Inserts an element, or throws if the queue is closed.
     *
     * @param e the element
     * @return true
     * @throws NullPointerException if {@code e} is null
     * @throws IllegalStateException if the queue is closed
     */
    @Override
    public final boolean add(final E e) {
        return ClosableBatchQueue.addUnlessClosed(this, e);
    }

    /**
     * Whether no element was seen; weakly consistent like {@link #peek()}.
     *
     * @return true if {@link #peek()} found nothing
     */
    @Override
    public final boolean isEmpty() {
        return peek() == null;
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    @Override
    public final boolean isClosed() {
        // pairs with the volatile store in close()
        return lvClosed();
    }

    /**
     * Whether the queue is closed and every element it accepted has been taken: the end
     * condition of a consumer that drains a closed queue. An offer still in progress when the
     * queue closed may yet complete; until it has (or has failed), this returns false, and the
     * consumer should keep polling (a poll resolves such offers).
     *
     * <pre>{@code
     * queue.close();
     * while (!queue.isDrained()) {
     *     Request r = queue.poll();
     *     if (r != null) handle(r); else Thread.onSpinWait();
     * }
     * }</pre>
     *
     * @return true if closed and drained for good; always false while open
     */
    @Override
    public final boolean isDrained() {
        return lvClosed() && drainedOnceClosed();
    }

    /**
     * The rest of {@link #isDrained()}, once the queue was seen closed: whether the head ring is
     * the last one, sealed, with no position left that an offer could still fill.
     */
    abstract boolean drainedOnceClosed();

    // Accessors, named for their access mode (see the package documentation).

    @SuppressWarnings("unchecked")
    final R laHeadRing() {
        return (R) HEAD.getAcquire(this);
    }

    @SuppressWarnings("unchecked")
    final R lvHeadRing() {
        return (R) HEAD.getVolatile(this);
    }

    final boolean casHeadRing(final R expected, final R ring) {
        return HEAD.compareAndSet(this, expected, ring);
    }

    @SuppressWarnings("unchecked")
    final R laTailRing() {
        return (R) TAIL.getAcquire(this);
    }

    @SuppressWarnings("unchecked")
    final R lvTailRing() {
        return (R) TAIL.getVolatile(this);
    }

    final boolean casTailRing(final R expected, final R ring) {
        return TAIL.compareAndSet(this, expected, ring);
    }

    final boolean lvClosed() {
        return (boolean) CLOSED.getVolatile(this);
    }

    final void svClosed() {
        CLOSED.setVolatile(this, true);
    }

    final long lvRingsAllocated() {
        return (long) ALLOCATED.getVolatile(this);
    }

    final void faaRingsAllocated() {
        ALLOCATED.getAndAdd(this, 1L);
    }
}
