package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Proof that {@link SlotSequenceQueueLincheckTest}'s capacity-two model check can fail: the same
 * check, run against {@link MutantSlotSequenceQueue} (the production protocol with one step
 * changed) on the scenario that exposes each mutant, reports a non-linearizable execution, and the
 * copy without a mutation passes those scenarios and a random model check.
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

    /** Capacity two, backing off after a lost CAS; a consumer frees its slot before nulling the element. */
    public static class FreeSlotBeforeNullingElementBackingOff extends MutantOperations {
        public FreeSlotBeforeNullingElementBackingOff() {
            super(new MutantSlotSequenceQueue(MutantSlotSequenceQueue.Mutation.FREE_SLOT_BEFORE_NULLING_ELEMENT, 2, true));
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
                () -> modelCheckScenario(FreeSlotBeforeNullingElement.class, elementOfferedIntoAFreedSlot(), PROOF_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesAProducerThatAnswersFullWithoutLookingAtTheConsumers() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheckScenario(FullWithoutConsumerCheck.class, offerBesideTwoPollsOfAFullQueue(), PROOF_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesAConsumerThatFreesTheSlotBeforeNullingTheElementWhileBackingOff() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheckScenario(FreeSlotBeforeNullingElementBackingOff.class, elementOfferedIntoAFreedSlot(),
                        PROOF_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theUnmutatedCopyPassesTheSameCheck() {
        modelCheckScenario(Unmutated.class, elementOfferedIntoAFreedSlot(), 2_000);
        modelCheckScenario(Unmutated.class, offerBesideTwoPollsOfAFullQueue(), 2_000);
        modelCheck(Unmutated.class, 5);
    }

    /** Enough for the model checker to reach the bad execution on a mutant (it stops there). */
    private static final int PROOF_INVOCATIONS = 50_000;

    // The scenarios below are the ones the random model check (modelCheck) reported for each
    // mutant, so that a proof takes a second or two instead of a random search.

    /** Two elements in (full); a poll races an offer; then two polls: the offered element is lost. */
    private static ExecutionScenario elementOfferedIntoAFreedSlot() {
        return new ExecutionScenario(List.of(offer(6), offer(6)),
                List.of(List.of(poll()), List.of(offer(4))),
                List.of(poll(), poll()), null);
    }

    /** Two elements in (full); two polls race an offer, which must not fail once a poll has taken one. */
    private static ExecutionScenario offerBesideTwoPollsOfAFullQueue() {
        return new ExecutionScenario(List.of(offer(6), offer(5)),
                List.of(List.of(poll()), List.of(offer(6)), List.of(poll())),
                List.of(), null);
    }

    private static void modelCheckScenario(final Class<?> subject, final ExecutionScenario scenario,
            final int invocations) {
        MutantQueueOperations.modelCheckScenario(FifoSpecs.BoundedTwo.class, subject, scenario, invocations);
    }

    private static Actor offer(final int element) {
        return MutantQueueOperations.offerActor(element);
    }

    private static Actor poll() {
        return MutantQueueOperations.pollActor();
    }
}
