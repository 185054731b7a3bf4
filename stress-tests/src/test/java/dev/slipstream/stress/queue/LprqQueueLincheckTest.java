package dev.slipstream.stress.queue;

import dev.slipstream.queue.LprqQueue;
import org.junit.jupiter.api.Test;

/**
 * {@link LprqQueue} with one element per ring, so that rings are closed, linked and retired all
 * the time, and with two per ring, so that positions wrap within a ring: a linearizable FIFO
 * queue (model checking, then stress on real threads).
 */
public class LprqQueueLincheckTest extends FifoQueueOperations {
    public LprqQueueLincheckTest() {
        super(new LprqQueue<>(1));
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
                .iterations(10)
                .invocationsPerIteration(1_000)
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
                // half the full count in every build; -Dslipstream.stress.long=true runs all of it
                .iterations(Boolean.getBoolean("slipstream.stress.long") ? 30 : 15)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(RingOfTwo.class);
    }
}
