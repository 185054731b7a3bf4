package dev.slipstream.stress.checksum;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

/** A consumer wait that yields the CPU between checks; more threads than cores need that. */
final class YieldingTestWait implements WaitStrategy {
    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException {
        long available;
        // acquire: the value seen covers the event writes released before it
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            Thread.yield();
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking() {
    }
}
