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
import org.openjdk.jmh.annotations.Threads;

/**
 * Order and cache remap of the Slipstream queues, on the shapes the targets are set for (pair
 * and 50/50 with two threads) and on polling an empty queue.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(2)
public class QueueSweep {
    @Param({"ScqQueue", "LscqQueue"})
    public String impl;

    @Param({"8", "12", "16"})
    public int order;

    @Param({"true", "false"})
    public boolean remap;

    Queue<Integer> queue;

    @Setup(Level.Trial)
    public void createQueue() {
        queue = Queues.create(impl, order, remap);
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
    public Integer dequeueOnlyEmpty() {
        return queue.poll();
    }
}
