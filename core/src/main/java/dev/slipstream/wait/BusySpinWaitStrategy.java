package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

/**
 * Waits by re-reading the sequence in a tight loop ({@link Thread#onSpinWait()} between reads)
 * and never gives the core back: the lowest and steadiest wake-up latency there is, for
 * consumers that each own a core (isolated or pinned, as in a trading engine on a dedicated
 * machine). While idle it burns 100% of one core per waiting consumer, and with more spinning
 * threads than cores it becomes the slowest choice, because the spinners steal the CPU from the
 * threads they wait for. Producers need not signal it.
 *
 * <pre>{@code
 * RingBuffer<Quote> ring =
 *         RingBuffer.createSingleProducer(Quote::new, 1024, new BusySpinWaitStrategy());
 * }</pre>
 */
public final class BusySpinWaitStrategy implements WaitStrategy {
    /** Creates the strategy; it holds no state, so one instance can serve any number of barriers. */
    public BusySpinWaitStrategy() {
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException {
        long available;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            Thread.onSpinWait();
        }
        return available;
    }

    /** Does nothing: a spinning consumer notices a publication by itself. */
    @Override
    public void signalAllWhenBlocking() {
    }

    @Override
    public String toString() {
        return "BusySpinWaitStrategy";
    }
}
