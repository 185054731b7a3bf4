package dev.slipstream.stress.sequence;

import dev.slipstream.sequence.Sequence;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Sequence#compareAndSet(long, long)} is atomic: of two threads that both expect the
 * same value, exactly one succeeds, and the sequence holds the winner's value.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SequenceCompareAndSetTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Two threads CAS a sequence from 0 to 1 and to 2: exactly one wins and its value stays.")
@Outcome(id = "true, false, 1", expect = ACCEPTABLE, desc = "The first thread won.")
@Outcome(id = "false, true, 2", expect = ACCEPTABLE, desc = "The second thread won.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither won, or the value does not match the winner.")
@State
public class SequenceCompareAndSetTest {
    private final Sequence sequence = new Sequence(0);

    /**
     * Tries 0 to 1.
     *
     * @param r r1: whether it won
     */
    @Actor
    public void toOne(final ZZJ_Result r) {
        r.r1 = sequence.compareAndSet(0, 1);
    }

    /**
     * Tries 0 to 2.
     *
     * @param r r2: whether it won
     */
    @Actor
    public void toTwo(final ZZJ_Result r) {
        r.r2 = sequence.compareAndSet(0, 2);
    }

    /**
     * Reads the final value.
     *
     * @param r r3: the value after both attempts
     */
    @Arbiter
    public void end(final ZZJ_Result r) {
        r.r3 = sequence.get();
    }
}
