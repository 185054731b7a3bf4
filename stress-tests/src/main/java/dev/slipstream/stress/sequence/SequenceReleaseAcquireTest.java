package dev.slipstream.stress.sequence;

import dev.slipstream.sequence.Sequence;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Sequence#set(long)} (release) publishes the plain writes made before it to a thread
 * whose {@link Sequence#get()} (acquire) sees the stored value.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SequenceReleaseAcquireTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("A plain write made before Sequence.set is visible to a reader whose Sequence.get sees the new value.")
@Outcome(id = "-1, -?[0-9]+, -?[0-9]+", expect = ACCEPTABLE,
        desc = "The reader ran before the release store; the plain fields may hold anything the writer stored.")
@Outcome(id = "7, 42, 43", expect = ACCEPTABLE,
        desc = "The reader saw the release store and both plain writes made before it.")
@Outcome(expect = FORBIDDEN,
        desc = "The reader saw the sequence value but not every plain write made before the release store.")
@State
public class SequenceReleaseAcquireTest {
    private final Sequence sequence = new Sequence();
    private long first;
    private long second;

    /** Writes two plain fields, then publishes them with a release store. */
    @Actor
    public void writer() {
        first = 42;
        second = 43;
        sequence.set(7);
    }

    /**
     * Reads the sequence (acquire), then the two plain fields.
     *
     * @param r the sequence seen and the two fields
     */
    @Actor
    public void reader(final JJJ_Result r) {
        r.r1 = sequence.get();
        r.r2 = first;
        r.r3 = second;
    }
}
