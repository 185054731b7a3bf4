package dev.slipstream.sequence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A sequencer for any number of publishing threads.
 *
 * <p>A single claim ({@link #next()}) is one fetch-and-add on the cursor, which never fails and
 * never retries however many producers contend; the producer then waits, holding its sequence,
 * until the slowest consumer has freed the slot. A claim of several slots ({@link #next(int)}
 * with {@code n > 1}) and every {@code tryNext} are one compare-and-set made only once the slots
 * are known to be free. Either way the cursor says what is <em>claimed</em>, not what is
 * published, so each slot carries an availability flag: the lap number of the sequence last
 * published into it. A consumer reads up to the highest sequence whose own flag, and every
 * earlier flag, is set ({@link #getHighestPublishedSequence}), so it never reads a slot that is
 * claimed but still being written.
 *
 * <p><b>Closing never leaves a hole.</b> A single claim may be waiting for space at the close, and
 * could then never be published; so the close fence is lowered to the last slot whose space the
 * consumers had freed. A claim above it throws (while waiting) or is refused (when publishing).
 * Claims of several slots are made only with space, so they never straddle the fence.
 *
 * <p>Between claim and publish the flag holds a <em>claim mark</em> (the lap with the sign bit
 * set). A publish checks its own slot's mark, on a line it writes anyway, rather than the
 * contended cursor: a sequence never claimed, already published or over a ring old is refused.
 *
 * <pre>{@code
 * Sequencer sequencer = new MultiProducerSequencer(1024, new BlockingWaitStrategy());
 * // on any producer thread:
 * long seq = sequencer.next();
 * slots[(int) (seq & 1023)].value = 7;
 * sequencer.publish(seq);
 * }</pre>
 */
public final class MultiProducerSequencer extends AbstractSequencer {
    private static final VarHandle AVAILABLE = MethodHandles.arrayElementVarHandle(int[].class);

    /** Last gating minimum seen by any producer; shared, so it is a padded sequence. */
    private final Sequence gatingSequenceCache = new Sequence(INITIAL_CURSOR_VALUE);
    /**
     * Per slot: the lap ({@code sequence >>> indexShift}) last published into it, -1 before the
     * first, or the claim mark of a claim not yet published.
     */
    private final int[] availableBuffer;
    private final int indexMask;
    private final int indexShift;

    /**
     * Creates a sequencer whose producers wait for space with the default producer strategy
     * (spin, then yield, then park).
     *
     * @param bufferSize the ring size, a power of two
     * @param waitStrategy how consumers wait
     */
    public MultiProducerSequencer(final int bufferSize, final WaitStrategy waitStrategy) {
        this(bufferSize, waitStrategy, DefaultProducerWait.INSTANCE);
    }

    /**
     * Creates a sequencer.
     *
     * @param bufferSize the ring size, a power of two
     * @param waitStrategy how consumers wait
     * @param producerWaitStrategy how producers wait when the ring is full
     */
    public MultiProducerSequencer(final int bufferSize, final WaitStrategy waitStrategy,
                                  final ProducerWaitStrategy producerWaitStrategy) {
        super(bufferSize, waitStrategy, producerWaitStrategy);
        this.availableBuffer = new int[bufferSize];
        this.indexMask = bufferSize - 1;
        this.indexShift = Integer.numberOfTrailingZeros(bufferSize);
        for (int i = 0; i < bufferSize; i++) {
            // release: the -1 of every slot is visible to a consumer handed this sequencer
            soAvailable(i, -1);
        }
    }

    @Override
    public boolean hasAvailableCapacity(final int required) {
        return hasAvailableCapacity(required, cursor.get());
    }

    private boolean hasAvailableCapacity(final int required, final long claimed) {
        final long wrapPoint = claimed + required - bufferSize;
        final long cached = gatingSequenceCache.get();
        if (wrapPoint > cached || cached > claimed) {
            final long minSequence = Sequences.minimum(gatingSequences, claimed);
            gatingSequenceCache.set(minSequence);
            return wrapPoint <= minSequence;
        }
        return true;
    }

    @Override
    public long next() {
        // volatile load: no claim once the close is seen (a claim that races it is handled below)
        checkOpen();
        // atomic add: the claim, never retried; space is confirmed after it, holding the sequence
        final long current = cursor.getAndAdd(1L);
        final long sequence = current + 1;
        final long cached = gatingSequenceCache.get();
        if (sequence - bufferSize > cached || cached > current) {
            awaitSpace(sequence);
        }
        markClaimed(sequence, sequence);
        return sequence;
    }

    /**
     * Waits until the slowest consumer has freed the slot of {@code sequence}, claimed already by
     * this thread. If the sequencer closes meanwhile, the fence tells which side the claim is on:
     * at or below it, the close saw the space freed, so the next look finds it; above it, the
     * claim is not accepted and this throws, leaving no hole below the fence.
     */
    private void awaitSpace(final long sequence) {
        final long wrapPoint = sequence - bufferSize;
        int attempt = 0;
        while (true) {
            final long minSequence = Sequences.minimum(gatingSequences, sequence - 1);
            gatingSequenceCache.set(minSequence);
            if (wrapPoint <= minSequence) {
                return;
            }
            checkWaitingClaim(sequence);
            idleForSpace(attempt++);
        }
    }

    @Override
    public long next(final int n) {
        if (n == 1) {
            return next();
        }
        checkClaimSize(n);
        int attempt = 0;
        while (true) {
            checkOpen();
            // volatile load: the claim below is a CAS against exactly this value
            final long current = cursor.get();
            final long nextSequence = current + n;
            final long wrapPoint = nextSequence - bufferSize;
            final long cached = gatingSequenceCache.get();
            if (wrapPoint > cached || cached > current) {
                final long minSequence = Sequences.minimum(gatingSequences, current);
                gatingSequenceCache.set(minSequence);
                if (wrapPoint > minSequence) {
                    // full: wait with nothing claimed, so a claim of several slots never waits
                    // for space and never straddles the close fence
                    waitForSpace(attempt++);
                    continue;
                }
            }
            // volatile CAS: claims only after space was confirmed for exactly this cursor value;
            // a producer that lost the race re-reads and re-checks
            if (cursor.compareAndSet(current, nextSequence)) {
                markClaimed(current + 1, nextSequence);
                return nextSequence;
            }
        }
    }

    @Override
    public long tryNext(final int n) throws InsufficientCapacityException {
        checkClaimSize(n);
        checkOpen();
        long current;
        long next;
        do {
            current = cursor.get();
            next = current + n;
            if (!hasAvailableCapacity(n, current)) {
                throw InsufficientCapacityException.INSTANCE;
            }
            // volatile CAS: claims only if no other producer claimed in between
        } while (!cursor.compareAndSet(current, next));
        markClaimed(current + 1, next);
        return next;
    }

    @Override
    public long remainingCapacity() {
        final long claimed = cursor.get();
        final long consumed = Sequences.minimum(gatingSequences, claimed);
        // claims waiting for space can take the cursor past a full ring: report none left then
        return Math.max(0L, bufferSize - (claimed - consumed));
    }

    @Override
    public void publish(final long sequence) {
        // after the claim's CAS, before the slot becomes visible: a claim that raced a close is
        // refused and never seen by a consumer (every later claim is past the fence too)
        checkAccepted(sequence, sequence);
        // the claim mark check of the class comment: this slot's line, not the contended cursor's
        if (lrAvailable(sequence) != claimMark(sequence)) {
            throw notPublishable(sequence, sequence, sequence);
        }
        setAvailable(sequence);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public void publish(final long lo, final long hi) {
        if (lo > hi) {
            throw notPublishable(lo, hi, lo);
        }
        checkAccepted(lo, hi);
        // every slot is checked before any is published: a refused range publishes nothing
        for (long sequence = lo; sequence <= hi; sequence++) {
            if (lrAvailable(sequence) != claimMark(sequence)) {
                throw notPublishable(lo, hi, sequence);
            }
        }
        for (long sequence = lo; sequence <= hi; sequence++) {
            setAvailable(sequence);
        }
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    long fenceForClose() {
        // volatile load after close()'s volatile store of the reason: every claim's atomic update
        // either precedes this load (counted) or follows it, and then its publish sees the reason
        final long claimed = cursor.get();
        // acquire loads, after the cursor's: a single claim may still be waiting for space, and
        // its slot could never be published; lowering the fence to the last slot already freed
        // keeps every claim at or below it publishable. A claim of several slots counted above
        // read the consumers before its CAS, which this load saw, so it lies below this bound.
        final long freed = Sequences.minimum(gatingSequences, claimed) + bufferSize;
        return Math.min(claimed, freed);
    }

    /**
     * The flag value of a slot claimed for {@code sequence} and not yet published: its lap with
     * the sign bit set, which no published lap (0 to 2^31 - 1) and no initial flag (-1) equals.
     */
    private int claimMark(final long sequence) {
        return (int) (sequence >>> indexShift) | Integer.MIN_VALUE;
    }

    /** Marks {@code lo..hi}, just claimed by this thread, as claimed and not yet published. */
    private void markClaimed(final long lo, final long hi) {
        for (long sequence = lo; sequence <= hi; sequence++) {
            // opaque: coherent with the slot's later release store in setAvailable, so no thread
            // reads the mark after it has read the publication; a consumer that reads the mark
            // sees no published lap and waits, as for any slot not yet published. The slot's
            // previous lap is consumed already (the claim confirmed the space), so nobody needs
            // the flag the mark replaces.
            srAvailable(sequence, claimMark(sequence));
        }
    }

    /** Why {@code lo..hi} cannot be published; {@code first} is the first slot that failed the check. */
    private IllegalArgumentException notPublishable(final long lo, final long hi, final long first) {
        if (lo > hi) {
            return new IllegalArgumentException("publish range is empty: lo " + lo + " > hi " + hi);
        }
        if (lo < 0) {
            return new IllegalArgumentException("cannot publish sequence " + lo + ": sequences start at 0");
        }
        // volatile load, off the hot path: only to explain the refusal
        final long claimed = cursor.get();
        if (first > claimed) {
            return new IllegalArgumentException("cannot publish sequence " + first
                    + ": it was never claimed (highest claimed is " + claimed + ")");
        }
        // acquire: the flag as the last publication of this slot left it
        if (laAvailable(first) == (int) (first >>> indexShift)) {
            return new IllegalArgumentException("cannot publish sequence " + first + ": it is already published");
        }
        return new IllegalArgumentException("cannot publish sequence " + first
                + ": it is more than a ring behind the highest claim " + claimed
                + " and its slot has been claimed again since");
    }

    private void setAvailable(final long sequence) {
        // release: publishes the event fields written into the slot before this store
        soAvailable(sequence, (int) (sequence >>> indexShift));
    }

    // ------------------------------------------------------------ the flags, by access mode

    private int lrAvailable(final long sequence) {
        return (int) AVAILABLE.getOpaque(availableBuffer, (int) sequence & indexMask);
    }

    private int laAvailable(final long sequence) {
        return (int) AVAILABLE.getAcquire(availableBuffer, (int) sequence & indexMask);
    }

    private void srAvailable(final long sequence, final int flag) {
        AVAILABLE.setOpaque(availableBuffer, (int) sequence & indexMask, flag);
    }

    private void soAvailable(final long sequence, final int flag) {
        AVAILABLE.setRelease(availableBuffer, (int) sequence & indexMask, flag);
    }

    @Override
    public boolean isAvailable(final long sequence) {
        // acquire: pairs with setAvailable, so the event fields are visible once this is true
        return laAvailable(sequence)
                == (int) (sequence >>> indexShift);
    }

    @Override
    public long getHighestPublishedSequence(final long lowerBound, final long availableSequence) {
        for (long sequence = lowerBound; sequence <= availableSequence; sequence++) {
            if (!isAvailable(sequence)) {
                return sequence - 1;
            }
        }
        return availableSequence;
    }
}
