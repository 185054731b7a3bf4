package dev.slipstream.stress.queue;

import org.junit.jupiter.api.Tag;
import dev.slipstream.stress.TestSize;
import dev.slipstream.queue.LprqQueue;
import org.junit.jupiter.api.Test;

/**
 * {@link LprqQueue} with one element per ring, so that rings are closed, linked and retired all
 * the time, and with two per ring, so that positions wrap within a ring: a linearizable FIFO
 * queue (model checking, then stress on real threads).
 */
@Tag("scaled")
public class LprqQueueLincheckTest extends FifoQueueOperations {
    public LprqQueueLincheckTest() {
        super(new LprqQueue<>(1));
    }

    @Test
    public void modelChecking() {
        modelChecking(FifoSpecs.Unbounded.class)
                .iterations(TestSize.pick(3, 15, 30))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }

    @Test
    public void stress() {
        stress(FifoSpecs.Unbounded.class)
                .iterations(TestSize.pick(3, 10, 10))
                .invocationsPerIteration(TestSize.pick(500, 1_000, 1_000))
                .threads(3)
                .actorsPerThread(3)
                .check(getClass());
    }

    /** Two elements per ring: positions wrap inside a ring, and cells are reused by later laps. */
    public static class RingOfTwo extends FifoQueueOperations {
        public RingOfTwo() {
            super(new LprqQueue<>(2));
        }
    }

    @Test
    public void ringOfTwoModelChecking() {
        modelChecking(FifoSpecs.Unbounded.class)
                .iterations(TestSize.pick(3, 15, 30))
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(RingOfTwo.class);
    }

    /** Rings of two, with {@link LprqQueue.Contention#BACK_OFF}: pauses after failed positions. */
    public static class BackOffRingOfTwo extends FifoQueueOperations {
        public BackOffRingOfTwo() {
            super(new LprqQueue<>(2, LprqQueue.Contention.BACK_OFF));
        }
    }

    /**
     * Rings of two, with {@link LprqQueue.Contention#WAIT_FOR_OFFER}: a dequeuer that overtook
     * the offer of its position waits for it.
     */
    public static class WaitForOfferRingOfTwo extends FifoQueueOperations {
        public WaitForOfferRingOfTwo() {
            super(new LprqQueue<>(2, LprqQueue.Contention.WAIT_FOR_OFFER));
        }
    }

    /** The ring-of-two model check and stress of a contention setting. */
    private static void modelCheckAndStress(final Class<?> subject) {
        modelChecking(FifoSpecs.Unbounded.class)
                .iterations(TestSize.pick(3, 8, 30))
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(subject);
        stress(FifoSpecs.Unbounded.class)
                .iterations(TestSize.pick(3, 5, 10))
                .invocationsPerIteration(TestSize.pick(500, 1_000, 1_000))
                .threads(3)
                .actorsPerThread(3)
                .check(subject);
    }

    @Test
    public void backOff() {
        modelCheckAndStress(BackOffRingOfTwo.class);
    }

    @Test
    public void waitForOffer() {
        modelCheckAndStress(WaitForOfferRingOfTwo.class);
    }
}
