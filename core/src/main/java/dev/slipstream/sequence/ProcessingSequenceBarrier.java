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

    ProcessingSequenceBarrier(final Sequencer sequencer, final WaitStrategy waitStrategy,
                              final Sequence cursor, final Sequence[] upstream) {
        this.sequencer = sequencer;
        this.waitStrategy = waitStrategy;
        this.cursor = cursor;
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
        return sequencer.getHighestPublishedSequence(sequence, available);
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
