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
 * Producer threads and consumer threads on one queue: {@code p1c1} (one of each) and
 * {@code p2c2} (two of each; on 2 cores the threads share them, so this measures the queue
 * under preemption as much as under contention). The score to read is the consumers'
 * {@code polled} counter: elements moved per microsecond. Invocations that found the queue empty
 * (consumer) or full (producer) are counted apart, not as throughput. Producers pause (counted as
 * {@code full}) while more than 65 536 elements are in flight, so no unbounded queue grows without
 * bound.
 *
 * <pre>
 * benchmarks/scripts/interleaved.sh 7 'QueueProducerConsumer.p1c1' - \
 *     scq=benchmarks/target/benchmarks.jar:ScqQueue abq=benchmarks/target/benchmarks.jar:ArrayBlockingQueue
 * </pre>
 * with {@code METRIC=polled} in the environment, so the script compares the consumers' counter.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QueueProducerConsumer {
    private static final long MAX_AHEAD = 1 << 16;
    /** Producers and consumers publish their progress to each other every this many elements. */
    private static final int REPORT_EVERY = 256;

    @Param({"ScqQueue", "LscqQueue", "LprqQueue", "MpmcArrayQueue", "MpmcUnboundedXaddArrayQueue",
            "ConcurrentLinkedQueue", "LinkedBlockingQueue", "ArrayBlockingQueue"})
    public String impl;

    /**
     * Cache remap of the Slipstream queues (ignored by the others): {@code -p remap=false} measures
     * what spreading neighbouring positions over different cache lines buys.
     */
    @Param({"true"})
    public boolean remap;

    /**
     * log2 of the Slipstream queue's capacity (ScqQueue) or segment size (LscqQueue); 0 takes the
     * comparison's default ({@link Queues#CAPACITY}, {@link Queues#SEGMENT}); ignored by the others.
     */
    @Param({"0"})
    public int order;

    Queue<Integer> queue;
    /** Elements offered by all producers, added in steps of {@link #REPORT_EVERY}. */
    final AtomicLong offered = new AtomicLong();
    /** Elements taken by all consumers, added in steps of {@link #REPORT_EVERY}. */
    final AtomicLong consumed = new AtomicLong();

    @Setup(Level.Trial)
    public void createQueue() {
        queue = Queues.create(impl, order == 0 ? Queues.defaultOrder(impl) : order, remap);
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
    @Group("p1c1")
    @GroupThreads(1)
    public void produce1(final ProducerCounters c) {
        produce(c);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public Integer consume1(final ConsumerCounters c) {
        return consume(c);
    }

    @Benchmark
    @Group("p2c2")
    @GroupThreads(2)
    public void produce2(final ProducerCounters c) {
        produce(c);
    }

    @Benchmark
    @Group("p2c2")
    @GroupThreads(2)
    public Integer consume2(final ConsumerCounters c) {
        return consume(c);
    }

    private void produce(final ProducerCounters c) {
        if ((c.offered & (REPORT_EVERY - 1)) == 0 && offered.get() - consumed.get() > MAX_AHEAD) {
            c.full++;
            return;
        }
        if (queue.offer(c.element)) {
            if ((++c.offered & (REPORT_EVERY - 1)) == 0) {
                offered.getAndAdd(REPORT_EVERY);
            }
        } else {
            c.full++;
        }
    }

    private Integer consume(final ConsumerCounters c) {
        final Integer e = queue.poll();
        if (e == null) {
            c.empty++;
        } else if ((++c.polled & (REPORT_EVERY - 1)) == 0) {
            consumed.getAndAdd(REPORT_EVERY);
        }
        return e;
    }
}
