package dev.slipstream.stress.queue;

import org.junit.jupiter.api.Tag;
import dev.slipstream.stress.TestSize;
import dev.slipstream.queue.LscqQueue;
import org.junit.jupiter.api.Test;

/**
 * The unbounded queue with one element per segment (order 0), so that segments are finalized,
 * linked and retired all the time, is a linearizable FIFO queue. ({@code close} is left out: it
 * is documented as not linearizable with offers in progress; jcstress checks that it loses
 * nothing.)
 */
@Tag("scaled")
public class LscqQueueLincheckTest extends FifoQueueOperations {
    public LscqQueueLincheckTest() {
        super(new LscqQueue<>(1));
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
                .iterations(TestSize.pick(3, 30, 30))
                .invocationsPerIteration(TestSize.pick(500, 2_000, 2_000))
                .threads(3)
                .actorsPerThread(3)
                .check(getClass());
    }

    /** Two elements per segment (order 1). */
    public static class OrderOne extends FifoQueueOperations {
        public OrderOne() {
            super(new LscqQueue<>(2));
        }
    }

    @Test
    public void orderOneModelChecking() {
        modelChecking(FifoSpecs.Unbounded.class)
                .iterations(TestSize.pick(2, 10, 20))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .check(OrderOne.class);
    }
}
