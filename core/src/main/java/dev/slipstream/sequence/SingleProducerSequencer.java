package dev.slipstream.sequence;

import dev.slipstream.internal.FieldHandles;
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

    private static final VarHandle NEXT_VALUE = FieldHandles.of(SingleProducerSequencerFields.class, "nextValue", long.class);

    /** How long the closing thread watches the claim counter settle; see fenceForClose. */
    private static final long CLAIM_SETTLE_NANOS = 50_000L;

    private long lrNextValue() {
        return (long) NEXT_VALUE.getOpaque(this);
    }

    private long lvNextValue() {
        return (long) NEXT_VALUE.getVolatile(this);
    }

    private void srNextValue(final long sequence) {
        NEXT_VALUE.setOpaque(this, sequence);
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
            final long minSequence = Sequences.minimum(gatingSequences, claimed);
            cachedGatingSequence = minSequence;
            return wrapPoint <= minSequence;
        }
        return true;
    }

    @Override
    public long next() {
        // The common claim, kept short: no size check, no look at other threads' lines unless the
        // cached consumer position says the ring may be full. A longer claim path lets the
        // consumer chase a few slots behind, where every event costs both threads a cache miss
        // (docs/benchmarks/history/speed-study.md, "continuous stream").
        final long claimed = nextValue;
        final long nextSequence = claimed + 1L;
        final long cached = cachedGatingSequence;
        if (nextSequence - bufferSize > cached || cached > claimed) {
            return claimWhenFull(1);
        }
        return claim(claimed, nextSequence);
    }

    @Override
    public long next(final int n) {
        checkClaimSize(n);
        final long claimed = nextValue;
        final long nextSequence = claimed + n;
        final long cached = cachedGatingSequence;
        if (nextSequence - bufferSize > cached || cached > claimed) {
            return claimWhenFull(n);
        }
        return claim(claimed, nextSequence);
    }

    /**
     * Takes {@code nextSequence} (space is confirmed) unless the sequencer is closed. Store the
     * claim, then look at the close: the reverse of close(), which stores the reason, then watches
     * the claims settle. Either the closer counts this claim in its fence, or this thread sees the
     * reason and asks the fence ({@link #acceptedAfterClose}); publishing needs no look at the
     * close. No look before the store: it would only refuse what the fence refuses anyway, and
     * every load on this path counts (the speed study's eleventh series).
     */
    private long claim(final long claimed, final long nextSequence) {
        // opaque: the closing thread's settle loop and remainingCapacity() read it from other
        // threads; a whole value, kept in program order before the load below
        srNextValue(nextSequence);
        // volatile load: the pairing with close() described above
        if (isClosed()) {
            return acceptedAfterClose(claimed, nextSequence);
        }
        return nextSequence;
    }

    /**
     * The ring may be full: waits for the slowest consumer, as the producer wait strategy says,
     * before claiming. A close while waiting ends the wait with nothing claimed.
     */
    private long claimWhenFull(final int n) {
        final long claimed = nextValue;
        final long nextSequence = claimed + n;
        final long wrapPoint = nextSequence - bufferSize;
        long minSequence;
        int attempt = 0;
        while (wrapPoint > (minSequence = Sequences.minimum(gatingSequences, claimed))) {
            waitForSpace(attempt++);
        }
        cachedGatingSequence = minSequence;
        return claim(claimed, nextSequence);
    }

    /**
     * The sequencer closed around the claim of {@code nextSequence}: at or below the fence the
     * close counted it, and it stands; above, it is taken back and refused, and no consumer ever
     * waits for it (the fence is below it).
     */
    private long acceptedAfterClose(final long claimed, final long nextSequence) {
        final long fence = getCloseFence();
        if (nextSequence <= fence) {
            return nextSequence;
        }
        // opaque: undo the claim; the fence is final, so nothing reads the claim as accepted
        srNextValue(claimed);
        throw new SequencerClosedException("cannot claim: the sequencer is closed (" + closedReason
                + "); the last accepted sequence is " + fence);
    }

    @Override
    public long tryNext(final int n) throws InsufficientCapacityException {
        checkClaimSize(n);
        // a closed ring says so, full or not
        checkOpen();
        final long claimed = nextValue;
        if (!hasAvailableCapacity(n, claimed)) {
            throw InsufficientCapacityException.INSTANCE;
        }
        return claim(claimed, claimed + n);
    }

    @Override
    public long remainingCapacity() {
        final long claimed = lrNextValue();
        final long consumed = Sequences.minimum(gatingSequences, claimed);
        return bufferSize - (claimed - consumed);
    }

    @Override
    public void publish(final long sequence) {
        // plain load: only this thread writes the cursor, so it reads its own last store; no
        // copy of the cursor of its own, which would cost a store per event: in a stream every
        // store waits behind the misses of the event lines written before it
        final long published = cursor.getPlain();
        // One unsigned compare for published < sequence <= nextValue. No close check: a claim
        // that raced the close was settled when it was made (claim()).
        if (Long.compareUnsigned(sequence - published - 1L, nextValue - published) >= 0) {
            throw notPublishable(sequence, sequence, published);
        }
        // release: publishes the event fields written into the slot before this call
        cursor.set(sequence);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public void publish(final long lo, final long hi) {
        // plain load: as in publish(long)
        final long published = cursor.getPlain();
        if (lo > hi || lo <= published || hi > nextValue) {
            throw notPublishable(lo, hi, published);
        }
        // release: publishes every slot of lo..hi at once
        cursor.set(hi);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    long fenceForClose() {
        // The claim is the producer's opaque store of nextValue, followed by its load of the
        // reason; the closer stored the reason (volatile) just before this. A single producer has
        // no atomic instruction to order its claim store before that load (a full fence per claim
        // would cost the hot path), so the closer waits until nextValue has been stable for
        // CLAIM_SETTLE_NANOS: a claim stored before the producer's load of the reason has left
        // the store buffer by then and is counted here; a producer whose load sees the reason
        // waits for this fence and keeps its claim only if the fence counts it (claim()).
        long claimed = lvNextValue();
        long stableSince = System.nanoTime();
        while (System.nanoTime() - stableSince < CLAIM_SETTLE_NANOS) {
            Thread.onSpinWait();
            // volatile load: re-read the claim until it stops moving
            final long now = lvNextValue();
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
