package dev.slipstream.stress.queue;

import dev.slipstream.stress.TestSize;
import java.util.List;
import java.util.Queue;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The operations a Lincheck test of a FIFO queue runs, {@code offer} and {@code poll}, on the
 * queue a subclass passes in; Lincheck finds the operations and the parameter declared here in
 * each subclass it checks. Elements come from a small range (1 to 9) so that model checking
 * sees repeated values.
 */
@Param(name = "element", gen = IntGen.class, conf = "1:9")
abstract class FifoQueueOperations {
    private final Queue<Integer> queue;

    /**
     * The operations run on {@code queue}.
     *
     * @param queue the queue under test, a fresh one per scenario
     */
    FifoQueueOperations(final Queue<Integer> queue) {
        this.queue = queue;
    }

    @Operation
    public boolean offer(@Param(name = "element") final int e) {
        return queue.offer(e);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    /**
     * Model checking against a sequential specification; the caller sets the scenario's shape.
     *
     * @param specification the sequential FIFO queue the results must match
     * @return the options, 1,000 invocations per iteration (300 at {@link TestSize#QUICK})
     */
    static ModelCheckingOptions modelChecking(final Class<?> specification) {
        return new ModelCheckingOptions()
                .invocationsPerIteration(TestSize.pick(300, 1_000, 1_000))
                .sequentialSpecification(specification);
    }

    /**
     * Stress on real threads against a sequential specification; the caller sets the rest.
     *
     * @param specification the sequential FIFO queue the results must match
     * @return the options
     */
    static StressOptions stress(final Class<?> specification) {
        return new StressOptions().sequentialSpecification(specification);
    }

    /**
     * An {@code offer} in a hand-written scenario.
     *
     * @param operations the class whose public {@code offer(int)} the model checker calls
     * @param element the element offered
     * @return the actor
     */
    static Actor offerActor(final Class<?> operations, final int element) {
        return actor(operations, "offer", List.of(element), int.class);
    }

    /**
     * A {@code poll} in a hand-written scenario.
     *
     * @param operations the class whose public {@code poll()} the model checker calls
     * @return the actor
     */
    static Actor pollActor(final Class<?> operations) {
        return actor(operations, "poll", List.of());
    }

    private static Actor actor(final Class<?> operations, final String name, final List<?> arguments,
            final Class<?>... parameterTypes) {
        try {
            return new Actor(operations.getMethod(name, parameterTypes), arguments);
        } catch (final NoSuchMethodException e) {
            throw new AssertionError(operations.getName() + " has no public " + name + " operation", e);
        }
    }
}
