package dev.slipstream.stress.ring;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;

/**
 * Two stages on one ring: an upstream stage writes a field of event 0 and then releases its
 * sequence; the downstream stage's barrier depends on it (and, for a diamond, on a second
 * upstream stage that has already finished). A downstream stage handed sequence 0 must see the
 * upstream stage's write, and must not be handed it before the upstream stage released it.
 *
 * <pre>{@code
 * UpstreamFixture f = new UpstreamFixture(false);
 * f.upstreamStage();                 // on one thread
 * long[] seen = f.downstreamStage(); // on the other
 * }</pre>
 */
public final class UpstreamFixture {
    /** What the upstream stage writes into event 0. */
    public static final long ENRICHED = 7;

    private final RingBuffer<StressEvent> ring =
            RingBuffer.createSingleProducer(StressEvent::new, 4, NoWaitStrategy.INSTANCE);
    private final Sequence upstream = new Sequence();
    private final SequenceBarrier downstreamBarrier;

    /**
     * Publishes event 0 and builds the downstream barrier.
     *
     * @param diamond true to make the downstream barrier depend on a second, finished upstream
     *     stage as well (a group of two sequences)
     */
    public UpstreamFixture(final boolean diamond) {
        final Sequence other = new Sequence();
        final long seq = ring.next();
        ring.get(seq).write(seq, 1);
        ring.publish(seq);
        other.set(seq);
        downstreamBarrier = diamond ? ring.newBarrier(upstream, other) : ring.newBarrier(upstream);
    }

    /** The upstream stage: enriches event 0 (published before the test started), releases it. */
    public void upstreamStage() {
        ring.get(0).check = ENRICHED;
        // release: the write above happens before a downstream stage that sees 0 reads the event
        upstream.set(0);
    }

    /**
     * The downstream stage: asks its barrier for sequence 0 and reads the enrichment.
     *
     * @return {what the barrier handed out, the enrichment seen (-1 if nothing handed out)}
     */
    public long[] downstreamStage() {
        final long available;
        try {
            available = downstreamBarrier.waitFor(0);
        } catch (AlertException | InterruptedException | TimeoutException e) {
            return new long[] {-100, -100};
        }
        return new long[] {available, available >= 0 ? ring.get(0).check : -1};
    }
}
