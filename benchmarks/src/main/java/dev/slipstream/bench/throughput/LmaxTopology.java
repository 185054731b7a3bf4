package dev.slipstream.bench.throughput;

import com.lmax.disruptor.BatchEventProcessor;
import com.lmax.disruptor.BatchEventProcessorBuilder;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import dev.slipstream.bench.support.Sink;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.support.Work;
import dev.slipstream.bench.wait.LmaxWaits;

import java.util.ArrayList;
import java.util.List;

/**
 * The peer: the five topologies wired on LMAX Disruptor 4.0.0's ring buffer, barriers and batch
 * event processors, the way its own performance tests wire them (no DSL).
 *
 * <pre>{@code
 * Topology t = new LmaxTopology(Shape.DIAMOND, "yielding", 65536);
 * }</pre>
 */
public final class LmaxTopology extends AbstractTopology {
    private final RingBuffer<ValueEvent> ring;
    private final List<BatchEventProcessor<ValueEvent>> processors = new ArrayList<>();
    private final List<Thread> threads = newThreadList();

    /**
     * Wires the topology; no thread runs until {@link #start()}.
     *
     * @param shape the topology
     * @param wait the wait strategy name (see {@link LmaxWaits})
     * @param ringSize the ring size, a power of two
     */
    public LmaxTopology(final Shape shape, final String wait, final int ringSize) {
        super(shape, "lmax");
        ring = shape.producers() > 1
                ? RingBuffer.createMultiProducer(ValueEvent::new, ringSize, LmaxWaits.create(wait))
                : RingBuffer.createSingleProducer(ValueEvent::new, ringSize, LmaxWaits.create(wait));
        final BatchEventProcessorBuilder builder = new BatchEventProcessorBuilder();
        final SequenceBarrier root = ring.newBarrier();
        switch (shape) {
            case UNICAST -> gate(add(builder, root, new SinkHandler(sinks[0])));
            case SEQUENCER -> gate(add(builder, root, new OrderedSinkHandler(sinks[0])));
            case PIPELINE -> {
                final Sequence a = add(builder, root, new PipelineA());
                final Sequence b = add(builder, ring.newBarrier(a), new PipelineB());
                gate(add(builder, ring.newBarrier(b), new PipelineC(sinks[0])));
            }
            case MULTICAST -> {
                for (Sink s : sinks) {
                    gate(add(builder, root, new SinkHandler(s)));
                }
            }
            case DIAMOND -> {
                final Sequence a = add(builder, root, new DiamondA());
                final Sequence b = add(builder, root, new DiamondB());
                gate(add(builder, ring.newBarrier(a, b), new DiamondC(sinks[0])));
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
    }

    private Sequence add(final BatchEventProcessorBuilder builder, final SequenceBarrier barrier,
                         final EventHandler<ValueEvent> handler) {
        final BatchEventProcessor<ValueEvent> p = builder.build(ring, barrier, handler);
        processors.add(p);
        return p.getSequence();
    }

    private void gate(final Sequence s) {
        ring.addGatingSequences(s);
    }

    @Override
    protected void publishRange(final int producer, final long first, final int n) {
        final RingBuffer<ValueEvent> rb = ring;
        final long end = first + n;
        for (long v = first; v < end; v++) {
            final long seq = rb.next();
            final ValueEvent e = rb.get(seq);
            e.value = v;
            e.producer = producer;
            rb.publish(seq);
        }
    }

    @Override
    protected void startStages() {
        int i = 0;
        for (BatchEventProcessor<ValueEvent> p : processors) {
            startThread(threads, p, "lmax-" + shape.id() + "-" + i++);
        }
    }

    @Override
    protected void stopStages() {
        for (BatchEventProcessor<ValueEvent> p : processors) {
            p.halt();
        }
        joinAll(threads);
    }

    /** Last stage of unicast and multicast. */
    static final class SinkHandler implements EventHandler<ValueEvent> {
        private final Sink sink;

        SinkHandler(final Sink sink) {
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            sink.add(event.value);
            sink.endOfBatch(endOfBatch);
        }
    }

    /** Last stage of the sequencer: also checks each producer's order. */
    static final class OrderedSinkHandler implements EventHandler<ValueEvent> {
        private final Sink sink;

        OrderedSinkHandler(final Sink sink) {
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            sink.addOrdered(event.producer, event.value);
            sink.endOfBatch(endOfBatch);
        }
    }

    /** Pipeline stage A. */
    static final class PipelineA implements EventHandler<ValueEvent> {
        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.a = Work.pipelineA(event.value);
        }
    }

    /** Pipeline stage B. */
    static final class PipelineB implements EventHandler<ValueEvent> {
        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.b = Work.pipelineB(event.a);
        }
    }

    /** Pipeline stage C. */
    static final class PipelineC implements EventHandler<ValueEvent> {
        private final Sink sink;

        PipelineC(final Sink sink) {
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            sink.add(event.b);
            sink.endOfBatch(endOfBatch);
        }
    }

    /** Diamond stage A. */
    static final class DiamondA implements EventHandler<ValueEvent> {
        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.a = Work.diamondA(event.value);
        }
    }

    /** Diamond stage B. */
    static final class DiamondB implements EventHandler<ValueEvent> {
        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.b = Work.diamondB(event.value);
        }
    }

    /** Diamond join stage C. */
    static final class DiamondC implements EventHandler<ValueEvent> {
        private final Sink sink;

        DiamondC(final Sink sink) {
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            sink.add(event.a + event.b);
            sink.endOfBatch(endOfBatch);
        }
    }
}
