package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.LprqQueue;
import dev.slipstream.queue.LprqReservationOrderLincheckTest;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Proof that {@link LprqQueueLincheckTest}'s model check can fail: the same check, run against
 * {@link MutantLprqQueue} (the production algorithm with one check removed), reports a
 * non-linearizable execution. Three mutants the random scenarios reach slowly, and the order bug,
 * are model-checked on the scenario that exposes each, and the copy without a mutation passes
 * those scenarios.
 */
@Tag("stress")
public class LprqMutantLincheckTest {

    /** The operations the model check runs, on the mutant queue a subclass passes in. */
    abstract static class MutantOperations extends MutantQueueOperations {
        MutantOperations(final MutantLprqQueue queue) {
            super(queue);
        }
    }

    /** Rings of two cells; a dequeuer takes an element of an older lap. */
    public static class TakeWithoutEpochCheck extends MutantOperations {
        public TakeWithoutEpochCheck() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.TAKE_WITHOUT_EPOCH_CHECK, 2));
        }
    }

    /** Rings of two cells; an enqueuer fills an unsafe cell that a dequeuer has passed. */
    public static class EnqueueIntoUnsafeCell extends MutantOperations {
        public EnqueueIntoUnsafeCell() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.ENQUEUE_INTO_UNSAFE_CELL, 2));
        }
    }

    /** Rings of two cells; a dequeuer passes an unpublished claim without changing the epoch. */
    public static class PassClaimUnmarked extends MutantOperations {
        public PassClaimUnmarked() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.PASS_CLAIM_UNMARKED, 2));
        }
    }

    /**
     * Rings of two cells that start unsafe; an enqueuer claims an unsafe cell with its element.
     */
    public static class ClaimUnsafeCellWithElement extends MutantOperations {
        public ClaimUnsafeCellWithElement() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.CLAIM_UNSAFE_CELL_WITH_ELEMENT, 2, true));
        }
    }

    /** Rings of two cells; a poll ends on an empty head ring that is closed. */
    public static class EmptyClosedRingEndsPoll extends MutantOperations {
        public EmptyClosedRingEndsPoll() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.EMPTY_CLOSED_RING_ENDS_POLL, 2));
        }
    }

    /**
     * Rings of two cells that start unsafe; an enqueuer checks the head before its reservation
     * only.
     */
    public static class HeadCheckedOnlyBeforeReservation extends MutantOperations {
        public HeadCheckedOnlyBeforeReservation() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.HEAD_CHECKED_ONLY_BEFORE_RESERVATION, 2, true));
        }
    }

    /**
     * Rings of two cells that start unsafe; a dequeuer nulls another position's reservation.
     */
    public static class OlderLapNullsReservation extends MutantOperations {
        public OlderLapNullsReservation() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.OLDER_LAP_NULLS_RESERVATION, 2, true));
        }
    }

    /** Rings of two cells with back-off; a dequeuer takes an element of an older lap. */
    public static class TakeWithoutEpochCheckBackOff extends MutantOperations {
        public TakeWithoutEpochCheckBackOff() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.TAKE_WITHOUT_EPOCH_CHECK, 2, false,
                    LprqQueue.Contention.BACK_OFF));
        }
    }

    /** Rings of two cells, waiting for overtaken offers; a dequeuer takes an element of an older lap. */
    public static class TakeWithoutEpochCheckWaitForOffer extends MutantOperations {
        public TakeWithoutEpochCheckWaitForOffer() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.TAKE_WITHOUT_EPOCH_CHECK, 2, false,
                    LprqQueue.Contention.WAIT_FOR_OFFER));
        }
    }

    /** Rings of two cells with back-off, no mutation. */
    public static class UnmutatedBackOff extends MutantOperations {
        public UnmutatedBackOff() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.NONE, 2, false, LprqQueue.Contention.BACK_OFF));
        }
    }

    /** Rings of two cells, waiting for overtaken offers, no mutation. */
    public static class UnmutatedWaitForOffer extends MutantOperations {
        public UnmutatedWaitForOffer() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.NONE, 2, false, LprqQueue.Contention.WAIT_FOR_OFFER));
        }
    }

    /** Rings of two cells, no mutation. */
    public static class Unmutated extends MutantOperations {
        public Unmutated() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.NONE, 2));
        }
    }

    /** Rings of two cells that start unsafe, no mutation: the unsafe start alone is correct. */
    public static class UnsafeStartUnmutated extends MutantOperations {
        public UnsafeStartUnmutated() {
            super(new MutantLprqQueue(MutantLprqQueue.Mutation.NONE, 2, true));
        }
    }

    private static void modelCheck(final Class<?> subject) {
        modelCheck(subject, 60);
    }

    private static void modelCheck(final Class<?> subject, final int iterations) {
        FifoQueueOperations.modelChecking(FifoSpecs.Unbounded.class)
                .iterations(iterations)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(subject);
    }

    @Test
    public void theModelCheckCatchesADequeuerThatTakesAnOlderLapsElement() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheckScenario(TakeWithoutEpochCheck.class, olderLapTaken(), REPRODUCING_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesADequeuerThatTakesAnOlderLapsElementWithBackOff() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelCheckScenario(
                TakeWithoutEpochCheckBackOff.class, olderLapTaken(), REPRODUCING_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesADequeuerThatTakesAnOlderLapsElementWhileWaitingForOffers() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelCheckScenario(
                TakeWithoutEpochCheckWaitForOffer.class, olderLapTaken(), REPRODUCING_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theUnmutatedCopyWithEachContentionSettingPassesTheScenarioThatExposesTheMutant() {
        modelCheckScenario(UnmutatedBackOff.class, olderLapTaken(), UNMUTATED_INVOCATIONS);
        modelCheckScenario(UnmutatedWaitForOffer.class, olderLapTaken(), UNMUTATED_INVOCATIONS);
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
    public void theModelCheckCatchesAPollThatEndsOnAnEmptyClosedRing() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheckScenario(EmptyClosedRingEndsPoll.class, pollPastAClosedRing(),
                        REPRODUCING_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    @Test
    public void theModelCheckCatchesAnEnqueuerThatChecksTheHeadOnlyBeforeItsReservation() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelCheckScenario(
                HeadCheckedOnlyBeforeReservation.class, headMovedDuringAReservation(), REPRODUCING_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    /** Enough for the model checker to reach the bad execution on the mutant (it stops there). */
    private static final int REPRODUCING_INVOCATIONS = 50_000;
    /** Interleavings of each exposing scenario that the copy without a mutation passes. */
    private static final int UNMUTATED_INVOCATIONS = 2_000;

    private static void modelCheckScenario(final Class<?> subject, final ExecutionScenario scenario,
            final int invocations) {
        MutantQueueOperations.modelCheckScenario(FifoSpecs.Unbounded.class, subject, scenario, invocations);
    }

    /** The scenario of the order bug, described where it runs on the production queue. */
    private static ExecutionScenario reservationNulledByAnOlderLap() {
        return LprqReservationOrderLincheckTest.reservationNulledByAnOlderLap(MutantOperations.class);
    }

    // The scenarios below are the ones the random model check (modelCheck) reported, shrunk, for
    // the mutants it took longest to reach (20 to 50 s each on two cores); run alone, each exposes
    // its mutant in under two seconds.

    /** One element queued; two polls race an offer; then an offer and a poll. */
    private static ExecutionScenario olderLapTaken() {
        return scenario(List.of(offer(5)),
                List.of(List.of(poll()), List.of(poll()), List.of(offer(4))),
                List.of(offer(5), poll()));
    }

    /** An empty queue; one offer, two offers and two polls race; then two polls. */
    private static ExecutionScenario headMovedDuringAReservation() {
        return scenario(List.of(),
                List.of(List.of(offer(4)), List.of(offer(6), offer(7)), List.of(poll(), poll())),
                List.of(poll(), poll()));
    }

    /** Two elements queued (a full ring of two cells); three polls race an offer; then a poll. */
    private static ExecutionScenario pollPastAClosedRing() {
        return scenario(List.of(offer(5), offer(6)),
                List.of(List.of(poll()), List.of(poll(), poll()), List.of(offer(4))),
                List.of(poll()));
    }

    private static ExecutionScenario scenario(final List<Actor> before, final List<List<Actor>> parallel,
            final List<Actor> after) {
        return new ExecutionScenario(before, parallel, after, null);
    }

    private static Actor offer(final int element) {
        return MutantQueueOperations.offerActor(element);
    }

    private static Actor poll() {
        return MutantQueueOperations.pollActor();
    }

    @Test
    public void theModelCheckCatchesADequeuerThatNullsAnotherPositionsReservation() {
        final LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelCheckScenario(OlderLapNullsReservation.class, reservationNulledByAnOlderLap(),
                        REPRODUCING_INVOCATIONS));
        assertTrue(e.getMessage().contains("Invalid execution results"), e::getMessage);
    }

    // The checks below show that the copy without its mutation passes: they cannot stop early
    // at a failure, so they run fewer scenarios than the proofs (which stop at the first failure);
    // the production queue has its own full model checks (LprqQueueLincheckTest,
    // LprqReservationOrderLincheckTest).

    @Test
    public void theUnmutatedCopyPassesTheReservationScenario() {
        modelCheckScenario(UnsafeStartUnmutated.class, reservationNulledByAnOlderLap(), 5_000);
    }

    @Test
    public void theUnmutatedCopyPassesTheScenariosThatExposeTheOtherMutants() {
        modelCheckScenario(Unmutated.class, olderLapTaken(), UNMUTATED_INVOCATIONS);
        modelCheckScenario(UnsafeStartUnmutated.class, headMovedDuringAReservation(), UNMUTATED_INVOCATIONS);
        modelCheckScenario(Unmutated.class, pollPastAClosedRing(), UNMUTATED_INVOCATIONS);
    }

    @Test
    public void theUnmutatedCopyPassesTheSameCheckWithCellsThatStartUnsafe() {
        modelCheck(UnsafeStartUnmutated.class, 15);
    }
}
