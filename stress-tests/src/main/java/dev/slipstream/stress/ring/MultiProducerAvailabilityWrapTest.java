package dev.slipstream.stress.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Multi-producer availability on the second lap, where every slot holds the availability flag and the event of the lap before: the barrier never hands
 * out a sequence whose slot, or any earlier slot, is claimed but not yet published. See
 * {@link TwoProducerFixture} for the scenario; results are relative to the first claim.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t MultiProducerAvailabilityWrapTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Two producers (1 slot, and 2 slots published as a range) on the second lap, where every slot holds the availability flag and the event of the lap before: the barrier hands out only a fully written, contiguous published prefix.")
@Outcome(id = {"0, 0, 0, 2", "0, 1, 0, 2", "0, 2, 0, 2"}, expect = ACCEPTABLE,
        desc = "Producer 1 claimed first; the barrier handed out its slot plus however much of producer 2's range was published.")
@Outcome(id = {"2, -1, 0, 2", "2, 0, 0, 2", "2, 2, 0, 2"}, expect = ACCEPTABLE,
        desc = "Producer 2 claimed first; the barrier stopped at the first slot of its range not yet published.")
@Outcome(expect = FORBIDDEN,
        desc = "The barrier handed out a claimed but unpublished (or unwritten) slot, skipped a gap, or lost a publish.")
@State
public class MultiProducerAvailabilityWrapTest {
    private final TwoProducerFixture fixture = new TwoProducerFixture(4);

    /**
     * Producer 1, then a consumer's view through the barrier.
     *
     * @param r r1: its claim; r2: what the barrier handed out; r3: handed-out slots not fully written
     */
    @Actor
    public void producerOneThenConsumer(final JJJJ_Result r) {
        final long[] seen = fixture.producerOne();
        r.r1 = seen[0];
        r.r2 = seen[1];
        r.r3 = seen[2];
    }

    /** Producer 2: a range of two slots. */
    @Actor
    public void producerTwo() {
        fixture.producerTwo();
    }

    /**
     * After both: everything is published.
     *
     * @param r r4: the highest published sequence
     */
    @Arbiter
    public void end(final JJJJ_Result r) {
        r.r4 = fixture.highestPublished();
    }
}
