package dev.slipstream.stress.ring;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.InsufficientCapacityException;
import dev.slipstream.sequence.Sequence;

/**
 * A full ring of 2 slots gated by two consumers: a fast one that has read everything, and a slow
 * one that has read nothing. The slow consumer reads slot 0, then releases it; the producer
 * tries to claim the next slot, which reuses slot 0. The producer must follow the slowest
 * gating sequence: it may claim only after the release, so the slow consumer's read always sees
 * the original event.
 *
 * <pre>{@code
 * GatingFixture f = new GatingFixture(ProducerType.SINGLE);
 * long read = f.slowConsumerReadsThenReleases();   // on one thread
 * long claimed = f.producerTriesToClaim();         // on the other
 * }</pre>
 */
public final class GatingFixture {
    private static final int SIZE = 2;

    private final RingBuffer<StressEvent> ring;
    private final Sequence slow = new Sequence();

    /**
     * Creates the ring and fills it (sequences 0 and 1).
     *
     * @param multiProducer true for a multi-producer ring
     */
    public GatingFixture(final boolean multiProducer) {
        ring = multiProducer
                ? RingBuffer.createMultiProducer(StressEvent::new, SIZE, NoWaitStrategy.INSTANCE)
                : RingBuffer.createSingleProducer(StressEvent::new, SIZE, NoWaitStrategy.INSTANCE);
        final Sequence fast = new Sequence();
        ring.addGatingSequences(fast, slow);
        for (int i = 0; i < SIZE; i++) {
            final long seq = ring.next();
            ring.get(seq).write(seq, 1);
            ring.publish(seq);
        }
        fast.set(SIZE - 1);
    }

    /**
     * The slow consumer: reads sequence 0, then releases it.
     *
     * @return 0 if it read event 0 fully written; the sequence found in the slot if it was
     *     overwritten; -2 if the slot held a mix of two writes
     */
    public long slowConsumerReadsThenReleases() {
        final StressEvent event = ring.get(0);
        final long result;
        if (event.isWrittenFor(0)) {
            result = 0;
        } else {
            final long found = event.sequence;
            result = found != 0 && event.isWrittenFor(found) ? found : -2;
        }
        // release: the reads above happen before the producer's writes into this slot
        slow.set(0);
        return result;
    }

    /**
     * The producer: tries to claim sequence 2 (slot 0) and writes it if it got it.
     *
     * @return the claimed sequence, or -1 if the ring was full
     */
    public long producerTriesToClaim() {
        final long seq;
        try {
            seq = ring.tryNext();
        } catch (InsufficientCapacityException full) {
            return -1;
        }
        ring.get(seq).write(seq, 2);
        ring.publish(seq);
        return seq;
    }

    /**
     * After both: how many slots a producer could claim now.
     *
     * @return the remaining capacity
     */
    public long remainingCapacity() {
        return ring.remainingCapacity();
    }
}
