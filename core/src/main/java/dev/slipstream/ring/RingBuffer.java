package dev.slipstream.ring;

import dev.slipstream.sequence.InsufficientCapacityException;
import dev.slipstream.sequence.MultiProducerSequencer;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.Sequencer;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.sequence.SingleProducerSequencer;
import dev.slipstream.sequence.WaitStrategy;
import java.util.Objects;

/** Keeps the read-mostly fields below off the cache line of whatever was allocated before. */
abstract class RingBufferPad {
    // p00 fills the four bytes after the object header, where the JVM would otherwise place the
    // first int field of a subclass (indexMask): every field read on the hot path stays 56 bytes
    // away from whatever object the heap puts before this one (checked with JOL in RingBufferLayoutTest)
    protected int p00;
    protected long p01, p02, p03, p04, p05, p06, p07;
}

/** The ring's fixed state: written once in the constructor, read by every thread. */
abstract class RingBufferFields<E> extends RingBufferPad {
    /** Extra slots at both ends of the array so neighbouring objects never share a line with live slots. */
    static final int BUFFER_PAD = 32;

    protected final Object[] entries;
    protected final int indexMask;
    protected final int bufferSize;
    protected final Sequencer sequencer;

    RingBufferFields(final EventFactory<E> eventFactory, final Sequencer sequencer) {
        Objects.requireNonNull(eventFactory, "eventFactory must not be null");
        this.sequencer = sequencer;
        this.bufferSize = sequencer.getBufferSize();
        this.indexMask = bufferSize - 1;
        this.entries = new Object[bufferSize + 2 * BUFFER_PAD];
        Object first = null;
        Object previous = null;
        for (int i = 0; i < bufferSize; i++) {
            final E event = eventFactory.newInstance();
            if (event == null) {
                throw new IllegalArgumentException(
                        "eventFactory returned null for slot " + i + "; it must create a new event each call");
            }
            // two slots sharing one event would let a producer overwrite an event still being read
            if (event == previous || event == first) {
                throw new IllegalArgumentException("eventFactory returned the same instance for slot " + i
                        + " as for slot " + (event == previous ? i - 1 : 0)
                        + "; it must create a new event each call (e.g. Trade::new)");
            }
            if (i == 0) {
                first = event;
            }
            previous = event;
            entries[BUFFER_PAD + i] = event;
        }
    }

    @SuppressWarnings("unchecked")
    protected final E elementAt(final long sequence) {
        // plain load: the array is filled before the constructor ends (final field publication);
        // the event's fields are made visible by the sequencer's release/acquire pair
        return (E) entries[BUFFER_PAD + ((int) sequence & indexMask)];
    }
}

/**
 * A ring of preallocated events that producers claim, fill and publish, and consumers read in
 * sequence order.
 *
 * <p>Every slot holds one event created by the {@link EventFactory} when the ring is built;
 * publishing writes into that event instead of allocating a new one. A producer claims
 * sequences ({@link #next()}), writes the events ({@link #get(long)}), then publishes
 * ({@link #publish(long)}); or does all three with a translator
 * ({@link #publishEvent(EventTranslator)}). Consumers wait on a {@link SequenceBarrier} and
 * report progress through a {@link Sequence} that gates the producers: a producer never
 * overwrites a slot that a gating consumer has not finished with.
 *
 * <pre>{@code
 * RingBuffer<Tick> ring = RingBuffer.createSingleProducer(Tick::new, 1024, new YieldingWaitStrategy());
 * Sequence consumed = new Sequence();
 * ring.addGatingSequences(consumed);
 * ring.publishEvent((tick, seq, price) -> tick.price = price, 101L);
 *
 * SequenceBarrier barrier = ring.newBarrier();
 * long available = barrier.waitFor(0);
 * long price = ring.get(0).price;
 * consumed.set(available);
 * }</pre>
 *
 * <p>A translator that throws still leaves its slot published (consumers must not stall on
 * it), and the exception reaches the publishing caller.
 *
 * <p><b>Closing and accounting.</b> {@link #close(String)} fixes a {@linkplain #closeFence()
 * close fence}: every publish that returns normally is at or below it, so a consumer that drains
 * to the fence has seen every accepted event; a publish that is not accepted throws
 * {@link SequencerClosedException} (a {@code tryPublish...} returns false instead). No claim at or
 * below the fence is abandoned (see {@link Sequencer#close(String)}).
 *
 * @param <E> the event type
 */
public final class RingBuffer<E> extends RingBufferFields<E> implements DataProvider<E>, EventSink<E> {
    protected long p11, p12, p13, p14, p15, p16, p17;

