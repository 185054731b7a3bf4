package dev.slipstream.sequence;

import dev.slipstream.internal.FieldHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;

/**
 * What both sequencers share: argument checks, the cursor, the gating sequences, barriers and
 * closing.
 */
abstract class AbstractSequencer implements Sequencer {
    private static final VarHandle GATING_SEQUENCES = FieldHandles.of(AbstractSequencer.class, "gatingSequences", Sequence[].class);
    private static final VarHandle CLOSED_REASON = FieldHandles.of(AbstractSequencer.class, "closedReason", String.class);
    private static final Sequence[] NO_SEQUENCES = new Sequence[0];

    protected final int bufferSize;
    protected final WaitStrategy waitStrategy;
    protected final ProducerWaitStrategy producerWaitStrategy;
    protected final Sequence cursor = new Sequence(INITIAL_CURSOR_VALUE);

    /** Replaced wholesale (copy on write), so producers iterate a stable array without locking. */
    protected volatile Sequence[] gatingSequences = NO_SEQUENCES;

    /** Null while open; written once by {@link #close(String)}, read by claiming and publishing producers. */
    volatile String closedReason;

    /**
     * The highest sequence accepted before the close; {@link Sequencer#OPEN} until the closing
     * thread has computed it (it does so right after storing {@link #closedReason}).
     */
    private volatile long closeFence = OPEN;

    /**
     * Claims that found the ring full and had to wait. Written only on that slow path, so a
     * claim that finds space writes nothing here; padded, because producers of a full ring are
     * the ones that write it while consumers' lines stay hot.
     */
    private final Sequence producerWaits = new Sequence(0L);

    AbstractSequencer(final int bufferSize, final WaitStrategy waitStrategy,
                      final ProducerWaitStrategy producerWaitStrategy) {
        checkBufferSize(bufferSize);
        this.bufferSize = bufferSize;
        this.waitStrategy = Objects.requireNonNull(waitStrategy, "waitStrategy must not be null");
        this.producerWaitStrategy =
                Objects.requireNonNull(producerWaitStrategy, "producerWaitStrategy must not be null");
    }

    /** Rejects sizes the ring cannot use: below 1 or not a power of two (indexes are masked). */
    static void checkBufferSize(final int bufferSize) {
        if (bufferSize < 1) {
            throw new IllegalArgumentException("bufferSize must be at least 1, got " + bufferSize);
        }
        if (bufferSize > MAX_BUFFER_SIZE) {
            throw new IllegalArgumentException("bufferSize must be at most " + MAX_BUFFER_SIZE
                    + " (2^28 slots), got " + bufferSize);
        }
        if (Integer.bitCount(bufferSize) != 1) {
            throw new IllegalArgumentException("bufferSize must be a power of two, got " + bufferSize
                    + " (nearest: " + Integer.highestOneBit(bufferSize) + " or "
                    + (Integer.highestOneBit(bufferSize) << 1) + ")");
        }
    }

    final void checkClaimSize(final int n) {
        if (n < 1 || n > bufferSize) {
            throw new IllegalArgumentException(
                    "n must be between 1 and the buffer size " + bufferSize + ", got " + n);
        }
    }

    final void checkOpen() {
        final String reason = closedReason;
        if (reason != null) {
            throw new SequencerClosedException("cannot claim: the sequencer is closed (" + reason + ")");
        }
    }

    /** Waits once for space, as the producer wait strategy says; throws if closed meanwhile. */
    final void waitForSpace(final int attempt) {
        countWait(attempt);
        checkOpen();
        producerWaitStrategy.idle(attempt);
    }

    /**
     * Waits once for space, as the producer wait strategy says, without checking the close: for a
     * producer that already holds its claim and decides itself what a close means for it.
     */
    final void idleForSpace(final int attempt) {
        countWait(attempt);
        producerWaitStrategy.idle(attempt);
    }

    private void countWait(final int attempt) {
        if (attempt == 0) {
            // atomic add, on the full-ring path only: a claim that finds space never writes it
            producerWaits.getAndAdd(1L);
        }
    }

    /**
     * Called by a producer before it makes {@code lo..hi} visible: if the sequencer is closing,
     * throws unless the claim was accepted before the close. The caller's claim store comes
     * first and this volatile load of the reason second; close() stores the reason first and
     * loads the claims second. So either close() counted this claim in its fence, or this load
     * sees the reason, and a claim past the fence is refused here, before any consumer can see
     * it. Every claim after a refused one is past the fence as well, so refusing leaves no hole
     * below the fence.
     */
    final void checkAccepted(final long lo, final long hi) {
        // volatile load: the second half of the pairing described above
        final String reason = closedReason;
        if (reason == null) {
            return;
        }
        final long fence = awaitCloseFence();
        if (hi > fence) {
            throw new SequencerClosedException("not accepted: sequences " + lo + ".." + hi
                    + " were claimed after the sequencer closed (" + reason + "); the last accepted sequence is "
                    + fence);
        }
    }

