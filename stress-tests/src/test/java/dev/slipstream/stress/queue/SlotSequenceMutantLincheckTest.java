package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Proof that {@link SlotSequenceQueueLincheckTest}'s capacity-two model check can fail: the same
 * check, run against {@link MutantSlotSequenceQueue} (the production protocol with one step
 * changed), reports a non-linearizable execution, and the copy without a mutation passes it.
 */
@Tag("stress")
public class SlotSequenceMutantLincheckTest {

    /** The operations the model check runs, on the mutant queue a subclass passes in. */
    abstract static class MutantOperations extends MutantQueueOperations {
        MutantOperations(final MutantSlotSequenceQueue queue) {
            super(queue);
        }
    }

    /** Capacity two; a consumer frees its slot before nulling the element. */
    public static class FreeSlotBeforeNullingElement extends MutantOperations {
        public FreeSlotBeforeNullingElement() {
            super(new MutantSlotSequenceQueue(MutantSlotSequenceQueue.Mutation.FREE_SLOT_BEFORE_NULLING_ELEMENT, 2));
        }
    }

    /** Capacity two; a producer answers full without looking at the consumer index. */
    public static class FullWithoutConsumerCheck extends MutantOperations {
        public FullWithoutConsumerCheck() {
            super(new MutantSlotSequenceQueue(MutantSlotSequenceQueue.Mutation.FULL_WITHOUT_CONSUMER_CHECK, 2));
        }
    }

    /** Capacity two, no mutation. */
    public static class Unmutated extends MutantOperations {
        public Unmutated() {
            super(new MutantSlotSequenceQueue(MutantSlotSequenceQueue.Mutation.NONE, 2));
        }
    }

    private static void modelCheck(final Class<?> subject, final int iterations) {
        FifoQueueOperations.modelChecking(FifoSpecs.BoundedTwo.class)
                .iterations(iterations)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(subject);
    }

    @Test
    public void theModelCheckCatchesAConsumerThatFreesTheSlotBeforeNullingTheElement() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheck(FreeSlotBeforeNullingElement.class, 60));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesAProducerThatAnswersFullWithoutLookingAtTheConsumers() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheck(FullWithoutConsumerCheck.class, 60));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theUnmutatedCopyPassesTheSameCheck() {
        modelCheck(Unmutated.class, 5);
    }
}
