package dev.slipstream.stress.queue;

import dev.slipstream.queue.ScqQueue;
import org.junit.jupiter.api.Test;

/**
 * The bounded queue with a capacity (16) larger than any scenario can fill is a linearizable
 * FIFO queue: offer always succeeds, poll returns the oldest element or null.
 */
public class ScqQueueLincheckTest extends FifoQueueOperations {
    public ScqQueueLincheckTest() {
        super(new ScqQueue<>(16));
    }

    @Test
    public void modelChecking() {
        modelChecking(FifoSpecs.BoundedSixteen.class)
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
        stress(FifoSpecs.BoundedSixteen.class)
                .iterations(30)
                .invocationsPerIteration(2_000)
                .threads(3)
                .actorsPerThread(3)
                .check(getClass());
    }
}