    /**
     * Called by a producer that holds a claim of {@code sequence} and is still waiting for space:
     * throws if the sequencer closed with its fence below the claim (the claim is not accepted).
     * At or below the fence it returns: the closing thread saw the claim's space freed already.
     */
    final void checkWaitingClaim(final long sequence) {
        // volatile load of the reason, then of the fence: the fence was stored after the closing
        // thread read the consumers, so this thread's next look at them sees them at least as far
        final String reason = closedReason;
        if (reason == null) {
            return;
        }
        final long fence = getCloseFence();
        if (sequence > fence) {
            throw new SequencerClosedException("not accepted: sequence " + sequence
                    + " was waiting for space when the sequencer closed (" + reason
                    + "); the last accepted sequence is " + fence);
        }
    }

    /**
     * The close fence, computed by the closing thread right after it stored the closed reason: the
     * highest claimed sequence it sees, lowered (by the multi-producer sequencer) below any claim
     * that is still waiting for space. Every claim that checked the sequencer open before that
     * store and can be published must be at or below it; every claim below it must be one its
     * producer will publish, so a consumer that drains to the fence finds no hole.
     */
    abstract long fenceForClose();

    @Override
    public long tryNext() throws InsufficientCapacityException {
        return tryNext(1);
    }

    @Override
    public final int getBufferSize() {
        return bufferSize;
    }

    @Override
    public final long getCursor() {
        return cursor.get();
    }

    @Override
    public final void addGatingSequences(final Sequence... sequencesToAdd) {
        Objects.requireNonNull(sequencesToAdd, "gating sequences must not be null");
        for (int i = 0; i < sequencesToAdd.length; i++) {
            Objects.requireNonNull(sequencesToAdd[i], "gating sequence " + i + " is null");
        }
        Sequence[] current;
        Sequence[] updated;
        long cursorSequence;
        do {
            current = gatingSequences;
            updated = Arrays.copyOf(current, current.length + sequencesToAdd.length);
            cursorSequence = getCursor();
            int index = current.length;
            for (final Sequence sequence : sequencesToAdd) {
                sequence.set(cursorSequence);
                updated[index++] = sequence;
            }
            // volatile CAS: producers that read the new array also see the sequences' values set above
        } while (!casGatingSequences(current, updated));

        // The cursor may have moved while we added: start the new sequences no further back than it.
        cursorSequence = getCursor();
        for (final Sequence sequence : sequencesToAdd) {
            sequence.set(cursorSequence);
        }
    }

    private boolean casGatingSequences(final Sequence[] expected, final Sequence[] updated) {
        return GATING_SEQUENCES.compareAndSet(this, expected, updated);
    }

    private boolean casClosedReason(final String expected, final String reason) {
        return CLOSED_REASON.compareAndSet(this, expected, reason);
    }

    @Override
    public final boolean removeGatingSequence(final Sequence sequence) {
        Sequence[] current;
        Sequence[] updated;
        do {
            current = gatingSequences;
            updated = Arrays.stream(current).filter(s -> s != sequence).toArray(Sequence[]::new);
            if (updated.length == current.length) {
                return false;
            }
        } while (!casGatingSequences(current, updated));
        return true;
    }

    @Override
    public final long getMinimumSequence() {
        return Sequences.minimum(gatingSequences, cursor.get());
    }

    @Override
    public final SequenceBarrier newBarrier(final Sequence... sequencesToTrack) {
        return new ProcessingSequenceBarrier(this, waitStrategy, cursor, sequencesToTrack);
    }

    @Override
    public final SequenceBarrier newBarrier(final WaitStrategy strategy, final Sequence... sequencesToTrack) {
        Objects.requireNonNull(strategy, "waitStrategy must not be null");
        return new ProcessingSequenceBarrier(this, strategy, cursor, sequencesToTrack);
    }

    @Override
    public final void close(final String reason) {
        Objects.requireNonNull(reason, "reason must not be null");
        // volatile CAS: the first close wins and computes the fence; producers that claim or
        // publish after this see it (checkOpen, checkAccepted)
        if (casClosedReason(null, reason)) {
            // volatile store of the fence, after the claims were read (fenceForClose's loads)
            closeFence = fenceForClose();
        }
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public final boolean isClosed() {
        return closedReason != null;
    }

    @Override
    public final long getCloseFence() {
        return closedReason == null ? OPEN : awaitCloseFence();
    }

    /** The fence of a sequencer seen closed: the closing thread stores it right after the reason. */
    private long awaitCloseFence() {
        long fence;
        // volatile loads: the closer stores the fence without blocking after the reason, so this wait is short
        while ((fence = closeFence) == OPEN) {
            Thread.onSpinWait();
        }
        return fence;
    }

    @Override
    public final long getProducerWaitCount() {
        // acquire load: a monotonic count, read by monitoring
        return producerWaits.get();
    }

    /**
     * The wait strategy consumers of this sequencer wait with.
     *
     * @return the wait strategy
     */
    public final WaitStrategy getWaitStrategy() {
        return waitStrategy;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{bufferSize=" + bufferSize + ", cursor=" + cursor
                + ", gatingSequences=" + Arrays.toString(gatingSequences) + ", closed=" + isClosed() + '}';
    }
}
