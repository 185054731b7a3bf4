package dev.slipstream.sequence;

/**
 * Hands out slots of a ring to producers and tracks which of them are published.
 *
 * <p>Two implementations: {@link SingleProducerSequencer} (one publishing thread, no atomic
 * read-modify-write on the claim path) and {@link MultiProducerSequencer} (any number of
 * publishing threads, an atomic claim and a per-slot availability flag). Both stop a producer
 * from wrapping onto a slot that a gating sequence (the last stage of every consumer chain) has
 * not finished with, waiting per a {@link ProducerWaitStrategy}.
 *
 * <pre>{@code
 * Sequencer sequencer = new SingleProducerSequencer(1024, waitStrategy);
 * sequencer.addGatingSequences(consumer.getSequence());
 * long hi = sequencer.next(4);                  // claim 4 slots
 * // ... write slots hi-3 .. hi ...
 * sequencer.publish(hi - 3, hi);                // make them visible
 * }</pre>
 */
public interface Sequencer {
    /** The value of the cursor before anything is published. */
    long INITIAL_CURSOR_VALUE = Sequence.INITIAL_VALUE;

    /** What {@link #getCloseFence()} returns while the sequencer is open. */
    long OPEN = Long.MAX_VALUE;

    /**
     * The largest ring a sequencer accepts: 2^28 slots. Beyond it the slot arrays alone take
     * gigabytes, and a mistyped size would otherwise end in {@link OutOfMemoryError} instead of a
     * message.
     */
    int MAX_BUFFER_SIZE = 1 << 28;

    /**
     * The number of slots in the ring.
     *
     * @return a power of two
     */
    int getBufferSize();

    /**
     * The cursor: for a single producer the highest published sequence; for many producers the
     * highest <em>claimed</em> sequence (use {@link #getHighestPublishedSequence} to find the
     * published prefix).
     *
     * @return the cursor value
     */
    long getCursor();

    /**
     * Claims the next slot, waiting for space if the ring is full.
     *
     * @return the claimed sequence
     * @throws SequencerClosedException if the sequencer is closed
     */
    long next();

    /**
     * Claims the next {@code n} slots, waiting for space if needed.
     *
     * @param n how many slots, 1 to {@link #getBufferSize()}
     * @return the highest claimed sequence; the claim is {@code hi - n + 1 .. hi}
     * @throws IllegalArgumentException if {@code n} is out of range
     * @throws SequencerClosedException if the sequencer is closed
     */
    long next(int n);

    /**
     * Claims the next slot if there is space now.
     *
     * @return the claimed sequence
     * @throws InsufficientCapacityException if the ring is full
     * @throws SequencerClosedException if the sequencer is closed
     */
    long tryNext() throws InsufficientCapacityException;

    /**
     * Claims the next {@code n} slots if there is space for all of them now.
     *
     * @param n how many slots, 1 to {@link #getBufferSize()}
     * @return the highest claimed sequence
     * @throws InsufficientCapacityException if the ring is too full
     * @throws IllegalArgumentException if {@code n} is out of range
     * @throws SequencerClosedException if the sequencer is closed
     */
    long tryNext(int n) throws InsufficientCapacityException;

    /**
     * Whether {@code required} slots could be claimed now without waiting.
     *
     * @param required how many slots
     * @return true if there is room
     */
    boolean hasAvailableCapacity(int required);

    /**
     * How many slots are free: the buffer size less what is claimed but not yet consumed by the
     * slowest gating sequence.
     *
     * @return the free slots
     */
    long remainingCapacity();

    /**
     * Publishes a claimed slot: consumers may read it once this returns.
     *
     * @param sequence a claimed, unpublished sequence
     * @throws IllegalArgumentException if {@code sequence} was never claimed or is already
     *     published
     */
    void publish(long sequence);

    /**
     * Publishes a claimed range.
     *
     * @param lo the first sequence of the range
     * @param hi the last sequence of the range
     * @throws IllegalArgumentException if the range is empty or was not claimed
     */
    void publish(long lo, long hi);

    /**
     * Whether {@code sequence} is published and readable.
     *
     * @param sequence the sequence
     * @return true if published
     */
    boolean isAvailable(long sequence);

    /**
     * The highest sequence in {@code lowerBound .. availableSequence} below which every slot is
     * published. For a single producer this is {@code availableSequence}.
     *
     * @param lowerBound the first sequence to check
     * @param availableSequence the highest sequence to check
     * @return the highest contiguous published sequence, or {@code lowerBound - 1}
     */
    long getHighestPublishedSequence(long lowerBound, long availableSequence);

    /**
     * Adds sequences that producers must not overtake by more than the ring size. They are set
     * to the current cursor first, so a stage added while running starts at the cursor.
     *
     * @param gatingSequences the sequences of the last consumers
     */
    void addGatingSequences(Sequence... gatingSequences);

    /**
     * Removes a gating sequence; producers no longer wait for it.
     *
     * @param sequence the sequence to remove
     * @return true if it was present
     */
    boolean removeGatingSequence(Sequence sequence);

    /**
     * The minimum of the gating sequences and the cursor.
     *
     * @return the slowest position
     */
    long getMinimumSequence();

    /**
     * Creates a barrier over this sequencer's cursor and the given upstream sequences.
     *
     * @param sequencesToTrack upstream stages the consumer must stay behind; none means the
     *     consumer reads straight behind the producers
     * @return a new barrier
     */
    SequenceBarrier newBarrier(Sequence... sequencesToTrack);

    /**
     * Creates a barrier that waits with its own strategy instead of the sequencer's: for a stage
     * that wants to wait differently from the others (it must still be signalled on every
     * publish: producers signal the sequencer's strategy, so that strategy must forward the
     * signal, as a pipeline's per-stage strategies do).
     *
     * <pre>{@code
     * SequenceBarrier barrier = sequencer.newBarrier(new BusySpinWaitStrategy(), journal.getSequence());
     * }</pre>
     *
     * @param waitStrategy how the consumer behind this barrier waits
     * @param sequencesToTrack upstream stages the consumer must stay behind
     * @return a new barrier
     */
    SequenceBarrier newBarrier(WaitStrategy waitStrategy, Sequence... sequencesToTrack);

    /**
     * Closes the sequencer: every later claim, and every producer waiting for space, throws
     * {@link SequencerClosedException} with {@code reason}. Already published events stay
     * readable.
     *
     * <p>Closing fixes the {@linkplain #getCloseFence() close fence}: the highest accepted claim.
     * Claims at or below it stay valid and are published normally, so nothing accepted is
     * abandoned. A claim that raced the close, above the fence, is refused when published:
     * {@link #publish(long)} throws without making the slot visible (every later claim is above
     * too, so no hole is left). A producer still waiting for space holds no claim or one above
     * the fence, so it throws. The first call wins; later calls only wake waiting consumers.
     *
     * @param reason why, for the exception message
     */
    void close(String reason);

    /**
     * The highest sequence whose claim was accepted before {@link #close(String)}, or
     * {@link #OPEN} while the sequencer is open. A consumer that drains a closed ring drains to
     * here: every sequence up to the fence is (or will be) published by its producer, none
     * above it is accepted.
     *
     * @return the close fence, or {@link #OPEN}
     */
    long getCloseFence();

    /**
     * How many claims found the ring full and had to wait for a consumer, since the sequencer
     * was created: the first signal of back-pressure. Counted on the full-ring path only, so a
     * claim that finds space costs nothing extra.
     *
     * @return the count, from 0
     */
    long getProducerWaitCount();

    /**
     * Whether {@link #close(String)} has been called.
     *
     * @return true if closed
     */
    boolean isClosed();
}
