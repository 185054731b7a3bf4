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
 * {@link Sequence#incrementAndGet()} and {@link Sequence#addAndGet(long)} are atomic: two
 * concurrent increments claim distinct values and the sequence ends two higher. This is the
 * claim a multi-producer relies on.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SequenceIncrementAndGetTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Two threads increment a sequence at -1: they get 0 and 1 in some order, and it ends at 1.")
@Outcome(id = {"0, 1, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "Each thread claimed a distinct value.")
@Outcome(expect = FORBIDDEN, desc = "Both threads claimed the same value, or an increment was lost.")
@State
public class SequenceIncrementAndGetTest {
    private final Sequence sequence = new Sequence();

    /**
     * Increments with {@link Sequence#incrementAndGet()}.
     *
     * @param r r1: the value after the increment
     */
    @Actor
    public void increment(final JJJ_Result r) {
        r.r1 = sequence.incrementAndGet();
    }

    /**
     * Increments with {@link Sequence#addAndGet(long)}.
     *
     * @param r r2: the value after the increment
     */
    @Actor
    public void addOne(final JJJ_Result r) {
        r.r2 = sequence.addAndGet(1);
    }

    /**
     * Reads the final value.
     *
     * @param r r3: the value after both increments
     */
    @Arbiter
    public void end(final JJJ_Result r) {
        r.r3 = sequence.get();
    }
}
