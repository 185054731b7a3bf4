package dev.slipstream.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * How long and how much {@link RunAll} measures: {@code quick} fits a 2-core machine in about
 * fifteen minutes, {@code full} is for a quiet machine with more cores, {@code smoke} only checks
 * that every part runs (a few minutes, numbers meaningless).
 *
 * <pre>{@code
 * Preset p = Preset.named("quick");
 * }</pre>
 *
 * @param name quick, full or smoke
 * @param rounds JMH rounds of the throughput suite; each round runs one fork of every
 *     configuration, so the forks of different implementations interleave in time
 * @param warmupIterations JMH warm-up iterations per fork
 * @param warmupMs length of a warm-up iteration
 * @param iterations JMH measured iterations per fork
 * @param iterationMs length of a measured iteration
 * @param queueRounds rounds of the queue (LSCQ shapes) suite
 * @param queueInclude which queue benchmarks run (a JMH regex)
 * @param queueIterationMs length of a warm-up or measured iteration of the queue suite (one
 *     warm-up and two measured iterations in quick, as the throughput suite in full)
 * @param layoutForks forks of the false-sharing benchmark
 * @param latencyWarmupMs warm-up per rate in the latency runs
 * @param latencyMeasureMs measurement per rate in the latency runs
 * @param rates the paced rates, events per second
 * @param latency the latency configurations to run
 */
public record Preset(String name, int rounds, int warmupIterations, long warmupMs, int iterations, long iterationMs,
                     int queueRounds, String queueInclude, long queueIterationMs, int layoutForks, long latencyWarmupMs, long latencyMeasureMs,
                     List<Long> rates, List<LatencySpec> latency) {
    /**
     * One latency configuration, run in its own JVM.
     *
     * @param mode oneway or pingpong
     * @param topology unicast or pipeline
     * @param impl slipstream, lmax or abq
     * @param strategy the wait strategy
     */
    public record LatencySpec(String mode, String topology, String impl, String strategy) {
    }

    /** The queue shapes (one and two threads) and the producer/consumer pair. */
    private static final String SHAPES = "dev\\.slipstream\\.bench\\.queue\\.(QueueShapes|QueueProducerConsumer)";
    /** Every queue benchmark. */
    private static final String ALL_QUEUES = "dev\\.slipstream\\.bench\\.queue\\.";

    /**
     * The named preset.
     *
     * @param name quick, full or smoke
     * @return the preset
     * @throws IllegalArgumentException for another name
     */
    public static Preset named(final String name) {
        return switch (name) {
            case "quick" -> new Preset("quick", 4, 2, 400, 3, 400, 1, SHAPES, 300, 3, 500, 1500,
                    List.of(10_000L, 100_000L, 1_000_000L), latencySpecs());
            case "full" -> new Preset("full", 5, 5, 1000, 5, 2000, 3, ALL_QUEUES, 0, 5, 3000, 20_000,
                    List.of(10_000L, 100_000L, 1_000_000L), latencySpecs());
            case "smoke" -> new Preset("smoke", 1, 0, 100, 1, 200, 1, SHAPES, 100, 1, 200, 300, List.of(10_000L, 100_000L),
                    List.of(new LatencySpec("oneway", "unicast", "slipstream", "busyspin"),
                            new LatencySpec("oneway", "unicast", "slipstream", "hybrid"),
                            new LatencySpec("oneway", "unicast", "lmax", "blocking"),
                            new LatencySpec("oneway", "pipeline", "abq", "blocking"),
                            new LatencySpec("pingpong", "unicast", "slipstream", "busyspin")));
            default -> throw new IllegalArgumentException("unknown preset '" + name
                    + "'; expected quick, full or smoke");
        };
    }

    /**
     * Every wait strategy that fits two cores: busy-spin only where the topology has at most two
     * threads (unicast and ping-pong: producer and one consumer).
     */
    private static List<LatencySpec> latencySpecs() {
        final List<LatencySpec> specs = new ArrayList<>();
        final List<String> slip = List.of("busyspin", "yielding", "sleeping", "blocking", "liteblocking", "phased",
                "hybrid");
        final List<String> lmax = List.of("busyspin", "yielding", "sleeping", "blocking", "liteblocking", "phased");
        final List<String> abq = List.of("busyspin", "blocking");
        for (String mode : List.of("oneway-unicast", "oneway-pipeline", "pingpong-unicast")) {
            final String[] mt = mode.split("-");
            final boolean twoThreads = mt[1].equals("unicast");
            add(specs, mt[0], mt[1], "slipstream", slip, twoThreads);
            add(specs, mt[0], mt[1], "lmax", lmax, twoThreads);
            add(specs, mt[0], mt[1], "abq", abq, twoThreads);
        }
        return specs;
    }

    private static void add(final List<LatencySpec> specs, final String mode, final String topology,
                            final String impl, final List<String> waits, final boolean twoThreads) {
        for (String w : waits) {
            if (w.equals("busyspin") && !twoThreads) {
                continue;
            }
            specs.add(new LatencySpec(mode, topology, impl, w));
        }
    }
}
