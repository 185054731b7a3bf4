package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.queue.QueueCounters.Event;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** 120 bytes before the consumer index (the int fills the hole after the object header). */
abstract class SlotQueuePad0<E> extends PollOnlyQueue<E> {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** The next position a consumer takes; only grows, by CAS. */
abstract class SlotQueueConsumerIndex<E> extends SlotQueuePad0<E> {
    long consumerIndex;
}

/** 120 bytes between the two indices. */
abstract class SlotQueuePad1<E> extends SlotQueueConsumerIndex<E> {
    int pi1;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/** The next position a producer takes; only grows, by CAS. */
abstract class SlotQueueProducerIndex<E> extends SlotQueuePad1<E> {
    long producerIndex;
}

/** 120 bytes after the producer index, in front of the read-only fields. */
abstract class SlotQueuePad2<E> extends SlotQueueProducerIndex<E> {
    int pi2;
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54;
}

/**
 * A bounded multi-producer multi-consumer FIFO queue with one sequence number per slot (the
 * design of Dmitry Vyukov's bounded MPMC queue, also that of JCTools' {@code MpmcArrayQueue}): a
 * candidate successor of {@link ScqQueue}, which the many-core benchmarks compare with it, with
 * {@link java.util.concurrent.ArrayBlockingQueue} and with {@code MpmcArrayQueue}. Not the default
 * bounded queue: {@code ScqQueue} stays that until a many-core run says otherwise.
 *
 * <p>Position {@code p} uses slot {@code remap(p mod capacity)}, whose sequence says what the slot
 * is ready for: {@code p} while it is free for position {@code p}'s producer, {@code p + 1} once
 * that producer's element is in it, and {@code p + capacity} when its consumer has freed it for
 * the next lap. An offer CASes the producer index from {@code p} to {@code p + 1} where the slot
 * reads {@code p}, writes the element and stores {@code p + 1}; a poll CASes the consumer index
 * where the slot reads {@code p + 1}, takes the element and stores {@code p + capacity}. One CAS
 * and two slot accesses per operation, against SCQ's two rings.
 *
 * <pre>{@code
 * SlotSequenceQueue<Order> queue = new SlotSequenceQueue<>(1024);   // a power of two, >= 2
 * if (!queue.offer(order)) {
 *     // full
 * }
 * Order next = queue.poll();                                         // null when empty
 * int moved = queue.drain(this::handle, 64);
 * }</pre>
 *
 * <h2>Progress</h2>
 * Not lock-free, unlike {@code ScqQueue}: a producer descheduled between its CAS and its store
 * holds up the consumer of its position (a poll that finds the position claimed and not yet
 * filled waits for it, and so do later polls behind it), and a consumer descheduled between its
 * CAS and its store holds up the producer of the next lap. With a core per thread the window is
 * a few instructions; with more threads than cores it is a time slice.
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li><b>Capacity:</b> a power of two from 2 to {@link #MAX_CAPACITY} (with one slot, "filled
 *       for p" and "free for p + 1" would be the same sequence). An offer returns false only when
 *       {@code capacity} positions are taken and not yet polled: no spurious full.</li>
 *   <li><b>Memory:</b> {@code 12 * capacity} bytes with compressed references plus about 900 of
 *       padding, allocated once; offer and poll allocate nothing.</li>
 *   <li><b>Iteration:</b> {@link #iterator()}, {@link #size()} and {@link #peek()} are weakly
 *       consistent and write nothing.</li>
 *   <li><b>Not supported:</b> removing from the middle ({@link #remove(Object)} and the like)
 *       throws {@link UnsupportedOperationException}.</li>
 * </ul>
 *
 * @param <E> the element type; null elements are rejected
 */
public final class SlotSequenceQueue<E> extends SlotQueuePad2<E> implements BatchQueue<E> {
    /** The largest capacity: 2^29. */
    public static final int MAX_CAPACITY = 1 << 29;
    /** Longs kept free at each end of the sequence array: 128 bytes, a prefetch pair of lines. */
    private static final int SEQUENCE_PAD = 16;
    /** References kept free at each end of the element array: 128 bytes with compressed references. */
    private static final int ELEMENT_PAD = 32;
    /** Rotation that spreads consecutive positions 16 slots apart, as in {@code PrqRing}. */
    private static final int REMAP_SHIFT = 4;
    /**
     * Put in a slot whose producer's supplier failed in {@link #fill}: the position was claimed
     * and cannot be given back (later positions may be taken already), so it is filled with this
     * and every reader passes over it.
     */
    private static final Object SKIPPED = new Object() {
        @Override
        public String toString() {
            return "skipped position";
        }
    };

