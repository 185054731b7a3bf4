package dev.slipstream.stress.sequence;

import dev.slipstream.sequence.Sequence;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Sequence#setVolatile(long)} followed by {@link Sequence#getVolatile()} of another
 * sequence is sequentially consistent (Dekker): two threads that each store to their own
 * sequence and then read the other's cannot both miss the other's store. This is the StoreLoad
 * guarantee that {@code setVolatile} documents and {@code set} does not give.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SequenceVolatileStoreLoadTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Dekker with setVolatile/getVolatile on two sequences: at least one thread sees the other's store.")
@Outcome(id = {"-1, 1", "1, -1", "1, 1"}, expect = ACCEPTABLE,
        desc = "At least one thread saw the other's volatile store.")
@Outcome(id = "-1, -1", expect = FORBIDDEN,
        desc = "Both threads missed the other's store: a volatile store was reordered with a later volatile load.")
@State
public class SequenceVolatileStoreLoadTest {
    private final Sequence left = new Sequence();
    private final Sequence right = new Sequence();

    /**
     * Stores to the left sequence, then reads the right one.
     *
     * @param r r1: the right sequence seen
     */
    @Actor
    public void actor1(final JJ_Result r) {
        left.setVolatile(1);
        r.r1 = right.getVolatile();
    }

    /**
     * Stores to the right sequence, then reads the left one.
     *
     * @param r r2: the left sequence seen
     */
    @Actor
    public void actor2(final JJ_Result r) {
        right.setVolatile(1);
        r.r2 = left.getVolatile();
    }
}
