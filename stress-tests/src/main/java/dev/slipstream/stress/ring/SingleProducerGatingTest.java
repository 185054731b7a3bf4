package dev.slipstream.stress.ring;

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
 * Gating on a single-producer ring: the producer never overwrites a slot the slowest gating
 * consumer has not read. See {@link GatingFixture}.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SingleProducerGatingTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Full single-producer ring of 2, a slow consumer reads slot 0 then releases it, the producer tryNext()s: no overwrite before the read.")
@Outcome(id = "0, -1, 1", expect = ACCEPTABLE,
        desc = "The producer tried before the release and was refused; the consumer read the original event.")
@Outcome(id = "0, 2, 0", expect = ACCEPTABLE,
        desc = "The producer claimed sequence 2 after the release; the consumer had read the original event.")
@Outcome(expect = FORBIDDEN,
        desc = "The producer claimed a slot the slow consumer had not released, or overwrote it before the read.")
@State
public class SingleProducerGatingTest {
    private final GatingFixture fixture = new GatingFixture(false);

    /**
     * The slow consumer.
     *
     * @param r r1: 0 if it read the original event
     */
    @Actor
    public void slowConsumer(final JJJ_Result r) {
        r.r1 = fixture.slowConsumerReadsThenReleases();
    }

    /**
     * The producer.
     *
     * @param r r2: the sequence it claimed, or -1 if refused
     */
    @Actor
    public void producer(final JJJ_Result r) {
        r.r2 = fixture.producerTriesToClaim();
    }

    /**
     * After both.
     *
     * @param r r3: the remaining capacity
     */
    @Arbiter
    public void end(final JJJ_Result r) {
        r.r3 = fixture.remainingCapacity();
    }
}
