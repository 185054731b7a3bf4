package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Proof that {@link LprqQueueLincheckTest}'s model check can fail: the same check, run against
 * {@link MutantLprqQueue} (the production algorithm with one check removed), reports a
 * non-linearizable execution.
 */
public class LprqMutantLincheckTest {

    /** Rings of two cells; a dequeuer takes an element of an older lap. */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class TakeWithoutEpochCheck {
        private final MutantLprqQueue queue =
                new MutantLprqQueue(MutantLprqQueue.Mutation.TAKE_WITHOUT_EPOCH_CHECK, 2);

        @Operation
        public boolean offer(@Param(name = "element") final int e) {
            return queue.offer(e);
        }

        @Operation
        public Integer poll() {
            return (Integer) queue.poll();
        }
    }

    /** Rings of two cells; an enqueuer fills an unsafe cell that a dequeuer has passed. */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class EnqueueIntoUnsafeCell {
        private final MutantLprqQueue queue =
                new MutantLprqQueue(MutantLprqQueue.Mutation.ENQUEUE_INTO_UNSAFE_CELL, 2);

        @Operation
        public boolean offer(@Param(name = "element") final int e) {
            return queue.offer(e);
        }

        @Operation
        public Integer poll() {
            return (Integer) queue.poll();
        }
    }

    /** Rings of two cells; a dequeuer passes an unpublished claim without changing the epoch. */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class PassClaimUnmarked {
        private final MutantLprqQueue queue =
                new MutantLprqQueue(MutantLprqQueue.Mutation.PASS_CLAIM_UNMARKED, 2);

        @Operation
        public boolean offer(@Param(name = "element") final int e) {
            return queue.offer(e);
        }

        @Operation
        public Integer poll() {
            return (Integer) queue.poll();
        }
    }

    /**
     * Rings of two cells that start unsafe; an enqueuer claims an unsafe cell with its element.
     */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class ClaimUnsafeCellWithElement {
        private final MutantLprqQueue queue =
                new MutantLprqQueue(MutantLprqQueue.Mutation.CLAIM_UNSAFE_CELL_WITH_ELEMENT, 2, true);

        @Operation
        public boolean offer(@Param(name = "element") final int e) {
            return queue.offer(e);
        }

        @Operation
        public Integer poll() {
            return (Integer) queue.poll();
        }
    }

    /** Rings of two cells that start unsafe, no mutation: the unsafe start alone is correct. */
    @Param(name = "element", gen = IntGen.class, conf = "1:9")
    public static class UnsafeStartUnmutated {
        private final MutantLprqQueue queue =
                new MutantLprqQueue(MutantLprqQueue.Mutation.NONE, 2, true);

        @Operation
        public boolean offer(@Param(name = "element") final int e) {
            return queue.offer(e);
        }

        @Operation
        public Integer poll() {
            return (Integer) queue.poll();
        }
    }

    private static void modelCheck(final Class<?> subject) {
        FifoQueueOperations.modelChecking(FifoSpecs.Unbounded.class)
                .iterations(60)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(subject);
    }

    @Test
    public void theModelCheckCatchesADequeuerThatTakesAnOlderLapsElement() {
        final LincheckAssertionError e =
                assertThrows(LincheckAssertionError.class, () -> modelCheck(TakeWithoutEpochCheck.class));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesAnEnqueuerThatFillsAnUnsafeCell() {
        final LincheckAssertionError e =
                assertThrows(LincheckAssertionError.class, () -> modelCheck(EnqueueIntoUnsafeCell.class));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesADequeuerThatPassesAClaimWithoutMarkingTheCell() {
        final LincheckAssertionError e =
                assertThrows(LincheckAssertionError.class, () -> modelCheck(PassClaimUnmarked.class));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesAnEnqueuerThatClaimsAnUnsafeCellWithItsElement() {
        final LincheckAssertionError e =
                assertThrows(LincheckAssertionError.class, () -> modelCheck(ClaimUnsafeCellWithElement.class));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theUnmutatedCopyPassesTheSameCheckWithCellsThatStartUnsafe() {
        modelCheck(UnsafeStartUnmutated.class);
    }
}