    private static final VarHandle CONSUMER_INDEX =
            FieldHandles.of(SlotQueueConsumerIndex.class, "consumerIndex", long.class);
    private static final VarHandle PRODUCER_INDEX =
            FieldHandles.of(SlotQueueProducerIndex.class, "producerIndex", long.class);
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle ELEMENTS = MethodHandles.arrayElementVarHandle(Object[].class);

    private final long[] sequences;
    private final Object[] elements;
    private final int capacity;
    private final int mask;
    private final int bits;
    private final int remapShift;
    private final boolean remap;
    /** Whether a thread that lost a CAS on an index pauses before it reads the index again. */
    private final boolean backOff;
    /**
     * What {@link #claim()} returns when the queue is full: the position before the first, which
     * the indices reach again only after 2^64 - 1 operations.
     */
    private final long full;

    /**
     * Creates a queue with cache remap on.
     *
     * @param capacity a power of two from 2 to {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     */
    public SlotSequenceQueue(final int capacity) {
        this(capacity, true);
    }

    /**
     * Creates a queue.
     *
     * @param capacity a power of two from 2 to {@link #MAX_CAPACITY}
     * @param cacheRemap whether neighbouring positions use slots on different cache lines (on by
     *     default; off only to measure what it buys)
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     */
    public SlotSequenceQueue(final int capacity, final boolean cacheRemap) {
        this(capacity, cacheRemap, false, 0L);
    }

    /**
     * Creates a queue whose threads, when they lose a CAS on an index to another thread, pause 1,
     * 2, 4 ... 64 spins before they read the index again: fewer threads on the index's cache line
     * at once, so that the winner's next operation finds it in its own cache (what a contended
     * lock gives the thread that holds it). A candidate for many threads on many cores.
     *
     * <pre>{@code
     * SlotSequenceQueue<Order> orders = SlotSequenceQueue.backingOff(1024);
     * }</pre>
     *
     * @param capacity a power of two from 2 to {@link #MAX_CAPACITY}
     * @param <E> the element type
     * @return the queue, with cache remap on
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     */
    public static <E> SlotSequenceQueue<E> backingOff(final int capacity) {
        return new SlotSequenceQueue<>(capacity, true, true, 0L);
    }

    /**
     * For soak tests: both indices start at {@code start}, anywhere in 64 bits (every comparison
     * is a difference, so the indices may wrap).
     */
    SlotSequenceQueue(final int capacity, final boolean cacheRemap, final long start) {
        this(capacity, cacheRemap, false, start);
    }

