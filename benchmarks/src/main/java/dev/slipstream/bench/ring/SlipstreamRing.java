package dev.slipstream.bench.ring;

import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.wait.SlipWaits;
import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;

import java.util.List;

/**
 * Slipstream's core classes (ring buffer, barriers, batch event processors) as a
 * {@link RingLibrary}: wired directly, without the DSL, the way {@link LmaxRing} wires the peer.
 *
 * <pre>{@code
 * RingBuffer<ValueEvent> ring = SlipstreamRing.INSTANCE.ring(false, 65536, "yielding");
 * }</pre>
 */
public final class SlipstreamRing extends RingLibrary<RingBuffer<ValueEvent>, SequenceBarrier, Sequence,
        EventHandler<ValueEvent>, BatchEventProcessor<ValueEvent>> {
    /** The adapter; it holds no state. */
    public static final SlipstreamRing INSTANCE = new SlipstreamRing();

    private SlipstreamRing() {
        super("slipstream");
    }

    @Override
    public RingBuffer<ValueEvent> ring(final boolean multiProducer, final int size, final String wait) {
        return SlipWaits.ring(multiProducer, size, SlipWaits.create(wait));
    }

    @Override
    public SequenceBarrier barrier(final RingBuffer<ValueEvent> ring, final List<Sequence> upstream) {
        return ring.newBarrier(upstream.toArray(new Sequence[0]));
    }

    @Override
    public BatchEventProcessor<ValueEvent> processor(final RingBuffer<ValueEvent> ring, final SequenceBarrier barrier,
                                                     final EventHandler<ValueEvent> handler) {
        return new BatchEventProcessor<>(ring, barrier, handler);
    }

    @Override
    public Sequence sequenceOf(final BatchEventProcessor<ValueEvent> processor) {
        return processor.getSequence();
    }

    @Override
    public void gate(final RingBuffer<ValueEvent> ring, final Sequence sequence) {
        ring.addGatingSequences(sequence);
    }

    @Override
    public void halt(final BatchEventProcessor<ValueEvent> processor) {
        processor.halt();
    }

    @Override
    public Sequence newSequence() {
        return new Sequence();
    }

    @Override
    public void set(final Sequence sequence, final long value) {
        sequence.set(value);
    }

    @Override
    public long waitFor(final SequenceBarrier barrier, final long sequence) throws Exception {
        return barrier.waitFor(sequence);
    }

    @Override
    public long next(final RingBuffer<ValueEvent> ring) {
        return ring.next();
    }

    @Override
    public ValueEvent get(final RingBuffer<ValueEvent> ring, final long sequence) {
        return ring.get(sequence);
    }

    @Override
    public void publish(final RingBuffer<ValueEvent> ring, final long sequence) {
        ring.publish(sequence);
    }

    @Override
    public void publishRange(final RingBuffer<ValueEvent> ring, final int producer, final long first, final int n) {
        final long end = first + n;
        for (long v = first; v < end; v++) {
            final long seq = ring.next();
            final ValueEvent e = ring.get(seq);
            e.value = v;
            e.producer = producer;
            ring.publish(seq);
        }
    }

    /** Closes the ring, so that producers waiting for space throw instead of waiting forever. */
    @Override
    public void abort(final RingBuffer<ValueEvent> ring, final Throwable cause) {
        ring.close("a producer failed: " + cause);
    }

    @Override
    public EventHandler<ValueEvent> passA() {
        return (event, sequence, endOfBatch) -> event.a = event.value + 1;
    }

    @Override
    public EventHandler<ValueEvent> passB() {
        return (event, sequence, endOfBatch) -> event.b = event.a + 1;
    }

    @Override
    public EventHandler<ValueEvent> record(final Recorder recorder) {
        return (event, sequence, endOfBatch) -> recorder.record(event.value, event.intendedNanos);
    }

    @Override
    public EventHandler<ValueEvent> echo(final RingBuffer<ValueEvent> out) {
        return (event, sequence, endOfBatch) -> {
            final long seq = out.next();
            out.get(seq).value = event.value;
            out.publish(seq);
        };
    }
}
