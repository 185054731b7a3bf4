package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.Sink;
import dev.slipstream.bench.support.Threads;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.support.Work;
import dev.slipstream.bench.wait.QueueWait;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The baseline peer: the five topologies built from {@link ArrayBlockingQueue}s, one queue
 * between each pair of connected threads, each of the ring's capacity.
 *
 * <p>Events come from a preallocated pool per producer, reused round-robin, so that the queue
 * moves the same objects a ring would and the comparison is not about garbage collection. The
 * pool is large enough that no event is reused while still in flight: each queue on the path
 * to the last stage holds at most its capacity, each thread on it one more.
 *
 * <pre>{@code
 * Topology t = new QueueTopology(Shape.PIPELINE, "blocking", 65536);
 * }</pre>
 */
public final class QueueTopology extends AbstractTopology {
    private final QueueWait mode;
    private final List<Runnable> stages = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ValueEvent[][] pools;
    private final int poolMask;
    private final BlockingQueue<ValueEvent>[] heads;

    /** Wires the queues and stages; no thread runs until {@link #start()}. */
    @SuppressWarnings("unchecked")
    public QueueTopology(final Shape shape, final String wait, final int capacity) {
        super(shape, "abq");
        mode = QueueWait.of(wait);
        final int queuesOnLongestPath = switch (shape) {
            case PIPELINE -> 3;
            case DIAMOND -> 2;
            default -> 1;
        };
        final int poolSize = Integer.highestOneBit(queuesOnLongestPath * (capacity + 2) + 8) << 1;
        poolMask = poolSize - 1;
        pools = new ValueEvent[shape.producers()][poolSize];
        for (ValueEvent[] pool : pools) {
            for (int i = 0; i < poolSize; i++) {
                pool[i] = new ValueEvent();
            }
        }
        switch (shape) {
            case UNICAST -> {
                final BlockingQueue<ValueEvent> q = queue(capacity);
                heads = new BlockingQueue[] {q};
                stages.add(new SinkStage(mode, q, sinks[0], false));
            }
            case SEQUENCER -> {
                final BlockingQueue<ValueEvent> q = queue(capacity);
                heads = new BlockingQueue[] {q};
                stages.add(new SinkStage(mode, q, sinks[0], true));
            }
            case MULTICAST -> {
                heads = new BlockingQueue[3];
                for (int i = 0; i < 3; i++) {
                    heads[i] = queue(capacity);
                    stages.add(new SinkStage(mode, heads[i], sinks[i], false));
                }
            }
            case PIPELINE -> {
                final BlockingQueue<ValueEvent> q1 = queue(capacity);
                final BlockingQueue<ValueEvent> q2 = queue(capacity);
                final BlockingQueue<ValueEvent> q3 = queue(capacity);
                heads = new BlockingQueue[] {q1};
                stages.add(new PipelineStage(mode, q1, q2, true));
                stages.add(new PipelineStage(mode, q2, q3, false));
                stages.add(new PipelineSink(mode, q3, sinks[0]));
            }
            case DIAMOND -> {
                final BlockingQueue<ValueEvent> qa = queue(capacity);
                final BlockingQueue<ValueEvent> qb = queue(capacity);
                final BlockingQueue<ValueEvent> qac = queue(capacity);
                final BlockingQueue<ValueEvent> qbc = queue(capacity);
                heads = new BlockingQueue[] {qa, qb};
                stages.add(new DiamondStage(mode, qa, qac, true));
                stages.add(new DiamondStage(mode, qb, qbc, false));
                stages.add(new DiamondJoin(mode, qac, qbc, sinks[0]));
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
    }

    private static BlockingQueue<ValueEvent> queue(final int capacity) {
        return new ArrayBlockingQueue<>(capacity);
    }

    @Override
    protected void publishRange(final int producer, final long first, final int n) {
        final ValueEvent[] pool = pools[producer];
        final BlockingQueue<ValueEvent>[] qs = heads;
        final long end = first + n;
        try {
            for (long v = first; v < end; v++) {
                final ValueEvent e = pool[(int) v & poolMask];
                e.value = v;
                e.producer = producer;
                for (BlockingQueue<ValueEvent> q : qs) {
                    mode.put(q, e);
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", ex);
        }
    }

    @Override
    protected void startStages() {
        int i = 0;
        for (Runnable r : stages) {
            Threads.startDaemon(threads, r, "abq-" + shape.id() + "-" + i++);
        }
    }

    @Override
    protected void stopStages() {
        for (Thread t : threads) {
            t.interrupt();
        }
        Threads.joinAll(threads.toArray(new Thread[0]));
    }

    /** A stage loop: takes until interrupted. */
    abstract static class Stage implements Runnable {
        final QueueWait mode;

        Stage(final QueueWait mode) {
            this.mode = mode;
        }

        abstract void step() throws InterruptedException;

        @Override
        public final void run() {
            try {
                while (true) {
                    step();
                }
            } catch (InterruptedException e) {
                // stop requested
            }
        }
    }

    /** Last stage of unicast, multicast and sequencer. */
    static final class SinkStage extends Stage {
        private final BlockingQueue<ValueEvent> in;
        private final Sink sink;
        private final boolean ordered;

        SinkStage(final QueueWait mode, final BlockingQueue<ValueEvent> in, final Sink sink, final boolean ordered) {
            super(mode);
            this.in = in;
            this.sink = sink;
            this.ordered = ordered;
        }

        @Override
        void step() throws InterruptedException {
            final ValueEvent e = mode.take(in);
            if (ordered) {
                sink.addOrdered(e.producer, e.value);
            } else {
                sink.add(e.value);
            }
        }
    }

    /** Pipeline stage A or B. */
    static final class PipelineStage extends Stage {
        private final BlockingQueue<ValueEvent> in;
        private final BlockingQueue<ValueEvent> out;
        private final boolean first;

        PipelineStage(final QueueWait mode, final BlockingQueue<ValueEvent> in, final BlockingQueue<ValueEvent> out,
                      final boolean first) {
            super(mode);
            this.in = in;
            this.out = out;
            this.first = first;
        }

        @Override
        void step() throws InterruptedException {
            final ValueEvent e = mode.take(in);
            if (first) {
                e.a = Work.pipelineA(e.value);
            } else {
                e.b = Work.pipelineB(e.a);
            }
            mode.put(out, e);
        }
    }

    /** Pipeline stage C. */
    static final class PipelineSink extends Stage {
        private final BlockingQueue<ValueEvent> in;
        private final Sink sink;

        PipelineSink(final QueueWait mode, final BlockingQueue<ValueEvent> in, final Sink sink) {
            super(mode);
            this.in = in;
            this.sink = sink;
        }

        @Override
        void step() throws InterruptedException {
            sink.add(mode.take(in).b);
        }
    }

    /** Diamond stage A or B. */
    static final class DiamondStage extends Stage {
        private final BlockingQueue<ValueEvent> in;
        private final BlockingQueue<ValueEvent> out;
        private final boolean isA;

        DiamondStage(final QueueWait mode, final BlockingQueue<ValueEvent> in, final BlockingQueue<ValueEvent> out,
                     final boolean isA) {
            super(mode);
            this.in = in;
            this.out = out;
            this.isA = isA;
        }

        @Override
        void step() throws InterruptedException {
            final ValueEvent e = mode.take(in);
            if (isA) {
                e.a = Work.diamondA(e.value);
            } else {
                e.b = Work.diamondB(e.value);
            }
            mode.put(out, e);
        }
    }

    /** Diamond join: one event from each branch, which FIFO order makes the same event. */
    static final class DiamondJoin extends Stage {
        private final BlockingQueue<ValueEvent> fromA;
        private final BlockingQueue<ValueEvent> fromB;
        private final Sink sink;

        DiamondJoin(final QueueWait mode, final BlockingQueue<ValueEvent> fromA, final BlockingQueue<ValueEvent> fromB,
                    final Sink sink) {
            super(mode);
            this.fromA = fromA;
            this.fromB = fromB;
            this.sink = sink;
        }

        @Override
        void step() throws InterruptedException {
            final ValueEvent a = mode.take(fromA);
            final ValueEvent b = mode.take(fromB);
            // the same event from both branches; if not, the sum comes out wrong
            sink.add(a.a + (a == b ? b.b : Long.MIN_VALUE));
        }
    }
}
