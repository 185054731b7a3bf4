package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.stress.TestSize;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stage's count of events skipped after an exception, reported by several worker threads at
 * once (a work pool), loses nothing when the threads really run together and the tally's code is
 * compiled: rounds of 2 threads x 200,000 exceptions, 5 in every build, 20 with {@code -Pstress},
 * 200 with {@code -Dslipstream.stress.long=true} ({@link TestSize}).
 *
 * <p>This run has no mutant proof of its own: on a loaded two-CPU machine two reporters rarely
 * run at the same instant, so a tally kept in a plain volatile counter
 * ({@link ExceptionTallyRace#plainCounterMutant()}) lost counts in only 1 of 17 rounds there.
 * {@link ExceptionTallyLincheckTest} checks the same tally in every interleaving instead and
 * catches that mutant every time.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("scaled")
class ExceptionTallyStressTest {
    private static final int ROUNDS = Integer.getInteger("slipstream.stress.rounds", TestSize.pick(5, 20, 200));
    private static final int THREADS = 2;
    private static final int PER_THREAD = 200_000;

    @Test
    void everyExceptionReportedByConcurrentWorkersIsCounted() throws Exception {
        final ExceptionTallyRace.Outcome outcome =
                ExceptionTallyRace.run(ExceptionTallyRace::real, THREADS, PER_THREAD, ROUNDS);
        System.out.println("[exception-tally] real: " + outcome);
        assertEquals(ROUNDS, outcome.rounds());
        assertEquals(0L, outcome.lost(), outcome::toString);
    }
}
