package dev.slipstream.stress.queue;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * The operations a seeded-bug proof's model check runs, {@code offer} and {@code poll}, on the
 * mutant queue a subclass passes in (as {@link FifoQueueOperations} does for the shipped queues).
 */
@Param(name = "element", gen = IntGen.class, conf = "1:9")
abstract class MutantQueueOperations {
    /** A copy of a shipped queue's protocol with a seeded bug. */
    interface MutantQueue {
        boolean offer(Object e);

        Object poll();
    }

    private final MutantQueue queue;

    MutantQueueOperations(final MutantQueue queue) {
        this.queue = queue;
    }

    @Operation
    public boolean offer(@Param(name = "element") final int e) {
        return queue.offer(e);
    }

    @Operation
    public Integer poll() {
        return (Integer) queue.poll();
    }
}
