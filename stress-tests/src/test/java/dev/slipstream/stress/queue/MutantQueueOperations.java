package dev.slipstream.stress.queue;

import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
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

    /**
     * Model checks one hand-written scenario (a mutant proof stops at the first bad execution).
     *
     * @param specification the sequential FIFO queue the results must match
     * @param subject the operations class, a subclass holding the mutant
     * @param scenario the scenario
     * @param invocations interleavings to try at most
     */
    static void modelCheckScenario(final Class<?> specification, final Class<?> subject,
            final ExecutionScenario scenario, final int invocations) {
        FifoQueueOperations.modelChecking(specification)
                .iterations(0)
                .invocationsPerIteration(invocations)
                .addCustomScenario(scenario)
                .check(subject);
    }

    /** @return an {@code offer(element)} for a hand-written scenario */
    static Actor offerActor(final int element) {
        return FifoQueueOperations.offerActor(MutantQueueOperations.class, element);
    }

    /** @return a {@code poll()} for a hand-written scenario */
    static Actor pollActor() {
        return FifoQueueOperations.pollActor(MutantQueueOperations.class);
    }
}
