package dev.slipstream.bench.throughput;

import com.lmax.disruptor.BatchEventProcessor;
import com.lmax.disruptor.BatchEventProcessorBuilder;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import dev.slipstream.bench.support.ValueEvent;
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
        final List<EventHandler<ValueEvent>> stages = StageHandlers.lmax(shape, stageCounts, sinks);
        switch (shape) {
            case UNICAST, SEQUENCER -> gate(add(builder, root, stages.get(0)));
            case PIPELINE -> {
                final Sequence a = add(builder, root, stages.get(0));
                final Sequence b = add(builder, ring.newBarrier(a), stages.get(1));
                gate(add(builder, ring.newBarrier(b), stages.get(2)));
            }
            case MULTICAST -> {
                for (EventHandler<ValueEvent> stage : stages) {
                    gate(add(builder, root, stage));
                }
            }
            case DIAMOND -> {
                final Sequence a = add(builder, root, stages.get(0));
                final Sequence b = add(builder, root, stages.get(1));
                gate(add(builder, ring.newBarrier(a, b), stages.get(2)));
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
}
