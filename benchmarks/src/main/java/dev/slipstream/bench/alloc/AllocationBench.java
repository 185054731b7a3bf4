package dev.slipstream.bench.alloc;

import dev.slipstream.bench.throughput.Shape;
import dev.slipstream.bench.throughput.Topologies;
import dev.slipstream.bench.throughput.Topology;
import dev.slipstream.bench.throughput.TopologyBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;

/**
 * Allocation per event on publish and consume, for {@code -prof gc}: one operation is one
 * event published by the benchmark thread and handled by the consumer thread(s), so
 * {@code gc.alloc.rate.norm} is bytes allocated per event by every thread of the JVM (JMH
 * counts all of them). Expected: about 0 B/op on the publish and consume path. A strategy
 * that parks on a {@code java.util.concurrent} condition allocates a node each time a thread
 * parks (the queue peer's {@code put}/{@code take} do), which shows up as a fraction of a byte
 * per event.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar AllocationBench -prof gc
 * }</pre>
 */
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class AllocationBench extends TopologyBenchmark {
    /** Events per invocation; small, so that allocation per batch (if any) would show per event. */
    public static final int EVENTS = 3 * 1024;

    /** unicast (single producer) or sequencer (three producers, the multi-producer path). */
    @Param({"unicast", "sequencer"})
    public String shape;

    /** The consumers' wait strategy: yielding never parks, blocking parks and signals. */
    @Param({"yielding", "blocking"})
    public String wait;

    @Override
    protected Topology create() {
        return Topologies.create(Shape.valueOf(shape.toUpperCase(Locale.ROOT)), impl, wait, 1024);
    }

    /** Publishes and consumes a small batch, checked like every throughput batch. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public void publishConsume() {
        topology.runBatch(EVENTS);
    }
}
