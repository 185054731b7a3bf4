package dev.slipstream.stress.ring;

import dev.slipstream.ring.EventTranslatorOneArg;
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
 * Multi producer: a consumer whose barrier hands it a sequence, or that finds it published with
 * {@link RingBuffer#isPublished(long)}, sees every field a translator wrote into that slot
 * inside {@link RingBuffer#publishEvent(EventTranslatorOneArg, Object)}.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t MultiProducerPublicationTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("Multi-producer ring, publishEvent with a translator: a sequence handed out by the barrier has its event fully written.")
@Outcome(id = "-1, -1, -1", expect = ACCEPTABLE, desc = "The consumer looked before the publish: nothing handed out.")
@Outcome(id = "-1, -1, 1", expect = ACCEPTABLE,
        desc = "The barrier handed out nothing; isPublished, asked just after, saw the publish and the event.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The consumer was handed sequence 0 and saw the event fully written.")
@Outcome(expect = FORBIDDEN, desc = "A sequence was handed out or reported published before its event was fully visible.")
@State
public class MultiProducerPublicationTest {
    private static final EventTranslatorOneArg<StressEvent, Long> WRITE =
            (event, sequence, producer) -> event.write(sequence, producer);
    private static final Long PRODUCER = 1L;

    private final RingBuffer<StressEvent> ring =
            RingBuffer.createMultiProducer(StressEvent::new, 4, NoWaitStrategy.INSTANCE);
    private final SequenceBarrier barrier = ring.newBarrier();

    /** Publishes one event through a translator. */
    @Actor
    public void producer() {
        ring.publishEvent(WRITE, PRODUCER);
    }

    /**
     * Asks the barrier for sequence 0, then asks {@code isPublished(0)}; checks the event each time.
     *
     * @param r r1: what the barrier handed out; r2: 1 if the event was fully written then (-1 if
     *     nothing was handed out); r3: the same for isPublished
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
        r.r3 = ring.isPublished(0) ? written(0) : -1;
    }

    private long written(final long seq) {
        return ring.get(seq).isWrittenFor(seq) ? 1 : 0;
    }
}
