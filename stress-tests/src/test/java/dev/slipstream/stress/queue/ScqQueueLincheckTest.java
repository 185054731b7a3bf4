package dev.slipstream.stress.queue;

import dev.slipstream.queue.ScqQueue;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The bounded queue with a capacity (16) larger than any scenario can fill is a linearizable
 * FIFO queue: offer always succeeds, poll returns the oldest element or null.
 */
@Param(name = "element", gen = IntGen.class, conf = "1:9")
public class ScqQueueLincheckTest {
    private final ScqQueue<Integer> queue = new ScqQueue<>(16);

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
                .sequentialSpecification(FifoSpecs.BoundedSixteen.class)
                .check(getClass());
    }

    @Test
    public void stress() {
        new StressOptions()
                .iterations(30)
                .invocationsPerIteration(2_000)
                .threads(3)
                .actorsPerThread(3)
                .sequentialSpecification(FifoSpecs.BoundedSixteen.class)
                .check(getClass());
    }
}
