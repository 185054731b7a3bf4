package dev.slipstream.stress.queue;

import dev.slipstream.queue.LscqQueue;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The unbounded queue with one element per segment (order 0), so that segments are finalized,
 * linked and retired all the time, is a linearizable FIFO queue. ({@code close} is left out: it
 * is documented as not linearizable with offers in progress; jcstress checks that it loses
 * nothing.)
 */
@Param(name = "element", gen = IntGen.class, conf = "1:9")
public class LscqQueueLincheckTest {
    private final LscqQueue<Integer> queue = new LscqQueue<>(1);

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
                .iterations(30)
                .invocationsPerIteration(2_000)
                .threads(3)
                .actorsPerThread(3)
                .sequentialSpecification(FifoSpecs.Unbounded.class)
                .check(getClass());
    }

    /** Two elements per segment (order 1). */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class OrderOne {
        private final LscqQueue<Integer> queue = new LscqQueue<>(2);

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
    public void orderOneModelChecking() {
        new ModelCheckingOptions()
                .iterations(20)
                .invocationsPerIteration(1_000)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .sequentialSpecification(FifoSpecs.Unbounded.class)
                .check(OrderOne.class);
    }
}
