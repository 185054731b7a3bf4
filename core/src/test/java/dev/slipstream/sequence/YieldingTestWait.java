package dev.slipstream.sequence;

/** A minimal wait strategy for tests of the sequencing layer: yields until the sequence is there. */
public final class YieldingTestWait implements WaitStrategy {
    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException {
        long available;
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
