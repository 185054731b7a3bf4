package dev.slipstream.stress.queue;

import dev.slipstream.queue.LscqQueue;
import org.junit.jupiter.api.Test;

/**
 * The unbounded queue with one element per segment (order 0), so that segments are finalized,
 * linked and retired all the time, is a linearizable FIFO queue. ({@code close} is left out: it
 * is documented as not linearizable with offers in progress; jcstress checks that it loses
 * nothing.)
 */
public class LscqQueueLincheckTest extends FifoQueueOperations {
    public LscqQueueLincheckTest() {
        super(new LscqQueue<>(1));
    }

    @Test
    public void modelChecking() {
        modelChecking(FifoSpecs.Unbounded.class)
                // half the full count in every build; -Dslipstream.stress.long=true runs all of it
                .iterations(Boolean.getBoolean("slipstream.stress.long") ? 30 : 15)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }

    @Test
    public void stress() {
        stress(FifoSpecs.Unbounded.class)
                .iterations(30)
                .invocationsPerIteration(2_000)
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
                // half the full count in every build; -Dslipstream.stress.long=true runs all of it
                .iterations(Boolean.getBoolean("slipstream.stress.long") ? 20 : 10)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .check(OrderOne.class);
    }
}
