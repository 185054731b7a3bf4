package dev.slipstream.stress.queue;

import org.junit.jupiter.api.Tag;
import dev.slipstream.stress.TestSize;
import dev.slipstream.queue.ScqQueue;
import org.junit.jupiter.api.Test;

/**
 * The bounded queue with a capacity (16) larger than any scenario can fill is a linearizable
 * FIFO queue: offer always succeeds, poll returns the oldest element or null.
 */
@Tag("scaled")
public class ScqQueueLincheckTest extends FifoQueueOperations {
    public ScqQueueLincheckTest() {
        super(new ScqQueue<>(16));
    }

    @Test
    public void modelChecking() {
        modelChecking(FifoSpecs.BoundedSixteen.class)
                .iterations(TestSize.pick(3, 15, 30))
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
}
