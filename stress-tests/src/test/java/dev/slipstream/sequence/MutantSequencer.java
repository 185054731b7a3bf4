package dev.slipstream.sequence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A multi-producer sequencer with one seeded bug, to prove that the close-protocol tests can
 * fail. Not for use outside tests: each {@link Bug} removes exactly one piece of
 * {@link MultiProducerSequencer}'s close protocol.
 */
final class MutantSequencer extends AbstractSequencer {
    /** Which piece of the protocol is missing. */
    enum Bug {
        /** Claims with fetch-and-add before it knows there is space (the protocol before the fence). */
        CLAIM_BEFORE_SPACE,
        /** Claims with a CAS after space is confirmed, but never refuses a claim that raced a close. */
        NO_FENCE_CHECK
    }

    private static final VarHandle AVAILABLE = MethodHandles.arrayElementVarHandle(int[].class);

    private final Bug bug;
    private final int[] available;
    private final int indexMask;
    private final int indexShift;

    MutantSequencer(final int bufferSize, final WaitStrategy waitStrategy, final Bug bug) {
        super(bufferSize, waitStrategy, attempt -> Thread.yield());
        this.bug = bug;
        this.available = new int[bufferSize];
        this.indexMask = bufferSize - 1;
        this.indexShift = Integer.numberOfTrailingZeros(bufferSize);
        java.util.Arrays.fill(available, -1);
        VarHandle.fullFence();
    }

    @Override
    public long next(final int n) {
        checkClaimSize(n);
        if (bug == Bug.CLAIM_BEFORE_SPACE) {
            checkOpen();
            final long claimed = cursor.getAndAdd(n);
            int attempt = 0;
            while (claimed + n - bufferSize > Sequences.minimum(gatingSequences, claimed)) {
                waitForSpace(attempt++);   // throws once closed: the claim above is abandoned
            }
            return claimed + n;
        }
        int attempt = 0;
        while (true) {
            checkOpen();
            final long current = cursor.get();
            if (current + n - bufferSize > Sequences.minimum(gatingSequences, current)) {
                waitForSpace(attempt++);
                continue;
            }
            if (cursor.compareAndSet(current, current + n)) {
                return current + n;
            }
        }
    }

    @Override
    public long next() {
        return next(1);
    }

    @Override
    public long tryNext() {
        throw new UnsupportedOperationException("not needed by the mutant tests");
    }

    @Override
    public long tryNext(final int n) {
        throw new UnsupportedOperationException("not needed by the mutant tests");
    }

    @Override
    public boolean hasAvailableCapacity(final int required) {
        final long claimed = cursor.get();
        return claimed + required - bufferSize <= Sequences.minimum(gatingSequences, claimed);
    }

    @Override
    public long remainingCapacity() {
        final long claimed = cursor.get();
        return bufferSize - (claimed - Sequences.minimum(gatingSequences, claimed));
    }

    @Override
    public void publish(final long sequence) {
        publish(sequence, sequence);
    }

    @Override
    public void publish(final long lo, final long hi) {
        for (long s = lo; s <= hi; s++) {
            AVAILABLE.setRelease(available, (int) s & indexMask, (int) (s >>> indexShift));
        }
        waitStrategy.signalAllWhenBlocking();
        if (bug != Bug.NO_FENCE_CHECK) {
            checkAccepted(lo, hi);
        }
    }

    @Override
    public boolean isAvailable(final long sequence) {
        return (int) AVAILABLE.getAcquire(available, (int) sequence & indexMask) == (int) (sequence >>> indexShift);
    }

    @Override
    public long getHighestPublishedSequence(final long lowerBound, final long availableSequence) {
        for (long s = lowerBound; s <= availableSequence; s++) {
            if (!isAvailable(s)) {
                return s - 1;
            }
        }
        return availableSequence;
    }

    @Override
    long claimedForClose() {
        return cursor.get();
    }
}
