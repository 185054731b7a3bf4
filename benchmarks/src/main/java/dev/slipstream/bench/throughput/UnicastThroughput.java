package dev.slipstream.bench.throughput;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the unicast topology. One producer, one consumer (1P-1C); two threads, so busy-spin fits two cores.
 *
 * <p>One operation is one event: each invocation publishes {@value Batch#EVENTS} events and
 * returns when the last stage has seen them all and their checksum matched, so the score is
 * events per second. {@code impl} and {@code wait} select the implementation and the wait
 * strategy; every implementation uses the same ring size.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar UnicastThroughput -p wait=yielding
 * }</pre>
 */
@Fork(3)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class UnicastThroughput extends TopologyBenchmark {
    /** The wait strategy of every consumer. */
    @Param({"busyspin", "yielding", "blocking"})
    public String wait;

    /** Ring size, and capacity of every queue. */
    @Param({"65536"})
    public int ringSize;

    @Override
    protected Topology create() {
        return Topologies.create(Shape.UNICAST, impl, wait, ringSize);
    }

    /** Publishes a batch and waits until the last stage has checked it. */
    @Benchmark
    @OperationsPerInvocation(Batch.EVENTS)
    public void events() {
        topology.runBatch(Batch.EVENTS);
    }
}
