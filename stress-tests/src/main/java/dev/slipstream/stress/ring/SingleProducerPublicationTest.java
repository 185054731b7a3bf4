package dev.slipstream.stress.ring;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Single producer: a consumer whose barrier hands it a sequence sees every field the producer
 * wrote into that slot before {@link RingBuffer#publish(long)}, including the fields of an
 * object the producer created and linked from the event.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t SingleProducerPublicationTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Single-producer ring: a sequence handed out by the barrier (or seen on the cursor) has its event fully written.")
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "The consumer looked before the publish: nothing handed out.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The consumer was handed sequence 0 and saw the event fully written.")
@Outcome(id = "-1, -1, 1", expect = ACCEPTABLE,
        desc = "The barrier handed out nothing, the cursor read just after saw the publish and a fully written event.")
@Outcome(expect = FORBIDDEN, desc = "A sequence was handed out (or seen on the cursor) before its event was fully visible.")
@State
public class SingleProducerPublicationTest {
    private final RingBuffer<StressEvent> ring =
            RingBuffer.createSingleProducer(StressEvent::new, 4, NoWaitStrategy.INSTANCE);
    private final SequenceBarrier barrier = ring.newBarrier();

    /** Claims sequence 0, writes its event, publishes it. */
    @Actor
    public void producer() {
        final long seq = ring.next();
        ring.get(seq).write(seq, 1);
        ring.publish(seq);
    }

    /**
     * Asks the barrier for sequence 0, then reads the cursor; checks the event for each.
     *
     * @param r r1: what the barrier handed out; r2: 1 if the event was fully written then (-1 if
     *     nothing was handed out); r3: the same for the cursor read afterwards
     */
    @Actor
    public void consumer(final JJJ_Result r) {
        try {
            final long available = barrier.waitFor(0);
            r.r1 = available;
            r.r2 = available >= 0 ? written(0) : -1;
        } catch (AlertException | InterruptedException | TimeoutException e) {
            r.r1 = -100;
        }
        r.r3 = ring.getCursor() >= 0 ? written(0) : -1;
    }

    private long written(final long seq) {
        return ring.get(seq).isWrittenFor(seq) ? 1 : 0;
    }
}
