package dev.slipstream.stress.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A copy of {@code SlotSequenceQueue}'s offer and poll (no cache remap, no padding, no fill) with
 * one step changed, chosen by {@link Mutation}: the seeded bugs its Lincheck check must catch.
 */
final class MutantSlotSequenceQueue implements MutantQueueOperations.MutantQueue {
    /** The step each mutant gets wrong. */
    enum Mutation {
        /** None: the production protocol. */
        NONE,
        /**
         * A consumer frees the slot for the next lap (stores the sequence) before it nulls the
         * element: the next lap's producer writes its element in between, and the null erases it.
         */
        FREE_SLOT_BEFORE_NULLING_ELEMENT,
        /**
         * A producer that finds its slot not yet freed answers "full" without looking at the
         * consumer index: while the consumer of the previous lap is between its CAS and its
         * store, the queue holds fewer than {@code capacity} elements and the offer fails.
         */
        FULL_WITHOUT_CONSUMER_CHECK,
    }

    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle ELEMENTS = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_INDEX = lookup.findVarHandle(MutantSlotSequenceQueue.class, "producerIndex", long.class);
            CONSUMER_INDEX = lookup.findVarHandle(MutantSlotSequenceQueue.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Mutation mutation;
    private final boolean backOff;
    private final int capacity;
    private final long[] sequences;
    private final Object[] elements;
    private long producerIndex;
    private long consumerIndex;

    MutantSlotSequenceQueue(final Mutation mutation, final int capacity) {
        this(mutation, capacity, false);
    }

    /** As above; {@code backOff} as {@code SlotSequenceQueue.backingOff}: a pause after a lost CAS. */
    MutantSlotSequenceQueue(final Mutation mutation, final int capacity, final boolean backOff) {
        this.backOff = backOff;
        this.mutation = mutation;
        this.capacity = capacity;
        this.sequences = new long[capacity];
        this.elements = new Object[capacity];
        for (int i = 0; i < capacity; i++) {
            sequences[i] = i;
        }
    }

    @Override
    public boolean offer(final Object e) {
        long p = (long) PRODUCER_INDEX.getVolatile(this);
        while (true) {
            final int j = (int) p & (capacity - 1);
            final long lag = (long) SEQUENCES.getAcquire(sequences, j) - p;
            if (lag == 0) {
                final long witness = (long) PRODUCER_INDEX.compareAndExchange(this, p, p + 1);
                if (witness == p) {
                    ELEMENTS.set(elements, j, e);
                    SEQUENCES.setRelease(sequences, j, p + 1);
                    return true;
                }
                p = backOff ? pauseAndRead(true) : witness;
            } else if (lag < 0) {
                if (mutation == Mutation.FULL_WITHOUT_CONSUMER_CHECK
                        || p - capacity - (long) CONSUMER_INDEX.getVolatile(this) >= 0) {
                    return false;
                }
                Thread.onSpinWait();
                p = (long) PRODUCER_INDEX.getVolatile(this);
            } else {
                p = (long) PRODUCER_INDEX.getVolatile(this);
            }
        }
    }

    @Override
    public Object poll() {
        long c = (long) CONSUMER_INDEX.getVolatile(this);
        while (true) {
            final int j = (int) c & (capacity - 1);
            final long lag = (long) SEQUENCES.getAcquire(sequences, j) - (c + 1);
            if (lag == 0) {
                final long witness = (long) CONSUMER_INDEX.compareAndExchange(this, c, c + 1);
                if (witness == c) {
                    final Object e = ELEMENTS.get(elements, j);
                    if (mutation == Mutation.FREE_SLOT_BEFORE_NULLING_ELEMENT) {
                        SEQUENCES.setRelease(sequences, j, c + capacity);
                        ELEMENTS.set(elements, j, null);
                    } else {
                        ELEMENTS.set(elements, j, null);
                        SEQUENCES.setRelease(sequences, j, c + capacity);
                    }
                    return e;
                }
                c = backOff ? pauseAndRead(false) : witness;
            } else if (lag < 0) {
                if (c - (long) PRODUCER_INDEX.getVolatile(this) >= 0) {
                    return null;
                }
                Thread.onSpinWait();
                c = (long) CONSUMER_INDEX.getVolatile(this);
            } else {
                c = (long) CONSUMER_INDEX.getVolatile(this);
            }
        }
    }

    /** The production back-off's pause (its first step: one spin), then the index read again. */
    private long pauseAndRead(final boolean producer) {
        Thread.onSpinWait();
        return (long) (producer ? PRODUCER_INDEX : CONSUMER_INDEX).getVolatile(this);
    }
}
