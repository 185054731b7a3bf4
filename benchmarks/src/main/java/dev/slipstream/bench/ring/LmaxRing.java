package dev.slipstream.bench.ring;

import com.lmax.disruptor.BatchEventProcessor;
import com.lmax.disruptor.BatchEventProcessorBuilder;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import dev.slipstream.bench.support.EventPlacement;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.wait.LmaxWaits;

import java.util.List;

/**
 * The peer, LMAX Disruptor 4.0.0 (ring buffer, barriers, batch event processors), as a
 * {@link RingLibrary}: wired the way its own performance tests wire it (no DSL).
 *
 * <pre>{@code
 * RingBuffer<ValueEvent> ring = LmaxRing.INSTANCE.ring(false, 65536, "yielding");
 * }</pre>
 */
public final class LmaxRing extends RingLibrary<RingBuffer<ValueEvent>, SequenceBarrier, Sequence,
        EventHandler<ValueEvent>, BatchEventProcessor<ValueEvent>> {
    /** The adapter; it holds no state. */
    public static final LmaxRing INSTANCE = new LmaxRing();
    /** Holds only the default batch size limit: shared by every processor it builds. */
    private static final BatchEventProcessorBuilder BUILDER = new BatchEventProcessorBuilder();

    private LmaxRing() {
        super("lmax");
    }

    @Override
    public RingBuffer<ValueEvent> ring(final boolean multiProducer, final int size, final String wait) {
        return multiProducer ? RingBuffer.createMultiProducer(EventPlacement::newEvent, size, LmaxWaits.create(wait))
                : RingBuffer.createSingleProducer(EventPlacement::newEvent, size, LmaxWaits.create(wait));
    }

    @Override
    public SequenceBarrier barrier(final RingBuffer<ValueEvent> ring, final List<Sequence> upstream) {
        return ring.newBarrier(upstream.toArray(new Sequence[0]));
    }

    @Override
    public BatchEventProcessor<ValueEvent> processor(final RingBuffer<ValueEvent> ring, final SequenceBarrier barrier,
                                                     final EventHandler<ValueEvent> handler) {
        return BUILDER.build(ring, barrier, handler);
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

    /** Does nothing: the peer's ring cannot be closed, and its producers cannot fail this way. */
    @Override
    public void abort(final RingBuffer<ValueEvent> ring, final Throwable cause) {
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