    private RingBuffer(final EventFactory<E> eventFactory, final Sequencer sequencer) {
        super(eventFactory, sequencer);
    }

    /**
     * Creates a ring for one publishing thread.
     *
     * @param factory creates each slot's event once
     * @param bufferSize the number of slots, a power of two
     * @param waitStrategy how consumers wait
     * @param <E> the event type
     * @return the ring
     */
    public static <E> RingBuffer<E> createSingleProducer(final EventFactory<E> factory, final int bufferSize,
                                                         final WaitStrategy waitStrategy) {
        return new RingBuffer<>(factory, new SingleProducerSequencer(bufferSize, waitStrategy));
    }

    /**
     * Creates a ring for any number of publishing threads.
     *
     * @param factory creates each slot's event once
     * @param bufferSize the number of slots, a power of two
     * @param waitStrategy how consumers wait
     * @param <E> the event type
     * @return the ring
     */
    public static <E> RingBuffer<E> createMultiProducer(final EventFactory<E> factory, final int bufferSize,
                                                        final WaitStrategy waitStrategy) {
        return new RingBuffer<>(factory, new MultiProducerSequencer(bufferSize, waitStrategy));
    }

    /**
     * Creates a ring with every option.
     *
     * @param producerType one or many publishing threads
     * @param factory creates each slot's event once
     * @param bufferSize the number of slots, a power of two
     * @param waitStrategy how consumers wait
     * @param producerWaitStrategy how producers wait when the ring is full
     * @param <E> the event type
     * @return the ring
     */
    public static <E> RingBuffer<E> create(final ProducerType producerType, final EventFactory<E> factory,
                                           final int bufferSize, final WaitStrategy waitStrategy,
                                           final ProducerWaitStrategy producerWaitStrategy) {
        Objects.requireNonNull(producerType, "producerType must not be null");
        final Sequencer sequencer = producerType == ProducerType.SINGLE
                ? new SingleProducerSequencer(bufferSize, waitStrategy, producerWaitStrategy)
                : new MultiProducerSequencer(bufferSize, waitStrategy, producerWaitStrategy);
        return new RingBuffer<>(factory, sequencer);
    }

    /**
     * The event in the slot of {@code sequence}. A producer writes it between claim and
     * publish; a consumer reads it once a barrier has handed it the sequence.
     *
     * @param sequence the sequence
     * @return the event (the slot's one preallocated instance)
     */
    @Override
    public E get(final long sequence) {
        if (sequence < 0) {
            // one predictable compare: sequences start at 0 and only grow
            throw new IllegalArgumentException("sequence must be >= 0 (sequences start at 0), got " + sequence);
        }
        return elementAt(sequence);
    }

    /**
     * Claims the next slot, waiting for space if the ring is full.
     *
     * @return the claimed sequence
     * @throws SequencerClosedException if the ring is closed
     */
    public long next() {
        return sequencer.next();
    }

    /**
     * Claims the next {@code n} slots, waiting for space if needed.
     *
     * @param n how many slots, 1 to {@link #getBufferSize()}
     * @return the highest claimed sequence
     * @throws IllegalArgumentException if {@code n} is out of range
     * @throws SequencerClosedException if the ring is closed
     */
    public long next(final int n) {
        return sequencer.next(n);
    }

    /**
     * Claims the next slot if there is space now.
     *
     * @return the claimed sequence
     * @throws InsufficientCapacityException if the ring is full
     * @throws SequencerClosedException if the ring is closed
     */
    public long tryNext() throws InsufficientCapacityException {
        return sequencer.tryNext();
    }

    /**
     * Claims the next {@code n} slots if there is space for all of them now.
     *
     * @param n how many slots, 1 to {@link #getBufferSize()}
     * @return the highest claimed sequence
     * @throws InsufficientCapacityException if the ring is too full
     * @throws IllegalArgumentException if {@code n} is out of range
     * @throws SequencerClosedException if the ring is closed
     */
    public long tryNext(final int n) throws InsufficientCapacityException {
        return sequencer.tryNext(n);
    }

    /**
     * Publishes a claimed slot.
     *
     * @param sequence a claimed sequence
     * @throws IllegalArgumentException if it was never claimed or is already published
     */
    public void publish(final long sequence) {
        sequencer.publish(sequence);
    }

    /**
     * Publishes a claimed range of slots.
     *
     * @param lo the first sequence
     * @param hi the last sequence
     * @throws IllegalArgumentException if the range is empty or not claimed
     */
    public void publish(final long lo, final long hi) {
        sequencer.publish(lo, hi);
    }

    /**
     * The number of slots.
     *
     * @return a power of two
     */
    public int getBufferSize() {
        return bufferSize;
    }

