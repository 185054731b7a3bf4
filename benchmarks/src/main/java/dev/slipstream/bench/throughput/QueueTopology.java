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
        final QueueWait m = mode;
        switch (shape) {
            case UNICAST, SEQUENCER -> {
                final BlockingQueue<ValueEvent> q = queue(capacity);
                final Sink sink = sinks[0];
                heads = new BlockingQueue[] {q};
                if (shape == Shape.SEQUENCER) {
                    stages.add(loop(() -> {
                        final ValueEvent e = m.take(q);
                        sink.addOrdered(e.producer, e.value);
                    }));
                } else {
                    stages.add(loop(() -> sink.add(m.take(q).value)));
                }
            }
            case MULTICAST -> {
                heads = new BlockingQueue[3];
                for (int i = 0; i < 3; i++) {
                    final BlockingQueue<ValueEvent> q = queue(capacity);
                    final Sink sink = sinks[i];
                    heads[i] = q;
                    stages.add(loop(() -> sink.add(m.take(q).value)));
                }
            }
            case PIPELINE -> {
                final BlockingQueue<ValueEvent> q1 = queue(capacity);
                final BlockingQueue<ValueEvent> q2 = queue(capacity);
                final BlockingQueue<ValueEvent> q3 = queue(capacity);
                final Sink sink = sinks[0];
                heads = new BlockingQueue[] {q1};
                stages.add(loop(() -> {
                    final ValueEvent e = m.take(q1);
                    e.a = Work.pipelineA(e.value);
                    m.put(q2, e);
                }));
                stages.add(loop(() -> {
                    final ValueEvent e = m.take(q2);
                    e.b = Work.pipelineB(e.a);
                    m.put(q3, e);
                }));
                stages.add(loop(() -> sink.add(m.take(q3).b)));
            }
            case DIAMOND -> {
                final BlockingQueue<ValueEvent> qa = queue(capacity);
                final BlockingQueue<ValueEvent> qb = queue(capacity);
                final BlockingQueue<ValueEvent> qac = queue(capacity);
                final BlockingQueue<ValueEvent> qbc = queue(capacity);
                final Sink sink = sinks[0];
                heads = new BlockingQueue[] {qa, qb};
                stages.add(loop(() -> {
                    final ValueEvent e = m.take(qa);
                    e.a = Work.diamondA(e.value);
                    m.put(qac, e);
                }));
                stages.add(loop(() -> {
                    final ValueEvent e = m.take(qb);
                    e.b = Work.diamondB(e.value);
                    m.put(qbc, e);
                }));
                // one event from each branch, which FIFO order makes the same event; if not, the sum comes out wrong
                stages.add(loop(() -> {
                    final ValueEvent a = m.take(qac);
                    final ValueEvent b = m.take(qbc);
                    sink.add(a.a + (a == b ? b.b : Long.MIN_VALUE));
                }));
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
    }

    /** One event through a stage. */
    @FunctionalInterface
    private interface Step {
        void step() throws InterruptedException;
    }

    /** A stage loop: steps until interrupted. */
    private static Runnable loop(final Step step) {
        return () -> {
            try {
                while (true) {
                    step.step();
                }
            } catch (InterruptedException e) {
                // stop requested
            }
        };
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
}
