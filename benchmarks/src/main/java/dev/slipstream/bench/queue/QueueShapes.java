package dev.slipstream.bench.queue;

import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The queue shapes, every thread doing the same thing; subclasses fix the thread count.
 *
 * <ul>
 *   <li>{@code enqueueOnly}: offer. A bounded queue that is full is polled once to make room; a
 *       thread 16 384 offers ahead of its own polls polls that many back, inside the measured
 *       time (with two threads at most, the bounded queues of 65 536 never fill). The score is
 *       offers per microsecond with that drain amortised in.</li>
 *   <li>{@code dequeueOnlyEmpty}: poll on an empty queue.</li>
 *   <li>{@code pair}: offer, then poll.</li>
 *   <li>{@code mixed50}, {@code mixed30}, {@code mixed70}: offer with probability 50, 30 or 70
 *       per cent, else poll, from a per-thread table of random draws computed in setup.</li>
 * </ul>
 * Slipstream queues run at their default order (bounded: 2^16; unbounded: segments of 2^12, as
 * JCTools' xadd queue's chunks) with cache remap on, unless {@code order} and {@code remap} say
 * otherwise: the sweep of both is
 * {@code QueueShapesTwoThreads.(pair|mixed50|dequeueOnlyEmpty) -p impl=ScqQueue,LscqQueue -p order=8,12,16 -p remap=true,false}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class QueueShapes {
    @Param({"ScqQueue", "LscqQueue", "LprqQueue", "MpmcArrayQueue", "MpmcUnboundedXaddArrayQueue",
            "ConcurrentLinkedQueue", "LinkedBlockingQueue", "ArrayBlockingQueue"})
    public String impl;

    /** log2 of the capacity (bounded) or segment size (unbounded); 0: the queue's default. */
    @Param({"0"})
    public int order;

    @Param({"true"})
    public boolean remap;

    Queue<Integer> queue;

    @Setup(Level.Trial)
    public void createQueue() {
        queue = Queues.create(impl, order == 0 ? Queues.defaultOrder(impl) : order, remap);
    }

    @Benchmark
    public boolean enqueueOnly(final Worker w) {
        final Queue<Integer> q = queue;
        if (q.offer(w.element)) {
            w.offered(q);
            return true;
        }
        q.poll(); // full: make room (never happens at the comparison's sizes)
        return false;
    }

    @Benchmark
    public Integer dequeueOnlyEmpty() {
        return queue.poll();
    }

    @Benchmark
    public Integer pair(final Worker w) {
        final Queue<Integer> q = queue;
        q.offer(w.element);
        return q.poll();
    }

    @Benchmark
    public Object mixed50(final Worker w) {
        return w.mixed(queue, w.offer50);
    }

    @Benchmark
    public Object mixed30(final Worker w) {
        return w.mixed(queue, w.offer30);
    }

    @Benchmark
    public Object mixed70(final Worker w) {
        return w.mixed(queue, w.offer70);
    }
}
