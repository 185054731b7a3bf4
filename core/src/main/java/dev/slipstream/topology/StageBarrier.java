package dev.slipstream.topology;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.SequenceGroup;
import dev.slipstream.sequence.Sequencer;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

/**
 * A barrier for a stage that waits with its own wait strategy instead of the ring's. Producers
 * signal that strategy too, through {@link SignalFanOut}.
 */
final class StageBarrier implements SequenceBarrier {
    private final Sequencer sequencer;
    private final WaitStrategy waitStrategy;
    private final Sequence cursor;
    /** The cursor itself when there is no upstream stage, else the minimum of the upstream stages. */
    private final Sequence dependentSequence;
    private volatile boolean alerted;

    StageBarrier(final Sequencer sequencer, final WaitStrategy waitStrategy, final Sequence[] upstream) {
        this.sequencer = sequencer;
        this.waitStrategy = waitStrategy;
        this.cursor = new CursorView(sequencer);
        this.dependentSequence = upstream.length == 0 ? cursor
                : upstream.length == 1 ? upstream[0] : new SequenceGroup(upstream);
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
        return dependentSequence.get();
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
