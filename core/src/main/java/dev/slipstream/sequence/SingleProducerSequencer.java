package dev.slipstream.sequence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Keeps the producer's private counters off the cache line of the shared fields above. */
abstract class SingleProducerSequencerPad extends AbstractSequencer {
    protected long p01, p02, p03, p04, p05, p06, p07;

    SingleProducerSequencerPad(final int bufferSize, final WaitStrategy waitStrategy,
                               final ProducerWaitStrategy producerWaitStrategy) {
        super(bufferSize, waitStrategy, producerWaitStrategy);
    }
}

/** The producer thread's own counters: written only by it, so plain fields. */
abstract class SingleProducerSequencerFields extends SingleProducerSequencerPad {
    /** Highest sequence claimed so far. */
    protected long nextValue = Sequencer.INITIAL_CURSOR_VALUE;
    /** Slowest gating sequence as last read, so most claims read no other thread's line. */
    protected long cachedGatingSequence = Sequencer.INITIAL_CURSOR_VALUE;
    /**
     * Highest sequence published so far: the producer's own copy of the cursor, so that checking
     * a publication reads only this line and never the cursor's, which every consumer polls.
     */
    protected long publishedValue = Sequencer.INITIAL_CURSOR_VALUE;

    SingleProducerSequencerFields(final int bufferSize, final WaitStrategy waitStrategy,
                                  final ProducerWaitStrategy producerWaitStrategy) {
        super(bufferSize, waitStrategy, producerWaitStrategy);
    }
}

/**
 * A sequencer for exactly one publishing thread: claiming is a plain increment, with no atomic
 * read-modify-write, and publishing is one release store of the cursor.
 *
 * <p>Only one thread may call {@link #next()}, {@link #tryNext()} and {@link #publish(long)}; use
 * {@link MultiProducerSequencer} otherwise. Other threads may call the read-only methods
 * ({@link #getCursor()}, {@link #remainingCapacity()}) at any time.
 *
 * <pre>{@code
 * Sequencer sequencer = new SingleProducerSequencer(1024, new YieldingWaitStrategy());
 * long seq = sequencer.next();
 * events[(int) (seq & 1023)].price = 42;
 * sequencer.publish(seq);
 * }</pre>
 */
public final class SingleProducerSequencer extends SingleProducerSequencerFields {
    protected long p11, p12, p13, p14, p15, p16, p17;

    private static final VarHandle NEXT_VALUE;

    /** How long the closing thread watches the claim counter settle; see fenceForClose. */
    private static final long CLAIM_SETTLE_NANOS = 50_000L;

