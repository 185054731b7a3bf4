package dev.slipstream.sequence;

import dev.slipstream.stress.TestSize;
import dev.slipstream.wait.YieldingWaitStrategy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A close racing producers of a full ring abandons no claim, and no publish above the close
 * fence returns normally; and the same check catches the claim protocol that did abandon claims.
 * Rounds ({@link TestSize}): 200 in every build, 2,000 with {@code -Pstress} (the seeded-bug
 * proofs run only there), 50,000 with {@code -Dslipstream.stress.long=true}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("scaled")
class CloseRaceStressTest {
    private static final int ROUNDS = TestSize.pick(200, 2_000, 50_000);
    private static final long BUDGET = TimeUnit.SECONDS.toNanos(TestSize.pick(20, 20, 600));

    @Test
    void multiProducerCloseLeavesNoHoleAndAcceptsNothingPastTheFence() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(
                () -> new MultiProducerSequencer(4, new YieldingWaitStrategy(), attempt -> Thread.yield()), ROUNDS, BUDGET, 3);
        System.out.println("multi-producer close race: " + outcome);
        assertTrue(outcome.rounds() >= 200, "too few rounds ran: " + outcome);
        assertTrue(outcome.clean(), outcome.toString());
    }

    @Test
    void singleProducerCloseLeavesNoHoleAndAcceptsNothingPastTheFence() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(
                () -> new SingleProducerSequencer(4, new YieldingWaitStrategy(), attempt -> Thread.yield()),
                ROUNDS, BUDGET, 1);
        System.out.println("single-producer close race: " + outcome);
        assertTrue(outcome.rounds() >= 200, "too few rounds ran: " + outcome);
        assertTrue(outcome.clean(), outcome.toString());
    }

    @Test
    void singleProducerClaimThatStoresThenLooksForTheCloseSurvivesAPauseInsideTheClaim() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(() -> new SingleProducerMutant(4, new YieldingWaitStrategy(),
                SingleProducerMutant.Order.STORE_THEN_CHECK), ROUNDS / 10, BUDGET, 1);
        System.out.println("single-producer claim, shipped order, paused inside: " + outcome);
        assertTrue(outcome.rounds() >= 20, "too few rounds ran: " + outcome);
        assertTrue(outcome.clean(), outcome.toString());
    }

    @Test
    @Tag("stress")
    void theCheckCatchesASingleProducerClaimThatLooksForTheCloseBeforeItStores() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(() -> new SingleProducerMutant(4, new YieldingWaitStrategy(),
                SingleProducerMutant.Order.CHECK_THEN_STORE), ROUNDS / 10, BUDGET, 1);
        System.out.println("single-producer claim that looks before it stores: " + outcome);
        assertTrue(outcome.acceptedPastFence() > 0, "a claim accepted past the fence was not caught: " + outcome);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAClaimMadeBeforeSpaceWasConfirmed() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(
                () -> new MutantSequencer(4, new YieldingWaitStrategy(), MutantSequencer.Bug.CLAIM_BEFORE_SPACE),
                ROUNDS, BUDGET, 3);
        System.out.println("claim-before-space mutant: " + outcome);
        assertTrue(outcome.roundsWithHole() > 0, "the abandoned-claim mutant was not caught: " + outcome);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAFenceThatCountsClaimsStillWaitingForSpace() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(
                () -> new MutantSequencer(4, new YieldingWaitStrategy(), MutantSequencer.Bug.FENCE_NOT_LOWERED),
                ROUNDS, BUDGET, 3);
        System.out.println("fence-not-lowered mutant: " + outcome);
        assertTrue(outcome.roundsWithStuckProducer() > 0,
                "a fence above the claims waiting for space was not caught: " + outcome);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAWaitingProducerThatGivesUpBelowTheFence() throws Exception {
        final CloseRace.Outcome outcome = CloseRace.run(
                () -> new MutantSequencer(4, new YieldingWaitStrategy(), MutantSequencer.Bug.WAITER_IGNORES_FENCE),
                ROUNDS, BUDGET, 3);
        System.out.println("waiter-ignores-fence mutant: " + outcome);
        assertTrue(outcome.roundsWithHole() > 0, "a claim abandoned below the fence was not caught: " + outcome);
    }

    @Test
    void theMutantWithTheFixedClaimButNoFenceCheckLeavesNoHole() throws Exception {
        // the fence check is about acceptance, not holes: this mutant is caught by the model check
        final CloseRace.Outcome outcome = CloseRace.run(
                () -> new MutantSequencer(4, new YieldingWaitStrategy(), MutantSequencer.Bug.NO_FENCE_CHECK), 200, BUDGET, 3);
        assertEquals(0, outcome.roundsWithHole(), outcome.toString());
    }
}