    /**
     * How many slots are free right now.
     *
     * @return the free slots
     */
    public long remainingCapacity() {
        return sequencer.remainingCapacity();
    }

    /**
     * Whether {@code n} slots could be claimed without waiting.
     *
     * @param n how many slots
     * @return true if there is room
     */
    public boolean hasAvailableCapacity(final int n) {
        return sequencer.hasAvailableCapacity(n);
    }

    /**
     * The producers' cursor (see {@link Sequencer#getCursor()}).
     *
     * @return the cursor
     */
    public long getCursor() {
        return sequencer.getCursor();
    }

    /**
     * Whether {@code sequence} is published and still in the ring.
     *
     * @param sequence the sequence
     * @return true if a consumer may read it
     */
    public boolean isPublished(final long sequence) {
        return sequencer.isAvailable(sequence);
    }

    /**
     * Adds the sequences of the last consumers; producers never lap them.
     *
     * @param gatingSequences the consumer sequences
     */
    public void addGatingSequences(final Sequence... gatingSequences) {
        sequencer.addGatingSequences(gatingSequences);
    }

    /**
     * Removes a gating sequence.
     *
     * @param sequence the sequence
     * @return true if it was present
     */
    public boolean removeGatingSequence(final Sequence sequence) {
        return sequencer.removeGatingSequence(sequence);
    }

    /**
     * The slowest gating sequence (or the cursor if there is none).
     *
     * @return the minimum
     */
    public long getMinimumGatingSequence() {
        return sequencer.getMinimumSequence();
    }

    /**
     * A barrier for a consumer that stays behind the producers and the given upstream stages.
     *
     * @param upstream the sequences of the stages this consumer follows
     * @return a new barrier
     */
    public SequenceBarrier newBarrier(final Sequence... upstream) {
        return sequencer.newBarrier(upstream);
    }

    /**
     * A pull-style consumer over this ring. Add its {@link EventPoller#getSequence()} as a
     * gating sequence.
     *
     * @param upstream the sequences of the stages this poller follows
     * @return a new poller
     */
    public EventPoller<E> newPoller(final Sequence... upstream) {
        return EventPoller.create(this, sequencer, upstream);
    }

    /**
     * The sequencer behind this ring.
     *
     * @return the sequencer
     */
    public Sequencer sequencer() {
        return sequencer;
    }

    /**
     * Stops accepting new claims, as {@link Sequencer#close(String)} describes: later claims throw
     * {@link SequencerClosedException}, published events stay readable, and every publish that
     * returns normally is at or below {@link #closeFence()}. The {@code tryPublish...} methods
     * return false rather than throw.
     *
     * @param reason why, for the exception message
     */
    public void close(final String reason) {
        sequencer.close(reason);
    }

    /**
     * Whether {@link #close(String)} was called.
     *
     * @return true if closed
     */
    public boolean isClosed() {
        return sequencer.isClosed();
    }

    /**
     * The highest sequence accepted before {@link #close(String)}, or {@link Sequencer#OPEN}
     * while open: drain to here and every accepted event has been seen (see
     * {@link Sequencer#getCloseFence()}).
     *
     * @return the close fence, or {@link Sequencer#OPEN}
     */
    public long closeFence() {
        return sequencer.getCloseFence();
    }

    /**
     * How many claims found the ring full and had to wait for a consumer: the first sign of
     * back-pressure, counted without a write on claims that find space.
     *
     * @return the count, from 0
     */
    public long producerWaitCount() {
        return sequencer.getProducerWaitCount();
    }

    // ---------------------------------------------------------------- single-event publication

    /** {@inheritDoc} */
    public void publishEvent(final EventTranslator<E> translator) {
        Objects.requireNonNull(translator, "translator must not be null");
        translateAndPublish(translator, sequencer.next());
    }

    /** {@inheritDoc} */
    public boolean tryPublishEvent(final EventTranslator<E> translator) {
        Objects.requireNonNull(translator, "translator must not be null");
        try {
            translateAndPublish(translator, sequencer.tryNext());
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            // full, or closed (shut down, halted, stopped by a failure): not accepted either way
            return false;
        }
    }

