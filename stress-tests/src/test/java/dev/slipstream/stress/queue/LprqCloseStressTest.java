package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.LprqQueue;
import dev.slipstream.queue.MutantLprqCloseQueue;
import dev.slipstream.queue.MutantLprqCloseQueue.Mutation;
import dev.slipstream.stress.TestSize;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LprqQueue#close()} racing producers: every offer that returned true is drained exactly
 * once before {@link LprqQueue#isDrained()} says true, and no offer that began after
 * {@code close()} returned succeeds; and the same check catches a close that leaves out a step
 * of the protocol ({@link MutantLprqCloseQueue}). Rounds ({@link TestSize}): 400 in
 * every build, 2,000 with {@code -Pstress} (the seeded-bug proofs run only there), 50,000 with
 * {@code -Dslipstream.stress.long=true}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("scaled")
class LprqCloseStressTest {
    private static final int ROUNDS = TestSize.pick(400, 2_000, 50_000);
    private static final long BUDGET = TimeUnit.SECONDS.toNanos(TestSize.pick(8, 8, 600));
    /** Inside both windows of an offer that a close can land in (see the mutant). */
    private static final long PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    /** The most the close waits after its count of accepted values, on the real queue. */
    private static final long JITTER_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

    @ParameterizedTest(name = "ring {0}")
    @ValueSource(ints = {1, 2, 64})
    void closeLosesNoAcceptedElementAndAcceptsNoLateOffer(final int ring) throws Exception {
        final LprqCloseRace.Outcome outcome =
                LprqCloseRace.run(() -> LprqCloseRace.of(new LprqQueue<>(ring)), ROUNDS, BUDGET, 2, 200, JITTER_NANOS);
        System.out.println("LprqQueue(" + ring + ") close race: " + outcome);
        assertTrue(outcome.rounds() >= 200, "too few rounds ran: " + outcome);
        assertTrue(outcome.accepted() > 0, "nothing was accepted: " + outcome);
        assertTrue(outcome.clean(), outcome.toString());
    }

    @Test
    void theShippedProtocolSurvivesAPauseInsideEachWindow() throws Exception {
        final LprqCloseRace.Outcome outcome = LprqCloseRace.run(
                () -> new MutantLprqCloseQueue(Mutation.NONE, 2, PAUSE_NANOS), ROUNDS / 4, BUDGET, 2, 20, 4 * PAUSE_NANOS);
        System.out.println("shipped close protocol, paused inside the windows: " + outcome);
        assertTrue(outcome.rounds() >= 50, "too few rounds ran: " + outcome);
        assertTrue(outcome.clean(), outcome.toString());
    }

    @Test
    @Tag("stress")
    void theCheckCatchesACloseThatNeverSealsTheLastRing() throws Exception {
        final LprqCloseRace.Outcome outcome = LprqCloseRace.run(
                () -> new MutantLprqCloseQueue(Mutation.CLOSE_WITHOUT_SEALING_NEXT, 2, PAUSE_NANOS),
                ROUNDS / 4, BUDGET, 2, 20, 4 * PAUSE_NANOS);
        System.out.println("close without the closed link: " + outcome);
        assertTrue(outcome.lost() > 0, "a ring linked after the close was not caught: " + outcome);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesACloseThatLeavesTheLastRingsTailOpen() throws Exception {
        final LprqCloseRace.Outcome outcome = LprqCloseRace.run(
                () -> new MutantLprqCloseQueue(Mutation.CLOSE_WITHOUT_CLOSING_TAIL, 2, PAUSE_NANOS),
                ROUNDS / 4, BUDGET, 2, 20, 4 * PAUSE_NANOS);
        System.out.println("close without closing the ring's tail: " + outcome);
        assertTrue(outcome.lost() > 0, "an offer into the open tail after the close was not caught: " + outcome);
    }
}
