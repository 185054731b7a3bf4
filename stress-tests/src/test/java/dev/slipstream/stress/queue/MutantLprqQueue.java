package dev.slipstream.stress.queue;

import dev.slipstream.queue.LprqQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A copy of {@code LprqQueue}'s offer and poll paths (rings of {@code size} cells, no cache
 * remap, no padding) with one check removed, chosen by {@link Mutation}: the seeded bugs that
 * the Lincheck and soak tests must catch. It takes the production queue's
 * {@link LprqQueue.Contention} settings too, so that each candidate's checks are shown to fail
 * on a mutant with that setting.
 */
final class MutantLprqQueue implements MutantQueueOperations.MutantQueue {
    /** The check each mutant lacks. */
    enum Mutation {
        /** None: the production algorithm. */
        NONE,
        /**
         * A dequeuer takes any element in its cell, without checking that the cell's epoch
         * names its own position: it takes an element of an older lap whose dequeuer is late.
         */
        TAKE_WITHOUT_EPOCH_CHECK,
        /**
         * An enqueuer uses an UNSAFE cell although a dequeuer has already passed its position,
         * so that nobody will ever dequeue the element (LCRQ's reason for the safe bit).
         */
        ENQUEUE_INTO_UNSAFE_CELL,
        /**
         * A dequeuer that finds an unpublished claim (an element whose epoch is older than its
         * position) on a safe cell leaves the epoch word as it is, as it may on an unsafe cell:
         * the claim's publication still succeeds after its dequeuer has passed.
         */
        PASS_CLAIM_UNMARKED,
        /**
         * An enqueuer claims an unsafe cell with its element, as it does a safe one, instead of
         * through its reservation: a dequeuer that passes an unsafe cell holding an element
         * leaves the word as it is, so the publication succeeds after the dequeuer has passed.
         */
        CLAIM_UNSAFE_CELL_WITH_ELEMENT,
        /**
         * A poll that finds the head ring empty answers that the queue is empty also when the
         * ring's tail is closed, without looking for a successor: the production poll skips
         * the successor only when the tail is open (no ring is linked after an open one).
         */
        EMPTY_CLOSED_RING_ENDS_POLL,
        /**
         * An enqueuer that takes the unsafe path checks the head only before its reservation,
         * not after it: dequeuers may pass the cell meanwhile while it holds another
         * enqueuer's claim, which leaves the word as it is, and that claim may be taken back
         * before the reservation, so the element is published for a position already passed.
         */
        HEAD_CHECKED_ONLY_BEFORE_RESERVATION,
        /**
         * A dequeuer that finds a reservation under an epoch older than its position's nulls it
         * and then moves the epoch (the production ring's steps before the order fix): if the
         * enqueuer sets its epoch between the two, the cell shows its position done with no
         * element, the next lap fills it, and the dequeuer of that position takes the next lap's
         * element ahead of older ones.
         */
        OLDER_LAP_NULLS_RESERVATION,
    }

