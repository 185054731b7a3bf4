package dev.slipstream.stress.ring;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.SequenceBarrier;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link SequenceBarrier#getCursor()} is documented as "the highest sequence readable through
 * this barrier without waiting". On a multi-producer ring a consumer that trusts it must find
 * every slot up to it published and fully written.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t MultiProducerBarrierCursorTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Multi-producer ring: the barrier's getCursor() only reports sequences that are published and fully written.")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "The consumer looked before the claim.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The barrier reported sequence 0 and its event was fully written.")
@Outcome(expect = FORBIDDEN,
        desc = "The barrier reported a sequence as readable while it was claimed but not yet written and published.")
@State
public class MultiProducerBarrierCursorTest {
    private final RingBuffer<StressEvent> ring =
            RingBuffer.createMultiProducer(StressEvent::new, 4, NoWaitStrategy.INSTANCE);
    private final SequenceBarrier barrier = ring.newBarrier();

    /** Claims, writes and publishes sequence 0. */
    @Actor
    public void producer() {
        final long seq = ring.next();
        ring.get(seq).write(seq, 1);
        ring.publish(seq);
    }

    /**
     * Reads the barrier's cursor and checks the event it reports.
     *
     * @param r r1: the barrier's cursor; r2: 1 if event 0 was fully written (-1 if not reported)
     */
    @Actor
    public void consumer(final JJ_Result r) {
        final long readable = barrier.getCursor();
        r.r1 = readable;
        r.r2 = readable >= 0 ? (ring.get(0).isWrittenFor(0) ? 1 : 0) : -1;
    }
}
