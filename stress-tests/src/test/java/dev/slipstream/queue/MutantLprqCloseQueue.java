package dev.slipstream.queue;

import dev.slipstream.stress.queue.LprqCloseRace;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A copy of {@link LprqQueue}'s offer, poll, close and isDrained over the production
 * {@link PrqRing} (so only the list of rings is copied), with one step of the close protocol
 * left out, chosen by {@link Mutation}, and an optional pause inside the two windows of an offer
 * that a close can land in: between reading the last ring's {@code next} as null and offering to
 * the ring, and between reading the closed flag as false and linking a new ring. The pause makes
 * the race that each mutation loses likely on two cores (the producer parks, so the closing
 * thread runs meanwhile); {@link Mutation#NONE}, the shipped
 * protocol with the same pause, shows that the pause alone breaks nothing. Not for use outside
 * tests.
 */
public final class MutantLprqCloseQueue implements LprqCloseRace.Subject {
    /** The step each mutant leaves out. */
    public enum Mutation {
        /** Nothing: the shipped protocol (with the pause, if any). */
        NONE,
        /**
         * close() sets the flag and closes the last ring's tail, but never links the closed link
         * after it: a producer that read the flag before the close links a new ring after the
         * closed one, and isDrained() (which can then only take a ring without a successor for
         * the last) may already have said true.
         */
        CLOSE_WITHOUT_SEALING_NEXT,
        /**
         * close() sets the flag and links the closed link after the last ring, but never closes
         * the ring's tail: a producer that read {@code next} as null before the close still gets
         * a position in the ring, after isDrained() may have said true.
         */
        CLOSE_WITHOUT_CLOSING_TAIL,
    }

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle CLOSED;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(MutantLprqCloseQueue.class, "headRing", PrqRing.class);
            TAIL = lookup.findVarHandle(MutantLprqCloseQueue.class, "tailRing", PrqRing.class);
            CLOSED = lookup.findVarHandle(MutantLprqCloseQueue.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Mutation mutation;
    private final int ringCapacity;
    private final long pauseNanos;
    private PrqRing headRing;
    private PrqRing tailRing;
    private boolean closed;

    /**
     * A queue.
     *
     * @param mutation the step left out
     * @param ringCapacity elements per ring, a power of two
     * @param pauseNanos the pause inside each window, 0 for none
     */
    public MutantLprqCloseQueue(final Mutation mutation, final int ringCapacity, final long pauseNanos) {
        this.mutation = Objects.requireNonNull(mutation);
        this.ringCapacity = ringCapacity;
        this.pauseNanos = pauseNanos;
        final PrqRing first = new PrqRing(ringCapacity, true, 0L, null);
        headRing = first;
        tailRing = first;
        VarHandle.releaseFence();
    }

    private void pause() {
        if (pauseNanos > 0) {
            // parked, not spinning: the closing thread gets a core while producers sit in a window
            LockSupport.parkNanos(pauseNanos);
        }
    }

    /** The closed link, or (for the mutant that never links it) null: what ends the list. */
    private boolean isEnd(final PrqRing next) {
        return next == null || next == LprqQueue.CLOSED_LINK;
    }

    @Override
    public boolean offer(final Long e) {
        Objects.requireNonNull(e);
        PrqRing fresh = null;
        PrqRing t = (PrqRing) TAIL.getVolatile(this);
        while (true) {
            final PrqRing next = t.lvNext();
            if (next != null) {
                if (next == LprqQueue.CLOSED_LINK) {
                    return false;
                }
                TAIL.compareAndSet(this, t, next);
                t = (PrqRing) TAIL.getVolatile(this);
                continue;
            }
            pause(); // window: next read as null, no position taken yet
            if (t.offer(e)) {
                return true;
            }
            if ((boolean) CLOSED.getVolatile(this)) {
                return false;
            }
            if (fresh == null) {
                fresh = new PrqRing(ringCapacity, true, 0L, e);
            }
            pause(); // window: the flag read as false, the new ring not linked yet
            if (t.casNext(fresh)) {
                TAIL.compareAndSet(this, t, fresh);
                return true;
            }
            t = (PrqRing) TAIL.getVolatile(this);
        }
    }

    @Override
    public Long poll() {
        PrqRing h = (PrqRing) HEAD.getVolatile(this);
        while (true) {
            Object e = h.poll();
            if (e != null) {
                return (Long) e;
            }
            final PrqRing next = h.lvNext();
            if (isEnd(next)) {
                return null;
            }
            e = h.poll();
            if (e != null) {
                return (Long) e;
            }
            HEAD.compareAndSet(this, h, next);
            h = (PrqRing) HEAD.getVolatile(this);
        }
    }

    @Override
    public void close() {
        CLOSED.setVolatile(this, true);
        PrqRing t = (PrqRing) TAIL.getVolatile(this);
        while (true) {
            final PrqRing next = t.lvNext();
            if (next == LprqQueue.CLOSED_LINK) {
                return;
            }
            if (next != null) {
                t = next;
                continue;
            }
            if (mutation != Mutation.CLOSE_WITHOUT_CLOSING_TAIL) {
                t.closeTail();
            }
            if (mutation == Mutation.CLOSE_WITHOUT_SEALING_NEXT) {
                return;
            }
            if (t.casNext(LprqQueue.CLOSED_LINK)) {
                return;
            }
        }
    }

    @Override
    public boolean isDrained() {
        if (!(boolean) CLOSED.getVolatile(this)) {
            return false;
        }
        final PrqRing h = (PrqRing) HEAD.getVolatile(this);
        final PrqRing next = h.lvNext();
        // the shipped check is next == CLOSED_LINK; a close that never links it leaves null
        final boolean last = mutation == Mutation.CLOSE_WITHOUT_SEALING_NEXT ? next == null
                : next == LprqQueue.CLOSED_LINK;
        return last && h.isEmpty();
    }
}
