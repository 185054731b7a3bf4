package dev.slipstream.stress.ring;

import dev.slipstream.ring.EventPoller;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.InsufficientCapacityException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An {@link EventPoller} as the gating consumer of a full single-producer ring of 2: one poll
 * reads both events and releases them; the producer's {@code tryNext(2)} succeeds only after
 * that release, and never overwrites an event the poll has not read yet.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t PollerGatingTest -m quick -sc false
 * }</pre>
 */
@JCStressTest
@Description("EventPoller gating a full ring: tryNext(2) succeeds only after the poll released both slots, never before it read them.")
@Outcome(id = "3, -1", expect = ACCEPTABLE, desc = "The producer was refused; the poll read both original events.")
@Outcome(id = "3, 3", expect = ACCEPTABLE, desc = "The producer claimed 2..3 after the poll had read both original events.")
@Outcome(expect = FORBIDDEN, desc = "The producer overwrote an event before the poll read it, or the poll missed an event.")
@State
public class PollerGatingTest {
    private final RingBuffer<StressEvent> ring =
            RingBuffer.createSingleProducer(StressEvent::new, 2, NoWaitStrategy.INSTANCE);
    private final EventPoller<StressEvent> poller = ring.newPoller();

    /** Gates the ring on the poller and fills it. */
    public PollerGatingTest() {
        ring.addGatingSequences(poller.getSequence());
        for (int i = 0; i < 2; i++) {
            final long seq = ring.next();
            ring.get(seq).write(seq, 1);
            ring.publish(seq);
        }
    }

    /**
     * Polls once.
     *
     * @param r r1: a bit per original event read fully written (3: both); -100 if poll threw
     */
    @Actor
    public void poller(final JJ_Result r) {
        final long[] seen = new long[1];
        try {
            poller.poll((event, sequence, endOfBatch) -> {
                if (event.isWrittenFor(sequence) && sequence < 2) {
                    seen[0] |= 1L << sequence;
                }
                return true;
            });
            r.r1 = seen[0];
        } catch (Exception e) {
            r.r1 = -100;
        }
    }

    /**
     * Tries to claim the whole ring again.
     *
     * @param r r2: the highest claimed sequence, or -1 if refused
     */
    @Actor
    public void producer(final JJ_Result r) {
        try {
            final long hi = ring.tryNext(2);
            ring.get(hi - 1).write(hi - 1, 2);
            ring.get(hi).write(hi, 2);
            ring.publish(hi - 1, hi);
            r.r2 = hi;
        } catch (InsufficientCapacityException full) {
            r.r2 = -1;
        }
    }
}
