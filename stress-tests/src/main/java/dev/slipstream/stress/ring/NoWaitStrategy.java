package dev.slipstream.stress.ring;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

/**
 * A wait strategy that never waits: it reports what is there now, like a timing-out strategy
 * whose timeout is zero. It lets a jcstress actor ask a production barrier what it would hand
 * a consumer at this instant, without blocking the actor.
 *
 * <pre>{@code
 * RingBuffer<StressEvent> ring = RingBuffer.createMultiProducer(StressEvent::new, 4, NoWaitStrategy.INSTANCE);
 * long available = ring.newBarrier().waitFor(0);   // -1 if nothing is published yet
 * }</pre>
 */
public final class NoWaitStrategy implements WaitStrategy {
    /** The one instance: the strategy has no state. */
    public static final NoWaitStrategy INSTANCE = new NoWaitStrategy();

    private NoWaitStrategy() {
    }

    /**
     * Returns the dependent sequence as it is now.
     *
     * @param sequence ignored
     * @param cursor ignored
     * @param dependentSequence read once
     * @param barrier checked for an alert
     * @return {@code dependentSequence.get()}
     * @throws AlertException if the barrier is alerted
     */
    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException {
        barrier.checkAlert();
        // acquire: as the last read of every real strategy, it observes what the producer released
        return dependentSequence.get();
    }

    /** Nothing ever parks here, so there is nobody to wake. */
    @Override
    public void signalAllWhenBlocking() {
    }
}
