package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.stress.TestSize;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * removeStage under multi-producer load: the removed stage never reads an overwritten
 * slot and the stage that stays accounts for every accepted event; and the same check catches the
 * removal that re-gates before it halts and joins ({@code -Pstress}). Up to 50 rounds or 6 s per
 * case in every build, 200 with {@code -Pstress}, 10,000 rounds or 5 minutes with
 * {@code -Dslipstream.stress.long=true} ({@link TestSize}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@Tag("scaled")
class RemoveStageStressTest {
    private static final int ROUNDS = Integer.getInteger("slipstream.stress.rounds", TestSize.pick(50, 200, 10_000));
    private static final long BUDGET = TimeUnit.SECONDS.toNanos(Long.getLong("slipstream.stress.seconds", TestSize.pick(6, 6, 300)));
    private static final long SEED = Long.getLong("slipstream.stress.seed", 13L);

    @Test
    void removingAStageUnderLoadOverwritesNothingAndLosesNothing() throws Exception {
        final RemoveRace.Outcome outcome = RemoveRace.run(RemoveRace.Real::new, ROUNDS, BUDGET, SEED);
        System.out.println("[remove-race] real: " + outcome);
        assertTrue(outcome.rounds() >= 30, "too few rounds ran: " + outcome);
        assertTrue(outcome.exact(), outcome.toString());
    }

    @Test
    @Tag("stress")
    void theCheckCatchesARemovalThatRegatesBeforeItJoins() throws Exception {
        // a longer budget than the real case: on a loaded machine fewer rounds fit in 6 s
        final RemoveRace.Outcome outcome = RemoveRace.run(RemoveRace.RegateFirstMutant::new, ROUNDS, 2 * BUDGET, SEED);
        System.out.println("[remove-race] mutant: " + outcome);
        assertTrue(outcome.overwritten() > 0, "the re-gate-first removal was not caught: " + outcome);
    }
}
