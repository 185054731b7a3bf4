package dev.slipstream.stress.queue;

import dev.slipstream.queue.LprqQueue;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * {@link LprqQueue} with one element per ring, so that rings are closed, linked and retired all
 * the time, and with two per ring, so that positions wrap within a ring: a linearizable FIFO
 * queue (model checking, then stress on real threads).
 */
@Param(name = "element", gen = IntGen.class, conf = "1:9")
public class LprqQueueLincheckTest {
    private final LprqQueue<Integer> queue = new LprqQueue<>(1);

    @Operation
    public boolean offer(@Param(name = "element") final int e) {
        return queue.offer(e);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    @Test
    public void modelChecking() {
        new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(1_000)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .sequentialSpecification(FifoSpecs.Unbounded.class)
                .check(getClass());
    }

    @Test
    public void stress() {
        new StressOptions()
                .iterations(10)
                .invocationsPerIteration(1_000)
                .threads(3)
                .actorsPerThread(3)
                .sequentialSpecification(FifoSpecs.Unbounded.class)
                .check(getClass());
    }

    /** Two elements per ring: positions wrap inside a ring, and cells are reused by later laps. */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class RingOfTwo {
        private final LprqQueue<Integer> queue = new LprqQueue<>(2);

        @Operation
        public boolean offer(@Param(name = "element") final int e) {
            return queue.offer(e);
        }

        @Operation
        public Integer poll() {
            return queue.poll();
        }
    }

    @Test
    public void ringOfTwoModelChecking() {
        new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(1_000)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .sequentialSpecification(FifoSpecs.Unbounded.class)
                .check(RingOfTwo.class);
    }
}
