package dev.slipstream.stress.queue;

import org.junit.jupiter.api.Tag;
import dev.slipstream.stress.TestSize;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.ScqQueue;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The bounded queue at capacity 2, where "full" is reached by every scenario; this test pins
 * down the spurious full.
 *
 * <p>Precisely: an offer takes a slot from the free ring before its element is visible, and a
 * poll gives its slot back only after its element is gone. {@code offer} returns false when, at
 * one moment during the call, every slot either holds an element or is held by another thread's
 * offer or poll in progress. Measured against a bounded FIFO queue of capacity 2 that is not
 * linearizable whenever the slot-holding operation is seen not to have happened yet (a poll
 * returns null while the offer holding a slot is still in flight) or to have happened already
 * (a second poll completes while the first one still holds its slot). Therefore:
 * <ul>
 *   <li>with one producer and one consumer the queue is a linearizable bounded FIFO queue of
 *       capacity 2, checked here against that exact specification (model checking and
 *       stress);</li>
 *   <li>the two scenarios that break it are checked to fail, with an {@code offer} that
 *       returns false: model checking finds the interleavings.</li>
 * </ul>
 */
@Param(name = "element", gen = IntGen.class, conf = "1:9")
@Tag("scaled")
public class ScqQueueCapacityTwoLincheckTest {
    private final ScqQueue<Integer> queue = new ScqQueue<>(2);

    @Operation(nonParallelGroup = "producer")
    public boolean offer(@Param(name = "element") final int e) {
        return queue.offer(e);
    }

    @Operation(nonParallelGroup = "consumer")
    public Integer poll() {
        return queue.poll();
    }

    @Test
    public void singleProducerSingleConsumerModelChecking() {
        FifoQueueOperations.modelChecking(FifoSpecs.BoundedTwo.class)
                .iterations(TestSize.pick(3, 15, 30))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .check(getClass());
    }

    @Test
    public void singleProducerSingleConsumerStress() {
        FifoQueueOperations.stress(FifoSpecs.BoundedTwo.class)
                .iterations(TestSize.pick(3, 20, 20))
                .invocationsPerIteration(TestSize.pick(500, 1_000, 1_000))
                .threads(2)
                .actorsPerThread(3)
                .check(getClass());
    }

    /** The same operations with no restriction on who offers and who polls. */
    public static class AnyThread extends FifoQueueOperations {
        public AnyThread() {
            super(new ScqQueue<>(2));
        }
    }

    private static Actor offerActor(final int e) {
        return FifoQueueOperations.offerActor(AnyThread.class, e);
    }

    private static Actor pollActor() {
        return FifoQueueOperations.pollActor(AnyThread.class);
    }

    private static String failureOf(final ExecutionScenario scenario) {
        final LincheckAssertionError failure = assertThrows(LincheckAssertionError.class, () ->
                new ModelCheckingOptions()
                        .iterations(0)
                        .addCustomScenario(scenario)
                        .invocationsPerIteration(10_000)
                        .sequentialSpecification(FifoSpecs.BoundedTwo.class)
                        .check(AnyThread.class),
                "expected the spurious full to be found");
        return failure.getMessage();
    }

    @Test
    public void aPollHoldingItsSlotWhileAnotherCompletesMakesAnOfferFail() {
        // 1 and 2 in; thread 1 polls (removes 1, holds its slot); thread 2 polls 2 and offers
        // 3 and 4: the queue holds one element when offer(4) finds no free slot
        final String report = failureOf(new ExecutionScenario(
                List.of(offerActor(1), offerActor(2)),
                List.<List<Actor>>of(List.of(pollActor()), List.of(pollActor(), offerActor(3), offerActor(4))),
                List.of(),
                null));
        assertTrue(report.contains("offer(4): false"), report);
    }

    @Test
    public void anOfferHoldingItsSlotMakesAnotherOfferFailWhileAPollSeesNothing() {
        // 1 in; thread 2's offer takes the last free slot and pauses before its element is
        // visible; thread 1's offer finds no free slot, then it polls 1 and polls again: null
        final String report = failureOf(new ExecutionScenario(
                List.of(offerActor(1)),
                List.<List<Actor>>of(List.of(offerActor(5), pollActor(), pollActor()), List.of(offerActor(6))),
                List.of(),
                null));
        assertTrue(report.contains("offer(5): false"), report);
    }
}
