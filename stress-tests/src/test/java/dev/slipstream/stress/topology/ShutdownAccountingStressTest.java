package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.stress.TestSize;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nothing accepted is ever lost: shutdown, halt and close from another thread racing
 * producers, on one and on three producers, with exact accounting per stage and per producer
 * ({@link ShutdownRace}); and the same check catching the drain that ignored the close fence
 * ({@link OldDrainMutant}, with {@code -Pstress}). Up to 60 rounds or 6 s per case in every build,
 * 300 rounds with {@code -Pstress}, 20,000 rounds or 5 minutes with
 * {@code -Dslipstream.stress.long=true} ({@link TestSize}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@Tag("scaled")
class ShutdownAccountingStressTest {
    private static final int ROUNDS = Integer.getInteger("slipstream.stress.rounds", TestSize.pick(60, 300, 20_000));
    private static final long BUDGET = TimeUnit.SECONDS.toNanos(Long.getLong("slipstream.stress.seconds", TestSize.pick(6, 6, 300)));
    private static final long SEED = Long.getLong("slipstream.stress.seed", 13L);

    private static ShutdownRace.Outcome real(final ProducerType type, final ShutdownRace.Stop how)
            throws InterruptedException {
        final ShutdownRace.Outcome outcome = ShutdownRace.run(RealPipelineSubject::new, type, how, ROUNDS, BUDGET,
                SEED, 64, 500_000L);
        System.out.println("[shutdown-race] real " + type + " " + how + ": " + outcome);
        assertTrue(outcome.rounds() >= 50, "too few rounds ran: " + outcome);
        assertTrue(outcome.notTerminated() == 0, "threads left running: " + outcome);
        assertTrue(outcome.exact(), "accepted != handled + reported left: " + outcome);
        return outcome;
    }

    @Test
    void singleProducerShutdownRacingTheProducerLosesNothing() throws Exception {
        real(ProducerType.SINGLE, ShutdownRace.Stop.SHUTDOWN);
    }

    @Test
    void multiProducerShutdownRacingProducersLosesNothing() throws Exception {
        real(ProducerType.MULTI, ShutdownRace.Stop.SHUTDOWN);
    }

    @Test
    void haltRacingProducersCountsEveryAcceptedEvent() throws Exception {
        real(ProducerType.MULTI, ShutdownRace.Stop.HALT);
    }

    @Test
    void closeFromAnotherThreadRacingProducersLosesNothing() throws Exception {
        real(ProducerType.MULTI, ShutdownRace.Stop.CLOSE_FROM_ANOTHER_THREAD);
    }

    @Test
    void translatorsSlowerThanTheOldGracePeriodLoseNothing() throws Exception {
        final ShutdownRace.Outcome outcome = ShutdownRace.run(RealPipelineSubject::new, ProducerType.MULTI,
                ShutdownRace.Stop.SHUTDOWN, ROUNDS, BUDGET, SEED, 8, 5_000_000L);
        System.out.println("[shutdown-race] real MULTI SHUTDOWN slow translators: " + outcome);
        assertTrue(outcome.rounds() >= 50, "too few rounds ran: " + outcome);
        assertTrue(outcome.exact(), "accepted != handled + reported left: " + outcome);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesADrainThatIgnoresTheCloseFence() throws Exception {
        final ShutdownRace.Outcome outcome = ShutdownRace.run(OldDrainMutant::new, ProducerType.SINGLE,
                ShutdownRace.Stop.SHUTDOWN, ROUNDS, BUDGET, SEED, 8, 5_000_000L);
        System.out.println("[shutdown-race] mutant SINGLE SHUTDOWN: " + outcome);
        assertTrue(outcome.roundsWithLoss() > 0 && outcome.cleanButLost() > 0,
                "the old drain was not caught losing an accepted event while saying clean: " + outcome);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesTheOldDrainOnManyProducersToo() throws Exception {
        final ShutdownRace.Outcome outcome = ShutdownRace.run(OldDrainMutant::new, ProducerType.MULTI,
                ShutdownRace.Stop.SHUTDOWN, ROUNDS, BUDGET, SEED, 8, 5_000_000L);
        System.out.println("[shutdown-race] mutant MULTI SHUTDOWN: " + outcome);
        assertTrue(outcome.roundsWithLoss() > 0, "the old drain was not caught losing an event: " + outcome);
    }
}
