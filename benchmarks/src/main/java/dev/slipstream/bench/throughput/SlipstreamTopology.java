package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.wait.SlipWaits;
import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;

import java.util.ArrayList;
import java.util.List;

/**
 * Slipstream: the five topologies wired directly on the core classes (ring buffer, barriers,
 * batch event processors), exactly as {@link LmaxTopology} wires the LMAX peer, so that the
 * two differ only in the library underneath.
 *
 * <pre>{@code
 * Topology t = new SlipstreamTopology(Shape.DIAMOND, "yielding", 65536);
 * }</pre>
 */
public final class SlipstreamTopology extends AbstractTopology {
    private final RingBuffer<ValueEvent> ring;
    private final List<BatchEventProcessor<ValueEvent>> processors = new ArrayList<>();
    private final List<Thread> threads = newThreadList();

    /**
     * Wires the topology; no thread runs until {@link #start()}.
     *
     * @param shape the topology
     * @param wait the wait strategy name (see {@link SlipWaits})
     * @param ringSize the ring size, a power of two
     */
    public SlipstreamTopology(final Shape shape, final String wait, final int ringSize) {
        super(shape, "slipstream");
        ring = SlipWaits.ring(shape.producers() > 1, ringSize, SlipWaits.create(wait));
        final SequenceBarrier root = ring.newBarrier();
        final List<EventHandler<ValueEvent>> stages = StageHandlers.slipstream(shape, stageCounts, sinks);
        switch (shape) {
            case UNICAST, SEQUENCER -> gate(add(root, stages.get(0)));
            case PIPELINE -> {
                final Sequence a = add(root, stages.get(0));
                final Sequence b = add(ring.newBarrier(a), stages.get(1));
                gate(add(ring.newBarrier(b), stages.get(2)));
            }
            case MULTICAST -> {
                for (EventHandler<ValueEvent> stage : stages) {
                    gate(add(root, stage));
                }
            }
            case DIAMOND -> {
                final Sequence a = add(root, stages.get(0));
                final Sequence b = add(root, stages.get(1));
                gate(add(ring.newBarrier(a, b), stages.get(2)));
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
    }

    private Sequence add(final SequenceBarrier barrier, final EventHandler<ValueEvent> handler) {
        final BatchEventProcessor<ValueEvent> p = new BatchEventProcessor<>(ring, barrier, handler);
        processors.add(p);
        return p.getSequence();
    }

    private void gate(final Sequence s) {
        ring.addGatingSequences(s);
    }

    @Override
    protected void publishRange(final int producer, final long first, final int n) {
        publishOn(ring, producer, first, n);
    }

    @Override
    protected void abort(final Throwable cause) {
        closeOnFailure(ring, cause);
    }

    /**
     * The producer loop of every Slipstream side: claims, fills and publishes one event at a time
     * ({@code next / get / publish}), exactly as the LMAX side does.
     */
    static void publishOn(final RingBuffer<ValueEvent> rb, final int producer, final long first, final int n) {
        final long end = first + n;
        for (long v = first; v < end; v++) {
            final long seq = rb.next();
            final ValueEvent e = rb.get(seq);
            e.value = v;
            e.producer = producer;
            rb.publish(seq);
        }
    }

    /** Closes the ring so that producers waiting for space throw instead of waiting forever. */
    static void closeOnFailure(final RingBuffer<ValueEvent> rb, final Throwable cause) {
        rb.close("a producer failed: " + cause);
    }

    @Override
    protected void startStages() {
        int i = 0;
        for (BatchEventProcessor<ValueEvent> p : processors) {
            startThread(threads, p, "slipstream-" + shape.id() + "-" + i++);
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
