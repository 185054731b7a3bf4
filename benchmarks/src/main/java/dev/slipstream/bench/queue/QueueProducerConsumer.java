package dev.slipstream.bench.queue;

import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A fixed producer thread and a fixed consumer thread (two cores: one each). The score to read
 * is the consumer's {@code polled} counter: elements moved per microsecond. Invocations that
 * found the queue empty (consumer) or full (producer) are counted apart, not as throughput. The
 * producer of an unbounded queue pauses (counted as {@code full}) while it is more than 65 536
 * elements ahead of the consumer, so no queue grows without bound.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QueueProducerConsumer {
    private static final long MAX_AHEAD = 1 << 16;

    @Param({"ScqQueue", "LscqQueue", "MpmcArrayQueue", "MpmcUnboundedXaddArrayQueue",
            "ConcurrentLinkedQueue", "LinkedBlockingQueue", "ArrayBlockingQueue"})
    public String impl;

    Queue<Integer> queue;
    /** Elements the consumer has taken, published every 256 (lazily). */
    final AtomicLong consumed = new AtomicLong();

    @Setup(Level.Trial)
    public void createQueue() {
        queue = Queues.create(impl, Queues.defaultOrder(impl), true);
    }

    /** Producer-side counters. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class ProducerCounters {
        public long offered;
        public long full;
        final Integer element = 2_000_000;
    }

    /** Consumer-side counters. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class ConsumerCounters {
        public long polled;
        public long empty;
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void produce(final ProducerCounters c) {
        if ((c.offered & 255) == 0 && c.offered - consumed.get() > MAX_AHEAD) {
            c.full++;
            return;
        }
        if (queue.offer(c.element)) {
            c.offered++;
        } else {
            c.full++;
        }
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public Integer consume(final ConsumerCounters c) {
        final Integer e = queue.poll();
        if (e == null) {
            c.empty++;
        } else if ((++c.polled & 255) == 0) {
            consumed.lazySet(c.polled);
        }
        return e;
    }
}