    private SlotSequenceQueue(final int capacity, final boolean cacheRemap, final boolean backOff, final long start) {
        if (capacity < 2 || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two from 2 to " + MAX_CAPACITY
                    + ", got " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.bits = Integer.numberOfTrailingZeros(capacity);
        this.remap = cacheRemap;
        this.backOff = backOff;
        this.full = start - 1;
        this.remapShift = cacheRemap && bits > REMAP_SHIFT ? REMAP_SHIFT : 0;
        this.sequences = new long[capacity + 2 * SEQUENCE_PAD];
        this.elements = new Object[capacity + 2 * ELEMENT_PAD];
        // each slot is first free for the position of the first lap that maps to it
        for (long p = start; p != start + capacity; p++) {
            sequences[SEQUENCE_PAD + slot(p)] = p;
        }
        this.consumerIndex = start;
        this.producerIndex = start;
        // release fence: a thread that obtains the queue through a data race sees the slots and
        // indices initialised (they are not final fields)
        VarHandle.releaseFence();
    }

    /** The slot of position {@code p}: rotated so that neighbouring positions do not share a line. */
    private int slot(final long p) {
        final int i = (int) p & mask;
        return ((i << remapShift) | (i >>> (bits - remapShift))) & mask;
    }

    private long lvConsumerIndex() {
        return (long) CONSUMER_INDEX.getVolatile(this);
    }

    private long caxConsumerIndex(final long expected, final long value) {
        return (long) CONSUMER_INDEX.compareAndExchange(this, expected, value);
    }

    private long lvProducerIndex() {
        return (long) PRODUCER_INDEX.getVolatile(this);
    }

    private long caxProducerIndex(final long expected, final long value) {
        return (long) PRODUCER_INDEX.compareAndExchange(this, expected, value);
    }

    private long laSequence(final int j) {
        return (long) SEQUENCES.getAcquire(sequences, SEQUENCE_PAD + j);
    }

    private void soSequence(final int j, final long value) {
        SEQUENCES.setRelease(sequences, SEQUENCE_PAD + j, value);
    }

    private Object lpElement(final int j) {
        return ELEMENTS.get(elements, ELEMENT_PAD + j);
    }

    private void spElement(final int j, final Object value) {
        ELEMENTS.set(elements, ELEMENT_PAD + j, value);
    }

    private Object lvElement(final int j) {
        return ELEMENTS.getVolatile(elements, ELEMENT_PAD + j);
    }

    /**
     * Inserts an element if there is room, never waiting for a consumer that is not already
     * freeing the slot.
     *
     * @param e the element
     * @return true if inserted; false if {@code capacity} elements were in the queue
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public boolean offer(final E e) {
        Objects.requireNonNull(e, "element must not be null");
        final long p = claim();
        if (p == full) {
            return false;
        }
        fillSlot(p, e);
        return true;
    }

    /**
     * Takes the next free position for this producer, or returns {@link #full} when the queue
     * is full.
     */
    private long claim() {
        long p = lvProducerIndex();
        int failures = 0;
        while (true) {
            final int j = slot(p);
            // acquire: the consumer's null store before it freed the slot happens-before the write
            // of the new element
            final long lag = laSequence(j) - p;
            if (lag == 0) {
                final long witness = caxProducerIndex(p, p + 1);
                if (witness == p) {
                    return p;
                }
                QueueCounters.count(Event.CAS_FAILED); // another producer took p first
                p = backOff ? pauseAndRead(++failures, true) : witness;
            } else if (lag < 0) {
                // the slot still holds position p - capacity's element: full, unless that
                // element's consumer has taken its position and is freeing the slot
                if (p - capacity - lvConsumerIndex() >= 0) {
                    return full;
                }
                QueueCounters.count(Event.ENQUEUE_RETRY);
                Thread.onSpinWait();
                p = lvProducerIndex();
            } else {
                p = lvProducerIndex(); // p was taken and filled meanwhile
            }
        }
    }

    /**
     * After the {@code failures}-th lost CAS: pauses ({@link ContentionBackOff}), then reads the
     * producer index (or the consumer index) again: the witness of the lost CAS is stale by then.
     */
    private long pauseAndRead(final int failures, final boolean producer) {
        ContentionBackOff.pause(failures);
        return producer ? lvProducerIndex() : lvConsumerIndex();
    }

    /**
     * Whether a thread that loses a CAS on an index pauses before reading it again
     * ({@link #backingOff(int)}).
     *
     * @return the back-off setting
     */
    public boolean isBackingOff() {
        return backOff;
    }

    /** Writes position {@code p}'s element and hands the slot to its consumer. */
    private void fillSlot(final long p, final Object e) {
        final int j = slot(p);
        // plain: the slot is this producer's alone until the release below
        spElement(j, e);
        // release: the element is written before a consumer can see the slot filled
        soSequence(j, p + 1);
    }

    /**
     * Removes and returns the oldest element; waits only for a producer that has taken the oldest
     * position and not yet written it.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        long c = lvConsumerIndex();
        int failures = 0;
        while (true) {
            final int j = slot(c);
            // acquire: the producer's element is written before its release of the sequence
            final long lag = laSequence(j) - (c + 1);
            if (lag == 0) {
                final long witness = caxConsumerIndex(c, c + 1);
                if (witness == c) {
                    // plain: the slot is this consumer's alone until the release below
                    final Object e = lpElement(j);
                    spElement(j, null);
                    // release: the null is stored before the next lap's producer may write
                    soSequence(j, c + capacity);
                    if (e != SKIPPED) {
                        return (E) e;
                    }
                    c = lvConsumerIndex();
                    continue;
                }
                QueueCounters.count(Event.CAS_FAILED); // another consumer took c first
                c = backOff ? pauseAndRead(++failures, false) : witness;
            } else if (lag < 0) {
                // not filled for c: the queue is empty, or c's producer is between its CAS and
                // its store
                if (c - lvProducerIndex() >= 0) {
                    return null;
                }
                QueueCounters.count(Event.ENQUEUER_WAIT);
                Thread.onSpinWait();
                c = lvConsumerIndex();
            } else {
                c = lvConsumerIndex(); // c was taken meanwhile
            }
        }
    }

    /**
     * The element position {@code p} holds now, or null: the slot's sequence says filled for
     * {@code p} before and after the element is read, so the element is {@code p}'s and no later
     * lap's. Null also for a position skipped by {@link #fill}.
     */
    private Object elementAt(final long p) {
        final int j = slot(p);
        if (laSequence(j) != p + 1) {
            return null;
        }
        // volatile: a read from outside the protocol, validated by the second sequence load
        final Object e = lvElement(j);
        if (e == null || e == SKIPPED || laSequence(j) != p + 1) {
            return null;
        }
        return e;
    }

    /**
     * The oldest element without removing it, weakly consistent: the element returned was in the
     * queue during the call; null means none was seen between the consumer and producer
     * indices. Exact when no other thread operates.
     *
     * @return the element, or null
     */
    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        final long end = lvProducerIndex();
        for (long p = lvConsumerIndex(); end - p > 0; p++) {
            final Object e = elementAt(p);
            if (e != null) {
                return (E) e;
            }
        }
        return null;
    }

