package dev.slipstream.bench.throughput;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * What the JMH benchmarks of a whole topology share: the implementation parameter, and the
 * topology, started once per trial (fork) and stopped after it. A subclass says which topology
 * ({@link #create}), how long to run (forks, iterations) and holds the benchmark method; JMH
 * generates the state, set-up and tear-down of each subclass from this class.
 *
 * <pre>{@code
 * public class UnicastThroughput extends TopologyBenchmark {
 *     protected Topology create() { return Topologies.create(Shape.UNICAST, impl, wait, ringSize); }
 *     @Benchmark public void events() { topology.runBatch(Batch.EVENTS); }
 * }
 * }</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public abstract class TopologyBenchmark {
    /** slipstream, lmax or abq; also dsl (the {@code Slipstream} builder) when named with {@code -p impl=dsl}. */
    @Param({"slipstream", "lmax", "abq"})
    public String impl;

    /** The running topology, from {@link #setUp} to {@link #tearDown}. */
    protected Topology topology;

    /** @return the topology to run, wired and not started */
    protected abstract Topology create();

    /** Starts the topology and runs one small batch, so that a wiring error shows before the first measured iteration. */
    @Setup(Level.Trial)
    public void setUp() {
        topology = create();
        topology.start();
        topology.runBatch(3 * 1024);
    }

    /** Stops the topology. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (topology != null) {
            topology.close();
            topology = null;
        }
    }
}
