package dev.slipstream.stress.sequence;

import dev.slipstream.sequence.Sequence;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Sequence#getAndAdd(long)} is atomic: two concurrent additions of different amounts
 * each see the other's addition or none of it, and neither is lost.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SequenceGetAndAddTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Two threads getAndAdd 1 and 2 to a sequence at 0: the additions are serialised and none is lost.")
@Outcome(id = "0, 1, 3", expect = ACCEPTABLE, desc = "The +1 came first, the +2 saw it.")
@Outcome(id = "2, 0, 3", expect = ACCEPTABLE, desc = "The +2 came first, the +1 saw it.")
@Outcome(expect = FORBIDDEN, desc = "An addition was lost or both saw the same previous value.")
@State
public class SequenceGetAndAddTest {
    private final Sequence sequence = new Sequence(0);

    /**
     * Adds one.
     *
     * @param r r1: the value before the addition
     */
    @Actor
    public void addOne(final JJJ_Result r) {
        r.r1 = sequence.getAndAdd(1);
    }

    /**
     * Adds two.
     *
     * @param r r2: the value before the addition
     */
    @Actor
    public void addTwo(final JJJ_Result r) {
        r.r2 = sequence.getAndAdd(2);
    }

    /**
     * Reads the final value.
     *
     * @param r r3: the value after both additions
     */
    @Arbiter
    public void end(final JJJ_Result r) {
        r.r3 = sequence.get();
    }
}