    /**
     * Whether no element was seen; weakly consistent like {@link #peek()}.
     *
     * @return true if {@link #peek()} found nothing
     */
    @Override
    public boolean isEmpty() {
        return peek() == null;
    }

    /**
     * The number of elements, counted by walking the positions between the consumer and producer
     * indices: exact when no other thread operates; while others do, each position is looked at
     * once, at its own moment. Writes nothing.
     *
     * @return from 0 to {@link #capacity()}
     */
    @Override
    public int size() {
        final long end = lvProducerIndex();
        int n = 0;
        for (long p = lvConsumerIndex(); end - p > 0 && n < capacity; p++) {
            if (elementAt(p) != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, in FIFO order.
     * Each element's slot is free again before the consumer sees it, so a consumer that throws
     * loses only that element, which has already left the queue.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int drain(final Consumer<? super E> consumer, final int limit) {
        Objects.requireNonNull(consumer, "consumer must not be null");
        ScqQueue.checkLimit(limit);
        int n = 0;
        while (n < limit) {
            final E e = poll();
            if (e == null) {
                break;
            }
            n++;
            consumer.accept(e);
        }
        return n;
    }

    /**
     * Inserts up to {@code limit} elements from {@code supplier}, stopping when the queue is
     * full. The supplier is called only once a position is taken for its result, so nothing it
     * returns is dropped; if it throws or returns null, that position is passed over by every
     * reader (it cannot be given back: later positions may be taken already).
     *
     * @param supplier produces the elements; must not return null
     * @param limit the most to insert, {@code >= 0}
     * @return how many were inserted
     * @throws NullPointerException if {@code supplier} is null or returns null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int fill(final Supplier<? extends E> supplier, final int limit) {
        Objects.requireNonNull(supplier, "supplier must not be null");
        ScqQueue.checkLimit(limit);
        int n = 0;
        while (n < limit) {
            final long p = claim();
            if (p == full) {
                break;
            }
            Object e = SKIPPED;
            try {
                e = supplier.get();
                if (e == null) {
                    e = SKIPPED;
                    throw new NullPointerException("supplier returned null; queues do not hold null elements");
                }
            } finally {
                fillSlot(p, e);
            }
            n++;
        }
        return n;
    }

    /**
     * The fixed capacity.
     *
     * @return a power of two
     */
    public int capacity() {
        return capacity;
    }

    /**
     * Whether neighbouring positions use slots on different cache lines.
     *
     * @return the cache-remap setting
     */
    public boolean isCacheRemap() {
        return remap;
    }

    /**
     * A weakly consistent iterator over the elements, oldest first, with the guarantees of
     * {@link ScqQueue#iterator()}. {@link Iterator#remove()} is not supported.
     *
     * @return the iterator
     */
    @Override
    public Iterator<E> iterator() {
        return new SlotIterator<>(this);
    }

    /** Walks the positions from the consumer index to the producer index read at creation. */
    private static final class SlotIterator<E> extends LookAheadIterator<E> {
        private final SlotSequenceQueue<E> queue;
        private final long end;
        private long position;

        SlotIterator(final SlotSequenceQueue<E> queue) {
            this.queue = queue;
            // consumer index first: every element present for the whole walk lies between the two
            this.position = queue.lvConsumerIndex();
            this.end = queue.lvProducerIndex();
            start();
        }

        @Override
        Object findNext() {
            while (end - position > 0) {
                final Object e = queue.elementAt(position++);
                if (e != null) {
                    return e;
                }
            }
            return null;
        }
    }
}
