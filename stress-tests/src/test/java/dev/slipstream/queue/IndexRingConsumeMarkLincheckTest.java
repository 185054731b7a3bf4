package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.stress.TestSize;
import java.util.ArrayDeque;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model check of the consume mark of an SCQ index ring ({@link IndexRing}, 2 indices, 4
 * entries): a dequeuer that has read its entry marks it consumed while a late dequeuer of the
 * next lap clears the same entry's IsSafe bit and an enqueuer of that lap is about to fill it.
 * The mark must change the index bits only; the ring is then a linearizable FIFO of indices
 * ({@link Spec}).
 *
 * <p>The scenario: index 0 is in the ring; thread 1 dequeues it; thread 2 dequeues four times
 * (positions 1 to 3 are empty, position 4 is the first entry's next lap, which it finds still
 * holding index 0 and marks unsafe); thread 3 enqueues index 1; a last dequeue follows. The same
 * scenario run against {@link PlainStoreConsumeRing}, the algorithm with the mark as a plain
 * store of the word read, is shown to lose index 1: the model checker finds the interleaving in
 * which the store sets IsSafe again and thread 3 fills position 4 behind thread 2.
 */
@Tag("scaled")
public class IndexRingConsumeMarkLincheckTest {
    private final IndexRing ring = new IndexRing(1, false, false, 0L, false);

    @Operation
    public boolean enqueue(final int index) {
        return ring.enqueue(index);
    }

    @Operation
    public int dequeue() {
        return ring.dequeue();
    }

    /** The same operations on the seeded bug. */
    public static class Mutant {
        private final PlainStoreConsumeRing ring = new PlainStoreConsumeRing(1);

        @Operation
        public boolean enqueue(final int index) {
            return ring.enqueue(index);
        }

        @Operation
        public int dequeue() {
            return ring.dequeue();
        }
    }

    /** A FIFO of indices: dequeue returns -1 when it is empty. */
    public static class Spec {
        private final ArrayDeque<Integer> indices = new ArrayDeque<>();

        public boolean enqueue(final int index) {
            return indices.add(index);
        }

        public int dequeue() {
            final Integer index = indices.poll();
            return index == null ? IndexRing.EMPTY : index;
        }
    }

    private static ExecutionScenario lateDequeuerScenario(final Class<?> subject) throws NoSuchMethodException {
        final Actor enqueue0 = new Actor(subject.getMethod("enqueue", int.class), List.of(0));
        final Actor enqueue1 = new Actor(subject.getMethod("enqueue", int.class), List.of(1));
        final Actor dequeue = new Actor(subject.getMethod("dequeue"), List.of());
        return new ExecutionScenario(
                List.of(enqueue0),
                List.<List<Actor>>of(
                        List.of(dequeue),
                        List.of(dequeue, dequeue, dequeue, dequeue),
                        List.of(enqueue1)),
                List.of(dequeue, dequeue),
                null);
    }

    private static void check(final Class<?> subject) throws NoSuchMethodException {
        new ModelCheckingOptions()
                .iterations(0)
                .addCustomScenario(lateDequeuerScenario(subject))
                .invocationsPerIteration(TestSize.pick(3_000, 20_000, 200_000))
                .sequentialSpecification(Spec.class)
                .check(subject);
    }

    @Test
    public void theConsumeMarkKeepsALateDequeuersIsSafeClear() throws NoSuchMethodException {
        check(IndexRingConsumeMarkLincheckTest.class);
    }

    @Test
    @Tag("stress")
    public void aPlainStoreConsumeMarkIsCaughtLosingAnIndex() {
        final LincheckAssertionError failure = assertThrows(LincheckAssertionError.class,
                () -> check(Mutant.class), "expected the lost index to be found");
        assertTrue(failure.getMessage().contains("enqueue(1)"), failure::getMessage);
    }
}
