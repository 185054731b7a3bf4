package dev.slipstream.stress.processor;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@code halt()} racing with {@code run()} from its very start: a halt that comes before
 * run(), during the first batch or while the processor waits is never lost. (The termination
 * tests signal only once the processor has been running for a millisecond; this one covers the
 * start.) See {@link HaltRaceFixture}.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t ProcessorHaltRaceTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("BatchEventProcessor.halt() racing with the start of run(): never lost.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Halted before the first batch.")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "Halted after the first batch (both published events).")
@Outcome(expect = FORBIDDEN, desc = "The processor kept running after halt() returned, or split its first batch.")
@State
public class ProcessorHaltRaceTest {
    private final HaltRaceFixture fixture = new HaltRaceFixture();

    /**
     * Runs the processor.
     *
     * @param r r1: 1 if the halt was ignored; r2: events processed
     */
    @Actor
    public void run(final JJ_Result r) {
        final long[] seen = fixture.run();
        r.r1 = seen[0];
        r.r2 = seen[1];
    }

    /** Halts it. */
    @Actor
    public void halt() {
        fixture.halt();
    }
}
