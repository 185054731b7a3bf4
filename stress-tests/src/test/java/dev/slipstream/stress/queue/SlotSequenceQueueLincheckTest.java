package dev.slipstream.stress.queue;

import dev.slipstream.queue.SlotSequenceQueue;
import dev.slipstream.stress.TestSize;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SlotSequenceQueue} is a linearizable bounded FIFO queue for any number of producers and
 * consumers: at capacity 16, where no scenario fills it, and at capacity 2, where scenarios fill
 * it and offers must fail exactly when two elements are in (it has no spurious full, unlike
 * {@code ScqQueue}, whose capacity-two check allows one producer and one consumer only).
 */
@Tag("scaled")
public class SlotSequenceQueueLincheckTest extends FifoQueueOperations {
    public SlotSequenceQueueLincheckTest() {
        super(new SlotSequenceQueue<>(16));
    }

    @Test
    public void modelChecking() {
        modelChecking(FifoSpecs.BoundedSixteen.class)
                .iterations(TestSize.pick(3, 8, 30))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }

    @Test
    public void stress() {
        stress(FifoSpecs.BoundedSixteen.class)
                .iterations(TestSize.pick(3, 30, 30))
                .invocationsPerIteration(TestSize.pick(500, 2_000, 2_000))
                .threads(3)
                .actorsPerThread(3)
                .check(getClass());
    }

    /** Capacity two, any thread offers and polls. */
    public static class CapacityTwo extends FifoQueueOperations {
        public CapacityTwo() {
            super(new SlotSequenceQueue<>(2));
        }
    }

    @Test
    public void capacityTwoModelChecking() {
        modelChecking(FifoSpecs.BoundedTwo.class)
                .iterations(TestSize.pick(3, 8, 30))
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(CapacityTwo.class);
    }

    @Test
    public void capacityTwoStress() {
        stress(FifoSpecs.BoundedTwo.class)
                .iterations(TestSize.pick(3, 20, 20))
                .invocationsPerIteration(TestSize.pick(500, 1_000, 1_000))
                .threads(3)
                .actorsPerThread(3)
                .check(CapacityTwo.class);
    }

    /** Capacity two, backing off after a lost CAS ({@link SlotSequenceQueue#backingOff(int)}). */
    public static class BackingOffCapacityTwo extends FifoQueueOperations {
        public BackingOffCapacityTwo() {
            super(SlotSequenceQueue.backingOff(2));
        }
    }

    @Test
    public void backingOffCapacityTwoModelChecking() {
        modelChecking(FifoSpecs.BoundedTwo.class)
                .iterations(TestSize.pick(3, 8, 30))
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(BackingOffCapacityTwo.class);
    }
}