    private static final long FLAG = Long.MIN_VALUE;
    /**
     * Spins a dequeuer waits for an enqueuer that may hold its position (32 in the production
     * ring). The model checker explores every spin as a switch point, so a short wait lets it
     * reach the paths after the wait (an unsafe cell, a passed claim) within its iterations;
     * the bound changes how long a dequeuer waits, not what it does afterwards.
     */
    private static final int PATIENCE = 2;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle NEXT;
    private static final VarHandle HEAD_RING;
    private static final VarHandle TAIL_RING;
    private static final VarHandle EPOCHS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(Ring.class, "head", long.class);
            TAIL = lookup.findVarHandle(Ring.class, "tail", long.class);
            NEXT = lookup.findVarHandle(Ring.class, "next", Ring.class);
            HEAD_RING = lookup.findVarHandle(MutantLprqQueue.class, "headRing", Ring.class);
            TAIL_RING = lookup.findVarHandle(MutantLprqQueue.class, "tailRing", Ring.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Each thread's own reservation, as in the production queue. */
    private static final ThreadLocal<Object> RESERVATION = ThreadLocal.withInitial(Reservation::new);

    private static final class Reservation {
    }

    private final Mutation mutation;
    private final int size;
    private final boolean startUnsafe;
    private final boolean backOff;
    private final boolean waitForOffer;
    private Ring headRing;
    private Ring tailRing;

    MutantLprqQueue(final Mutation mutation, final int size) {
        this(mutation, size, false);
    }

    /**
     * @param startUnsafe whether every cell of a new ring starts UNSAFE, so that every offer
     *     of the first lap claims its cell the way an unsafe cell is claimed (a state the
     *     production ring reaches only after a dequeuer has lapped a late one)
     */
    MutantLprqQueue(final Mutation mutation, final int size, final boolean startUnsafe) {
        this(mutation, size, startUnsafe, LprqQueue.Contention.EAGER);
    }

    /** As above, with the production queue's {@code contention} setting. */
    MutantLprqQueue(final Mutation mutation, final int size, final boolean startUnsafe,
                    final LprqQueue.Contention contention) {
        this.backOff = contention == LprqQueue.Contention.BACK_OFF;
        this.waitForOffer = contention == LprqQueue.Contention.WAIT_FOR_OFFER;
        this.mutation = mutation;
        this.size = size;
        this.startUnsafe = startUnsafe;
        headRing = new Ring(null);
        tailRing = headRing;
    }

    /** One ring: the production algorithm but for the mutation. */
    private final class Ring {
        long head;
        long tail;
        Ring next;
        final long[] epochs = new long[size];
        final Object[] values = new Object[size];

        Ring(final Object first) {
            Arrays.fill(epochs, startUnsafe ? FLAG : 0L);
            if (first != null) {
                values[0] = first;
                epochs[0] = size;
                tail = 1;
            }
        }

        /** The claim, then the publication; unsafe cells through the reservation. */
        private boolean enqueueAt(final int j, final long t, final Object e, final Object reservation) {
            if (VALUES.compareAndExchange(values, j, null, e) != null) {
                return false;
            }
            long epoch = (long) EPOCHS.compareAndExchange(epochs, j, t, t + size);
            if (epoch == t) {
                return true;
            }
            if (epoch >= 0 && epoch < t && EPOCHS.compareAndSet(epochs, j, epoch, t + size)) {
                return true;
            }
            if (epoch < 0 && mutation == Mutation.CLAIM_UNSAFE_CELL_WITH_ELEMENT && (epoch & ~FLAG) <= t
                    && (long) HEAD.getVolatile(this) <= t && EPOCHS.compareAndSet(epochs, j, epoch, t + size)) {
                return true;
            }
            VALUES.setRelease(values, j, null);
            if (epoch >= 0) {
                return false;
            }
            epoch = (long) EPOCHS.getVolatile(epochs, j);
            final boolean safeEnough = (long) HEAD.getVolatile(this) <= t
                    || mutation == Mutation.ENQUEUE_INTO_UNSAFE_CELL;
            if (epoch < 0 && (epoch & ~FLAG) <= t && safeEnough
                    && VALUES.compareAndSet(values, j, null, reservation)) {
                final boolean notPassed = mutation == Mutation.HEAD_CHECKED_ONLY_BEFORE_RESERVATION
                        || mutation == Mutation.ENQUEUE_INTO_UNSAFE_CELL
                        || (long) HEAD.getVolatile(this) <= t;
                if (notPassed && EPOCHS.compareAndSet(epochs, j, epoch, t + size)) {
                    return VALUES.compareAndSet(values, j, reservation, e);
                }
                VALUES.compareAndSet(values, j, reservation, null);
            }
            return false;
        }

        boolean offer(final Object e, final Object reservation) {
            int closeTries = 0;
            int failures = 0;
            while (true) {
                final long t = (long) TAIL.getAndAdd(this, 1L);
                if (t < 0) {
                    return false;
                }
                final int j = (int) (t & (size - 1));
                if (enqueueAt(j, t, e, reservation)) {
                    return true;
                }
                if (t - (long) HEAD.getVolatile(this) >= size || ++failures > 128) {
                    if (++closeTries > 10 || failures > 128) {
                        TAIL.getAndBitwiseOr(this, FLAG);
                        return false;
                    }
                    if (TAIL.compareAndSet(this, t + 1, (t + 1) | FLAG)) {
                        return false;
                    }
                }
                if (backOff) {
                    pause(failures);
                }
            }
        }

        Object poll() {
            if ((long) HEAD.getVolatile(this) >= ((long) TAIL.getVolatile(this) & ~FLAG)) {
                return null;
            }
            int failures = 0;
            while (true) {
                if (backOff && failures > 0) {
                    pause(failures);
                }
                failures++;
                final long h = (long) HEAD.getAndAdd(this, 1L);
                final int j = (int) (h & (size - 1));
                final long mine = h + size;
                int spins = 0;
                while (true) {
                    final long epoch = (long) EPOCHS.getVolatile(epochs, j);
                    final Object v = VALUES.getVolatile(values, j);
                    final long index = epoch & ~FLAG;
                    if (index > mine && mutation != Mutation.TAKE_WITHOUT_EPOCH_CHECK) {
                        break;
                    }
                    if (v != null && !(v instanceof Reservation)) {
                        if (index == mine || mutation == Mutation.TAKE_WITHOUT_EPOCH_CHECK) {
                            if (VALUES.compareAndSet(values, j, v, null)) {
                                return v;
                            }
                            continue;
                        }
                        final long tail = (long) TAIL.getVolatile(this);
                        if (epoch >= 0 && (tail & ~FLAG) > h && tail >= 0 && spins++ <= PATIENCE) {
                            continue;
                        }
                        if (epoch < 0 || mutation == Mutation.PASS_CLAIM_UNMARKED) {
                            if ((long) EPOCHS.getVolatile(epochs, j) == epoch) {
                                break;
                            }
                        } else if (EPOCHS.compareAndSet(epochs, j, epoch, epoch | FLAG)) {
                            break;
                        }
                    } else if (v != null && index < mine && mutation != Mutation.OLDER_LAP_NULLS_RESERVATION) {
                        if (EPOCHS.compareAndSet(epochs, j, epoch, epoch < 0 ? FLAG | mine : epoch | FLAG)) {
                            break;
                        }
                    } else {
                        final long tail = (long) TAIL.getVolatile(this);
                        if (epoch < 0 || tail < 0 || spins > PATIENCE || ((tail & ~FLAG) <= h && !waitForOffer)) {
                            if (v != null && !VALUES.compareAndSet(values, j, v, null)) {
                                continue;
                            }
                            if (index > mine || EPOCHS.compareAndSet(epochs, j, epoch, (epoch & FLAG) | mine)) {
                                break;
                            }
                        }
                        spins++;
                    }
                }
                if (((long) TAIL.getVolatile(this) & ~FLAG) <= h + 1) {
                    while (true) {
                        final long t = (long) TAIL.getVolatile(this);
                        final long hh = (long) HEAD.getVolatile(this);
                        if ((long) TAIL.getVolatile(this) != t) {
                            continue;
                        }
                        if (t < 0 || hh <= t || TAIL.compareAndSet(this, t, hh)) {
                            break;
                        }
                    }
                    return null;
                }
            }
        }
    }

    /** The production ring's back-off: 2^(failures - 1) spins, at most 64. */
    private static void pause(final int failures) {
        final int spins = Math.min(64, 1 << Math.min(failures - 1, 30));
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
    }

    @Override
    public boolean offer(final Object e) {
        final Object reservation = RESERVATION.get();
        Ring fresh = null;
        Ring t = (Ring) TAIL_RING.getVolatile(this);
        while (true) {
            final Ring next = (Ring) NEXT.getVolatile(t);
            if (next != null) {
                TAIL_RING.compareAndSet(this, t, next);
                t = (Ring) TAIL_RING.getVolatile(this);
                continue;
            }
            if (t.offer(e, reservation)) {
                return true;
            }
            if (fresh == null) {
                fresh = new Ring(e);
            }
            if (NEXT.compareAndSet(t, null, fresh)) {
                TAIL_RING.compareAndSet(this, t, fresh);
                return true;
            }
            t = (Ring) TAIL_RING.getVolatile(this);
        }
    }

    @Override
    public Object poll() {
        Ring h = (Ring) HEAD_RING.getVolatile(this);
        final long head = (long) HEAD.getVolatile(h);
        final long tail = (long) TAIL.getVolatile(h);
        final boolean endsPoll = mutation == Mutation.EMPTY_CLOSED_RING_ENDS_POLL
                ? head >= (tail & ~FLAG) // empty, closed or not
                : (head ^ FLAG) >= (tail ^ FLAG); // empty and open
        if (endsPoll) {
            return null;
        }
        while (true) {
            Object e = h.poll();
            if (e != null) {
                return e;
            }
            final Ring next = (Ring) NEXT.getVolatile(h);
            if (next == null) {
                return null;
            }
            e = h.poll();
            if (e != null) {
                return e;
            }
            HEAD_RING.compareAndSet(this, h, next);
            h = (Ring) HEAD_RING.getVolatile(this);
        }
    }
}