    static {
        try {
            NEXT_VALUE = MethodHandles.lookup()
                    .findVarHandle(SingleProducerSequencerFields.class, "nextValue", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Creates a sequencer whose producer waits for space with the default producer strategy
     * (spin, then yield, then park).
     *
     * @param bufferSize the ring size, a power of two
     * @param waitStrategy how consumers wait
     */
    public SingleProducerSequencer(final int bufferSize, final WaitStrategy waitStrategy) {
        this(bufferSize, waitStrategy, DefaultProducerWait.INSTANCE);
    }

    /**
     * Creates a sequencer.
     *
     * @param bufferSize the ring size, a power of two
     * @param waitStrategy how consumers wait
     * @param producerWaitStrategy how the producer waits when the ring is full
     */
    public SingleProducerSequencer(final int bufferSize, final WaitStrategy waitStrategy,
                                   final ProducerWaitStrategy producerWaitStrategy) {
        super(bufferSize, waitStrategy, producerWaitStrategy);
    }

    @Override
    public boolean hasAvailableCapacity(final int required) {
        return hasAvailableCapacity(required, nextValue);
    }

    private boolean hasAvailableCapacity(final int required, final long claimed) {
        final long wrapPoint = claimed + required - bufferSize;
        final long cached = cachedGatingSequence;
        if (wrapPoint > cached || cached > claimed) {
            // acquire loads: a consumer's value covers its reads of the slots it releases
            final long minSequence = Sequences.minimum(gatingSequences, claimed);
            cachedGatingSequence = minSequence;
            return wrapPoint <= minSequence;
        }
        return true;
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
        final long wrapPoint = nextSequence - bufferSize;
        final long cached = cachedGatingSequence;

        if (wrapPoint > cached || cached > claimed) {
            long minSequence;
            int attempt = 0;
            // acquire loads of the gating sequences: once we see a consumer past a slot, its reads
            // of that slot happened before our writes to it
            while (wrapPoint > (minSequence = Sequences.minimum(gatingSequences, claimed))) {
                waitForSpace(attempt++);
            }
            cachedGatingSequence = minSequence;
        }
        // opaque: other threads reading remainingCapacity() see a whole value, no fence needed
        NEXT_VALUE.setOpaque(this, nextSequence);
        return nextSequence;
    }

    @Override
    public long tryNext() throws InsufficientCapacityException {
        return tryNext(1);
    }

    @Override
    public long tryNext(final int n) throws InsufficientCapacityException {
        checkClaimSize(n);
        checkOpen();
        if (!hasAvailableCapacity(n, nextValue)) {
            throw InsufficientCapacityException.INSTANCE;
        }
        final long nextSequence = nextValue + n;
        NEXT_VALUE.setOpaque(this, nextSequence);
        return nextSequence;
    }

    @Override
    public long remainingCapacity() {
        final long claimed = (long) NEXT_VALUE.getOpaque(this);
        final long consumed = Sequences.minimum(gatingSequences, claimed);
        return bufferSize - (claimed - consumed);
    }

    @Override
    public void publish(final long sequence) {
        final long published = publishedValue;
        // One unsigned compare for published < sequence <= nextValue: both bounds are this
        // thread's own plain fields, so the check costs no load of a shared line.
        if (Long.compareUnsigned(sequence - published - 1L, nextValue - published) >= 0) {
            throw notPublishable(sequence, sequence, published);
        }
        // after the claim's store of nextValue, before the cursor moves: a claim that raced a
        // close is refused and never seen by a consumer
        checkAccepted(sequence, sequence);
        publishedValue = sequence;
        // release: publishes the event fields written into the slot before this call
        cursor.set(sequence);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public void publish(final long lo, final long hi) {
        final long published = publishedValue;
        if (lo > hi || lo <= published || hi > nextValue) {
            throw notPublishable(lo, hi, published);
        }
        checkAccepted(lo, hi);
        publishedValue = hi;
        // release: publishes every slot of lo..hi at once
        cursor.set(hi);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    long fenceForClose() {
        // The claim is the producer's opaque store of nextValue, made after its check that the
        // sequencer is open; the closer stored the reason (volatile) just before this. A single
        // producer has no atomic instruction to order its claim store before its later load of
        // the reason (a full fence per publish would cost the hot path), so the closer waits
        // until nextValue has been stable for CLAIM_SETTLE_NANOS: a store issued before the
        // producer's load of the reason has left the store buffer by then, and a claim made
        // later is refused by checkAccepted, which then sees the reason.
        long claimed = (long) NEXT_VALUE.getVolatile(this);
        long stableSince = System.nanoTime();
        while (System.nanoTime() - stableSince < CLAIM_SETTLE_NANOS) {
            Thread.onSpinWait();
            // volatile load: re-read the claim until it stops moving
            final long now = (long) NEXT_VALUE.getVolatile(this);
            if (now != claimed) {
                claimed = now;
                stableSince = System.nanoTime();
            }
        }
        return claimed;
    }

    private IllegalArgumentException notPublishable(final long lo, final long hi, final long published) {
        if (lo > hi) {
            return new IllegalArgumentException("publish range is empty: lo " + lo + " > hi " + hi);
        }
        if (hi > nextValue) {
            return new IllegalArgumentException("cannot publish sequence " + hi
                    + ": it was never claimed (highest claimed is " + nextValue + ")");
        }
        // the usual cause: two threads claimed the same slot from this unsynchronised claim
        return new IllegalArgumentException("cannot publish sequence " + lo
                + ": it is already published (cursor is " + published + "); the likely cause is more than one"
                + " thread publishing to a single-producer ring: publish from one thread only, or build the"
                + " ring or pipeline with ProducerType.MULTI");
    }

    @Override
    public boolean isAvailable(final long sequence) {
        final long published = cursor.get();
        return sequence <= published && sequence > published - bufferSize;
    }

    @Override
    public long getHighestPublishedSequence(final long lowerBound, final long availableSequence) {
        // one producer publishes in order: everything up to the cursor is published
        return availableSequence;
    }
}