    /** {@inheritDoc} */
    public <A> void publishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        Objects.requireNonNull(translator, "translator must not be null");
        translateAndPublish(translator, sequencer.next(), arg0);
    }

    /** {@inheritDoc} */
    public <A> boolean tryPublishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        Objects.requireNonNull(translator, "translator must not be null");
        try {
            translateAndPublish(translator, sequencer.tryNext(), arg0);
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            return false;
        }
    }

    /** {@inheritDoc} */
    public <A, B> void publishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0, final B arg1) {
        Objects.requireNonNull(translator, "translator must not be null");
        translateAndPublish(translator, sequencer.next(), arg0, arg1);
    }

    /** {@inheritDoc} */
    public <A, B> boolean tryPublishEvent(final EventTranslatorTwoArg<E, A, B> translator,
                                          final A arg0, final B arg1) {
        Objects.requireNonNull(translator, "translator must not be null");
        try {
            translateAndPublish(translator, sequencer.tryNext(), arg0, arg1);
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            return false;
        }
    }

    /** {@inheritDoc} */
    public <A, B, C> void publishEvent(final EventTranslatorThreeArg<E, A, B, C> translator,
                                       final A arg0, final B arg1, final C arg2) {
        Objects.requireNonNull(translator, "translator must not be null");
        translateAndPublish(translator, sequencer.next(), arg0, arg1, arg2);
    }

    /** {@inheritDoc} */
    public <A, B, C> boolean tryPublishEvent(final EventTranslatorThreeArg<E, A, B, C> translator,
                                             final A arg0, final B arg1, final C arg2) {
        Objects.requireNonNull(translator, "translator must not be null");
        try {
            translateAndPublish(translator, sequencer.tryNext(), arg0, arg1, arg2);
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            return false;
        }
    }

    /** {@inheritDoc} */
    public void publishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        Objects.requireNonNull(translator, "translator must not be null");
        translateAndPublish(translator, sequencer.next(), args);
    }

    /** {@inheritDoc} */
    public boolean tryPublishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        Objects.requireNonNull(translator, "translator must not be null");
        try {
            translateAndPublish(translator, sequencer.tryNext(), args);
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            return false;
        }
    }

    // ---------------------------------------------------------------- batch publication

    /** {@inheritDoc} */
    public void publishEvents(final EventTranslator<E>[] translators) {
        publishEvents(translators, 0, checkedLength(translators));
    }

    /** {@inheritDoc} */
    public void publishEvents(final EventTranslator<E>[] translators, final int batchStartsAt, final int batchSize) {
        checkBatch(translators, batchStartsAt, batchSize);
        translateAndPublishBatch(translators, batchStartsAt, batchSize, sequencer.next(batchSize));
    }

    /** {@inheritDoc} */
    public boolean tryPublishEvents(final EventTranslator<E>[] translators) {
        return tryPublishEvents(translators, 0, checkedLength(translators));
    }

    /** {@inheritDoc} */
    public boolean tryPublishEvents(final EventTranslator<E>[] translators, final int batchStartsAt,
                                    final int batchSize) {
        checkBatch(translators, batchStartsAt, batchSize);
        try {
            translateAndPublishBatch(translators, batchStartsAt, batchSize, sequencer.tryNext(batchSize));
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            return false;
        }
    }

    /** {@inheritDoc} */
    public <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        publishEvents(translator, 0, checkedLength(args), args);
    }

    /** {@inheritDoc} */
    public <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt,
                                  final int batchSize, final A[] args) {
        Objects.requireNonNull(translator, "translator must not be null");
        checkBatch(args, batchStartsAt, batchSize);
        translateAndPublishBatch(translator, batchStartsAt, batchSize, sequencer.next(batchSize), args);
    }

    /** {@inheritDoc} */
    public <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        return tryPublishEvents(translator, 0, checkedLength(args), args);
    }

    /** {@inheritDoc} */
    public <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt,
                                        final int batchSize, final A[] args) {
        Objects.requireNonNull(translator, "translator must not be null");
        checkBatch(args, batchStartsAt, batchSize);
        try {
            translateAndPublishBatch(translator, batchStartsAt, batchSize, sequencer.tryNext(batchSize), args);
            return true;
        } catch (InsufficientCapacityException | SequencerClosedException refused) {
            return false;
        }
    }

    /** {@inheritDoc} */
    public <A, B> void publishEvents(final EventTranslatorTwoArg<E, A, B> translator, final A[] arg0,
                                     final B[] arg1) {
        Objects.requireNonNull(translator, "translator must not be null");
        final int batchSize = checkedLength(arg0);
        checkSameLength("arg1", arg1, batchSize);
        final long hi = sequencer.next(batchSize);
        final long lo = hi - (batchSize - 1);
        try {
            for (int i = 0; i < batchSize; i++) {
                translator.translateTo(get(lo + i), lo + i, arg0[i], arg1[i]);
            }
        } finally {
            sequencer.publish(lo, hi);
        }
    }

    /** {@inheritDoc} */
    public <A, B, C> void publishEvents(final EventTranslatorThreeArg<E, A, B, C> translator, final A[] arg0,
                                        final B[] arg1, final C[] arg2) {
        Objects.requireNonNull(translator, "translator must not be null");
        final int batchSize = checkedLength(arg0);
        checkSameLength("arg1", arg1, batchSize);
        checkSameLength("arg2", arg2, batchSize);
        final long hi = sequencer.next(batchSize);
        final long lo = hi - (batchSize - 1);
        try {
            for (int i = 0; i < batchSize; i++) {
                translator.translateTo(get(lo + i), lo + i, arg0[i], arg1[i], arg2[i]);
            }
        } finally {
            sequencer.publish(lo, hi);
        }
    }

    /** {@inheritDoc} */
    public void publishEvents(final EventTranslatorVararg<E> translator, final Object[]... args) {
        Objects.requireNonNull(translator, "translator must not be null");
        final int batchSize = checkedLength(args);
        final long hi = sequencer.next(batchSize);
        final long lo = hi - (batchSize - 1);
        try {
            for (int i = 0; i < batchSize; i++) {
                translator.translateTo(get(lo + i), lo + i, args[i]);
            }
        } finally {
            sequencer.publish(lo, hi);
        }
    }

    // ---------------------------------------------------------------- helpers

    private void translateAndPublish(final EventTranslator<E> translator, final long sequence) {
        try {
            translator.translateTo(get(sequence), sequence);
        } finally {
            sequencer.publish(sequence);
        }
    }

    private <A> void translateAndPublish(final EventTranslatorOneArg<E, A> translator, final long sequence,
                                         final A arg0) {
        try {
            translator.translateTo(get(sequence), sequence, arg0);
        } finally {
            sequencer.publish(sequence);
        }
    }

    private <A, B> void translateAndPublish(final EventTranslatorTwoArg<E, A, B> translator, final long sequence,
                                            final A arg0, final B arg1) {
        try {
            translator.translateTo(get(sequence), sequence, arg0, arg1);
        } finally {
            sequencer.publish(sequence);
        }
    }

    private <A, B, C> void translateAndPublish(final EventTranslatorThreeArg<E, A, B, C> translator,
                                               final long sequence, final A arg0, final B arg1, final C arg2) {
        try {
            translator.translateTo(get(sequence), sequence, arg0, arg1, arg2);
        } finally {
            sequencer.publish(sequence);
        }
    }

    private void translateAndPublish(final EventTranslatorVararg<E> translator, final long sequence,
                                     final Object... args) {
        try {
            translator.translateTo(get(sequence), sequence, args);
        } finally {
            sequencer.publish(sequence);
        }
    }

    private void translateAndPublishBatch(final EventTranslator<E>[] translators, final int batchStartsAt,
                                          final int batchSize, final long hi) {
        final long lo = hi - (batchSize - 1);
        try {
            for (int i = 0; i < batchSize; i++) {
                translators[batchStartsAt + i].translateTo(get(lo + i), lo + i);
            }
        } finally {
            sequencer.publish(lo, hi);
        }
    }

    private <A> void translateAndPublishBatch(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt,
                                              final int batchSize, final long hi, final A[] args) {
        final long lo = hi - (batchSize - 1);
        try {
            for (int i = 0; i < batchSize; i++) {
                translator.translateTo(get(lo + i), lo + i, args[batchStartsAt + i]);
            }
        } finally {
            sequencer.publish(lo, hi);
        }
    }

    private int checkedLength(final Object[] array) {
        Objects.requireNonNull(array, "batch array must not be null");
        checkBatch(array, 0, array.length);
        return array.length;
    }

    private static void checkSameLength(final String name, final Object[] array, final int expected) {
        Objects.requireNonNull(array, name + " must not be null");
        if (array.length != expected) {
            throw new IllegalArgumentException(name + " has " + array.length
                    + " elements but arg0 has " + expected + ": every argument array needs one element per event");
        }
    }

    private void checkBatch(final Object[] array, final int batchStartsAt, final int batchSize) {
        Objects.requireNonNull(array, "batch array must not be null");
        if (batchStartsAt < 0 || batchSize < 1 || batchSize > bufferSize
                || batchStartsAt + batchSize > array.length) {
            throw new IllegalArgumentException("invalid batch: batchStartsAt " + batchStartsAt + ", batchSize "
                    + batchSize + ", array length " + array.length + ", buffer size " + bufferSize
                    + " (need 0 <= start, 1 <= size <= buffer size, start + size <= length)");
        }
    }

    @Override
    public String toString() {
        return "RingBuffer{bufferSize=" + bufferSize + ", sequencer=" + sequencer + '}';
    }
}
