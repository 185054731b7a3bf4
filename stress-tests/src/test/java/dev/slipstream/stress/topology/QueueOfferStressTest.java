package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * QueueWorkerPool offers racing shutdown: no accepted offer is lost or unreported;
 * and the same check catches a shutdown that does not wait for offers in flight. Default: up to
 * 300 rounds or 6 s per case; {@code -Dslipstream.stress.long=true}: up to 20,000 rounds or 5
 * minutes.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class QueueOfferStressTest {
    private static final boolean LONG = Boolean.getBoolean("slipstream.stress.long");
    private static final int ROUNDS = Integer.getInteger("slipstream.stress.rounds", LONG ? 20_000 : 300);
    private static final long BUDGET = TimeUnit.SECONDS.toNanos(Long.getLong("slipstream.stress.seconds", LONG ? 300 : 6));
    private static final long SEED = Long.getLong("slipstream.stress.seed", 13L);

    @Test
    void offersRacingShutdownAreHandledOrReported() throws Exception {
        final QueueOfferRace.Outcome outcome = QueueOfferRace.run(QueueOfferRace.Real::new, ROUNDS, BUDGET, SEED);
        System.out.println("[offer-race] real: " + outcome);
        assertTrue(outcome.rounds() >= 50, "too few rounds ran: " + outcome);
        assertTrue(outcome.exact(), outcome.toString());
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAShutdownThatDoesNotWaitForOffersInFlight() throws Exception {
        final QueueOfferRace.Outcome outcome =
                QueueOfferRace.run(QueueOfferRace.NoInFlightMutant::new, ROUNDS, BUDGET, SEED);
        System.out.println("[offer-race] mutant: " + outcome);
        assertTrue(outcome.roundsWithLoss() > 0 && outcome.cleanButLost() > 0,
                "the mutant's lost offers were not caught: " + outcome);
    }
}
