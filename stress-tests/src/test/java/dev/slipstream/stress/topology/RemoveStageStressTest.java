package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * removeStage under multi-producer load (issue #13): the removed stage never reads an overwritten
 * slot and the stage that stays accounts for every accepted event; and the same check catches the
 * removal that re-gates before it halts and joins. Default: up to 200 rounds or 6 s per case;
 * {@code -Dslipstream.stress.long=true}: up to 10,000 rounds or 5 minutes.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RemoveStageStressTest {
    private static final boolean LONG = Boolean.getBoolean("slipstream.stress.long");
    private static final int ROUNDS = Integer.getInteger("slipstream.stress.rounds", LONG ? 10_000 : 200);
    private static final long BUDGET = TimeUnit.SECONDS.toNanos(Long.getLong("slipstream.stress.seconds", LONG ? 300 : 6));
    private static final long SEED = Long.getLong("slipstream.stress.seed", 13L);

    @Test
    void removingAStageUnderLoadOverwritesNothingAndLosesNothing() throws Exception {
        final RemoveRace.Outcome outcome = RemoveRace.run(RemoveRace.Real::new, ROUNDS, BUDGET, SEED);
        System.out.println("[remove-race] real: " + outcome);
        assertTrue(outcome.rounds() >= 30, "too few rounds ran: " + outcome);
        assertTrue(outcome.exact(), outcome.toString());
    }

    @Test
    void theCheckCatchesARemovalThatRegatesBeforeItJoins() throws Exception {
        // a longer budget than the real case: on a loaded machine fewer rounds fit in 6 s
        final RemoveRace.Outcome outcome = RemoveRace.run(RemoveRace.RegateFirstMutant::new, ROUNDS, 2 * BUDGET, SEED);
        System.out.println("[remove-race] mutant: " + outcome);
        assertTrue(outcome.overwritten() > 0, "the re-gate-first removal was not caught: " + outcome);
    }
}
