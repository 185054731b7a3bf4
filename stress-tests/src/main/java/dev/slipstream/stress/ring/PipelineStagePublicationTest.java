package dev.slipstream.stress.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Stage-to-stage publication in a pipeline (the downstream barrier depends on one upstream stage): the downstream stage is handed sequence 0 only after the
 * upstream stage released it, and then sees what the upstream stage wrote into the event. See
 * {@link UpstreamFixture}.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t PipelineStagePublicationTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Stage-to-stage publication in a pipeline (the downstream barrier depends on one upstream stage).")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "The downstream stage looked before the upstream stage released 0.")
@Outcome(id = "0, 7", expect = ACCEPTABLE, desc = "The downstream stage was handed 0 and saw the upstream stage's write.")
@Outcome(expect = FORBIDDEN,
        desc = "The downstream stage was handed 0 before the upstream stage released it, or missed its write.")
@State
public class PipelineStagePublicationTest {
    private final UpstreamFixture fixture = new UpstreamFixture(false);

    /** The upstream stage. */
    @Actor
    public void upstream() {
        fixture.upstreamStage();
    }

    /**
     * The downstream stage.
     *
     * @param r r1: what its barrier handed out; r2: the upstream write seen
     */
    @Actor
    public void downstream(final JJ_Result r) {
        final long[] seen = fixture.downstreamStage();
        r.r1 = seen[0];
        r.r2 = seen[1];
    }
}
