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
        /**
         * Claims with fetch-and-add before it knows there is space, gives up waiting for space on
         * any close, and fences at the cursor: the protocol without a close fence.
         */
        CLAIM_BEFORE_SPACE,
        /**
         * The shipped claim by fetch-and-add, but the close fence is the cursor, not lowered below
         * the claims still waiting for space: those claims are accepted and can never get space.
         */
        FENCE_NOT_LOWERED,
        /**
         * The shipped claim and fence, but a producer waiting for space gives up as soon as it
         * sees the close, without looking at the consumers again, even when its claim is at or
         * below the fence (the close saw its space freed).
         */
        WAITER_IGNORES_FENCE,
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
            while (claimed + n - bufferSize > slowest(claimed)) {
                waitForSpace(attempt++);   // throws once closed: the claim above is abandoned
            }
            return claimed + n;
        }
        if (bug == Bug.FENCE_NOT_LOWERED || bug == Bug.WAITER_IGNORES_FENCE) {
            checkOpen();
            final long claimed = cursor.getAndAdd(n);
            int attempt = 0;
            while (true) {
                if (bug == Bug.WAITER_IGNORES_FENCE && isClosed()) {
                    // gives up before it looks at the consumers again
                    throw new SequencerClosedException("mutant: waiting claim given up on close");
                }
                if (claimed + n - bufferSize <= slowest(claimed)) {
                    return claimed + n;
                }
                if (bug == Bug.FENCE_NOT_LOWERED && isClosed() && claimed + n > getCloseFence()) {
                    throw new SequencerClosedException("mutant: waiting claim refused");
                }
                idleForSpace(attempt++);
            }
        }
        int attempt = 0;
        while (true) {
            checkOpen();
            final long current = cursor.get();
            if (current + n - bufferSize > slowest(current)) {
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
        return claimed + required - bufferSize <= slowest(claimed);
    }

    @Override
    public long remainingCapacity() {
        final long claimed = cursor.get();
        return bufferSize - (claimed - slowest(claimed));
    }

    @Override
    public void publish(final long sequence) {
        publish(sequence, sequence);
    }

    @Override
    public void publish(final long lo, final long hi) {
        if (bug != Bug.NO_FENCE_CHECK) {
            checkAccepted(lo, hi);
        }
        for (long s = lo; s <= hi; s++) {
            AVAILABLE.setRelease(available, (int) s & indexMask, (int) (s >>> indexShift));
        }
        waitStrategy.signalAllWhenBlocking();
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

    /** The slowest gating sequence, or {@code claimed} with none (as {@code Sequences.minimum}). */
    private long slowest(final long claimed) {
        long minimum = claimed;
        for (final Sequence gating : gatingSequences) {
            minimum = Math.min(minimum, gating.get());
        }
        return minimum;
    }

    @Override
    long fenceForClose() {
        final long claimed = cursor.get();
        if (bug == Bug.WAITER_IGNORES_FENCE) {
            return Math.min(claimed, slowest(claimed) + bufferSize);
        }
        return claimed;
    }
}
