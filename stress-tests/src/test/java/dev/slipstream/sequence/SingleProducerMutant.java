package dev.slipstream.sequence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A single-producer sequencer with its claim path as {@link SingleProducerSequencer} has it, but
 * with a pause inside the claim (so that a close on another core lands inside it), and optionally
 * with the close check on the wrong side of the claim store. Not for use outside tests.
 *
 * <p>{@link Order#STORE_THEN_CHECK} is the shipped order: the claim store, then the look at the
 * close; a close that saw no claim has its producer see the reason and ask the fence.
 * {@link Order#CHECK_THEN_STORE} looks first and stores after the pause: a close can compute its
 * fence in between, and the claim is then published above the fence, since publish no longer
 * checks the close.
 */
final class SingleProducerMutant extends AbstractSequencer {
    /** Where the claim looks for a close. */
    enum Order {
        /** The shipped order: store the claim, then look. */
        STORE_THEN_CHECK,
        /** The seeded bug: look, then store the claim. */
        CHECK_THEN_STORE
    }

    private static final VarHandle NEXT_VALUE;
    /** Longer than the closing thread's settle window (50 us), so a close fits inside the claim. */
    private static final long PAUSE_NANOS = 200_000L;
    private static final long SETTLE_NANOS = 50_000L;

    static {
        try {
            NEXT_VALUE = MethodHandles.lookup().findVarHandle(SingleProducerMutant.class, "nextValue", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Order order;
    private long nextValue = Sequencer.INITIAL_CURSOR_VALUE;
    private long publishedValue = Sequencer.INITIAL_CURSOR_VALUE;

    SingleProducerMutant(final int bufferSize, final WaitStrategy waitStrategy, final Order order) {
        super(bufferSize, waitStrategy, attempt -> Thread.yield());
        this.order = order;
    }

    @Override
    public long next() {
        return next(1);
    }

    @Override
    public long next(final int n) {
        checkClaimSize(n);
        checkOpen();
        final long claimed = nextValue;
        final long nextSequence = claimed + n;
        int attempt = 0;
        while (nextSequence - bufferSize > Sequences.minimum(gatingSequences, claimed)) {
            waitForSpace(attempt++);
        }
        if (order == Order.CHECK_THEN_STORE) {
            checkOpen();
            LockSupport.parkNanos(PAUSE_NANOS);
            NEXT_VALUE.setOpaque(this, nextSequence);
            return nextSequence;
        }
        NEXT_VALUE.setOpaque(this, nextSequence);
        LockSupport.parkNanos(PAUSE_NANOS);
        if (isClosed()) {
            final long fence = getCloseFence();
            if (nextSequence > fence) {
                NEXT_VALUE.setOpaque(this, claimed);
                throw new SequencerClosedException("closed; the last accepted sequence is " + fence);
            }
        }
        return nextSequence;
    }

    @Override
    public long tryNext() {
        return next(1);
    }

    @Override
    public long tryNext(final int n) {
        return next(n);
    }

    @Override
    public boolean hasAvailableCapacity(final int required) {
        return nextValue + required - bufferSize <= Sequences.minimum(gatingSequences, nextValue);
    }

    @Override
    public long remainingCapacity() {
        final long claimed = (long) NEXT_VALUE.getOpaque(this);
        return bufferSize - (claimed - Sequences.minimum(gatingSequences, claimed));
    }

    @Override
    public void publish(final long sequence) {
        publish(sequence, sequence);
    }

    @Override
    public void publish(final long lo, final long hi) {
        if (lo > hi || lo <= publishedValue || hi > nextValue) {
            throw new IllegalArgumentException("not claimed or already published: " + lo + ".." + hi);
        }
        publishedValue = hi;
        cursor.set(hi);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public boolean isAvailable(final long sequence) {
        final long published = cursor.get();
        return sequence <= published && sequence > published - bufferSize;
    }

    @Override
    public long getHighestPublishedSequence(final long lowerBound, final long availableSequence) {
        return availableSequence;
    }

    @Override
    long fenceForClose() {
        long claimed = (long) NEXT_VALUE.getVolatile(this);
        long stableSince = System.nanoTime();
        while (System.nanoTime() - stableSince < SETTLE_NANOS) {
            Thread.onSpinWait();
            final long now = (long) NEXT_VALUE.getVolatile(this);
            if (now != claimed) {
                claimed = now;
                stableSince = System.nanoTime();
            }
        }
        return claimed;
    }
}
