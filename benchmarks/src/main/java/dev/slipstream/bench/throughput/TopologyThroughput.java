package dev.slipstream.bench.throughput;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;

/**
 * Throughput of the four-thread topologies: pipeline (1P-3C in a chain), sequencer (3P-1C, the
 * consumer checks each producer's order), multicast (1P-3C, each sees every event) and diamond
 * (1P, A and B in parallel, then C). Four threads do not fit two cores spinning, so these take the
 * yielding and blocking waits only; {@link UnicastThroughput} also runs busy-spin.
 *
 * <p>One operation is one event: each invocation publishes {@value Batch#EVENTS} events and
 * returns when the last stage has seen them all and their checksum matched, so the score is
 * events per second. {@code impl} and {@code wait} select the implementation and the wait
 * strategy; every implementation uses the same ring size.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar TopologyThroughput -p shape=diamond -p wait=yielding
 * }</pre>
 */
@Fork(3)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class TopologyThroughput extends TopologyBenchmark {
    /** The topology. */
    @Param({"pipeline", "sequencer", "multicast", "diamond"})
    public String shape;

    /** The wait strategy of every consumer. */
    @Param({"yielding", "blocking"})
    public String wait;

    /** Ring size, and capacity of every queue. */
    @Param({"65536"})
    public int ringSize;

    @Override
    protected Topology create() {
        return Topologies.create(Shape.valueOf(shape.toUpperCase(Locale.ROOT)), impl, wait, ringSize);
    }

    /** Publishes a batch and waits until the last stage has checked it. */
    @Benchmark
    @OperationsPerInvocation(Batch.EVENTS)
    public void events() {
        topology.runBatch(Batch.EVENTS);
    }
}
