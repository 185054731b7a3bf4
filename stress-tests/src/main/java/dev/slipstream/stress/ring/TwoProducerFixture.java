package dev.slipstream.stress.ring;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;

/**
 * Two producers on a multi-producer ring of 4 slots: producer 1 claims one slot, producer 2
 * claims two with {@code next(2)} and publishes them with {@code publish(lo, hi)}. After its
 * own publish, producer 1 asks the barrier what it would hand a consumer and checks every slot
 * up to there. The claims start at {@code base}: 0 on a fresh ring, or 4 when the ring has
 * already gone round once, so that every slot holds a stale availability flag and a stale event
 * from the lap before.
 *
 * <p>The results are relative to {@code base}: producer 1 claims {@code 0} (first) or
 * {@code 2} (after producer 2's pair), and the barrier answers {@code -1 .. 2}.
 *
 * <pre>{@code
 * TwoProducerFixture f = new TwoProducerFixture(4);
 * f.producerTwo();                       // on one thread
 * long mine = f.producerOne(result);     // on the other
 * }</pre>
 */
public final class TwoProducerFixture {
    private static final int SIZE = 4;

    private final RingBuffer<StressEvent> ring =
            RingBuffer.createMultiProducer(StressEvent::new, SIZE, NoWaitStrategy.INSTANCE);
    private final SequenceBarrier barrier = ring.newBarrier();
    private final long base;

    /**
     * Creates the ring; with {@code base > 0}, publishes and consumes sequences {@code 0 .. base-1}
     * first (on the constructing thread).
     *
     * @param base 0 or a multiple of the ring size
     */
    public TwoProducerFixture(final long base) {
        this.base = base;
        final Sequence consumer = new Sequence();
        ring.addGatingSequences(consumer);
        for (long s = 0; s < base; s++) {
            final long seq = ring.next();
            ring.get(seq).write(seq, 1);
            ring.publish(seq);
        }
        consumer.set(base - 1);
    }

    /**
     * Producer 1: claims, writes and publishes one slot, then checks what the barrier hands out.
     *
     * @return {seq - base, handed out - base, slots handed out that were not fully written}
     */
    public long[] producerOne() {
        final long seq = ring.next();
        ring.get(seq).write(seq, 1);
        ring.publish(seq);
        final long available;
        try {
            available = barrier.waitFor(base);
        } catch (AlertException | InterruptedException | TimeoutException e) {
            return new long[] {seq - base, -100, -100};
        }
        long notWritten = 0;
        for (long s = base; s <= available; s++) {
            if (!ring.get(s).isWrittenFor(s)) {
                notWritten++;
            }
        }
        return new long[] {seq - base, available - base, notWritten};
    }

    /** Producer 2: claims two slots, writes them and publishes the range. */
    public void producerTwo() {
        final long hi = ring.next(2);
        final long lo = hi - 1;
        ring.get(lo).write(lo, 2);
        ring.get(hi).write(hi, 2);
        ring.publish(lo, hi);
    }

    /**
     * After both producers: the highest published sequence, relative to {@code base}.
     *
     * @return 2 when all three slots are published
     */
    public long highestPublished() {
        return ring.sequencer().getHighestPublishedSequence(base, ring.getCursor()) - base;
    }
}
