package dev.slipstream.sequence;

import java.util.Objects;

/**
 * The barrier a sequencer hands to a consumer: waits on the cursor, or on the upstream stages
 * when there are any, then trims the result to what is actually published.
 *
 * <p>Create it with {@link Sequencer#newBarrier(Sequence...)} (or the ring buffer's method of
 * the same name), not directly.
 *
 * <pre>{@code
 * SequenceBarrier barrier = sequencer.newBarrier(decoder.getSequence());
 * long available = barrier.waitFor(next);
 * }</pre>
 */
public final class ProcessingSequenceBarrier implements SequenceBarrier {
    private final Sequencer sequencer;
    private final WaitStrategy waitStrategy;
    private final Sequence cursor;
    /** The cursor itself when there is no upstream stage, else the minimum of the upstream stages. */
    private final Sequence dependentSequence;
    private volatile boolean alerted;
    /** What a consumer waits on while the cursor is ahead of what is published. */
    private final PublishedView publishedView;
    /**
     * Yields (4) before waiting on the strategy behind a claimed, unpublished slot: enough for a
     * preempted producer to be scheduled and publish, few enough that a slot which stays
     * unpublished soon reaches the strategy's wait (see docs/benchmarks/history/speed-study.md).
     */
    private static final Backoff BEFORE_WAIT = new Backoff(0, 4, 0L, 0L);

    ProcessingSequenceBarrier(final Sequencer sequencer, final WaitStrategy waitStrategy,
                              final Sequence cursor, final Sequence[] upstream) {
        this.sequencer = sequencer;
        this.waitStrategy = waitStrategy;
        this.cursor = cursor;
        this.publishedView = new PublishedView(this);
        Objects.requireNonNull(upstream, "upstream sequences must not be null");
        if (upstream.length == 0) {
            dependentSequence = cursor;
        } else if (upstream.length == 1) {
            dependentSequence = Objects.requireNonNull(upstream[0], "upstream sequence 0 is null");
        } else {
            dependentSequence = new SequenceGroup(upstream);
        }
    }

    @Override
    public long waitFor(final long sequence) throws AlertException, InterruptedException, TimeoutException {
        checkAlert();
        final long available = waitStrategy.waitFor(sequence, cursor, dependentSequence, this);
        if (available < sequence) {
            return available;
        }
        // with many producers the cursor counts claims: keep to the contiguous published prefix
        final long published = sequencer.getHighestPublishedSequence(sequence, available);
        if (published >= sequence || dependentSequence != cursor) {
            // upstream stages only ever pass published events, so only the cursor can run ahead
            return published;
        }
        return waitForPublication(sequence);
    }

    /**
     * The cursor passed {@code sequence} but its producer has not published it yet (it was
     * preempted between claim and publish, or its translator is slow). Waits the way the
     * strategy waits, on a view of what is published, after a few yields instead of spinning:
     * producers signal the strategy on every publish, so a blocking strategy wakes when the slot
     * is published.
     * Returns what is published from {@code sequence} on, which may still be below it: a caller
     * that holds nothing back (an idle pool worker) may be waiting for a sequence another worker
     * has already taken, and must look again at what to wait for.
     */
    private long waitForPublication(final long sequence)
            throws AlertException, InterruptedException, TimeoutException {
        // The usual cause is a producer preempted between its claim and its publish, with more
        // threads than cores. Handing the core over a few times lets it finish; each yield costs a
        // system call, not a spinning core, so a slot that stays unpublished still ends up in the
        // strategy's wait below.
        // shared by the threads of a pool that wait on this barrier: each counts its own yields
        for (long attempt = 0; BEFORE_WAIT.phaseAt(attempt) != Backoff.Phase.PARK; attempt++) {
            BEFORE_WAIT.idleAt(attempt);
            checkAlert();
            final long published = publishedFrom(sequence);
            if (published >= sequence) {
                return published;
            }
        }
        final long hinted = waitStrategy.waitFor(sequence, publishedView, publishedView, this);
        if (hinted < sequence) {
            return hinted;
        }
        // the view is only a wake-up hint: confirm on the sequencer itself
        return publishedFrom(sequence);
    }

    /** The highest published sequence from {@code sequence} on, with no gap. */
    private long publishedFrom(final long sequence) {
        // acquire load of the cursor, then the sequencer's acquire reads of the publish marks
        return sequencer.getHighestPublishedSequence(sequence, cursor.get());
    }

    @Override
    public long getCursor() {
        // acquire: a value read here covers the event writes of every stage and producer before it
        final long dependent = dependentSequence.get();
        if (dependentSequence != cursor) {
            // upstream stages only ever pass published events
            return dependent;
        }
        // With many producers the cursor counts claims. Everything the slowest consumer passed is
        // published, and no producer publishes more than a ring past it, so the scan is short.
        final long slowest = sequencer.getMinimumSequence();
        final long from = slowest < dependent ? slowest + 1 : Math.max(0, dependent - sequencer.getBufferSize() + 1);
        return sequencer.getHighestPublishedSequence(from, dependent);
    }

    @Override
    public boolean isAlerted() {
        return alerted;
    }

    @Override
    public void alert() {
        // volatile store, then wake parked waiters so they re-check it
        alerted = true;
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public void clearAlert() {
        alerted = false;
    }

    @Override
    public void checkAlert() throws AlertException {
        if (alerted) {
            throw AlertException.INSTANCE;
        }
    }
}
