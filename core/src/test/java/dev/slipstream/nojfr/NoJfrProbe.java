package dev.slipstream.nojfr;

import dev.slipstream.monitor.JfrMonitoring;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import java.time.Duration;

/**
 * Runs a three-stage pipeline and prints what it saw; {@code JfrAbsentTest} starts it in a JVM
 * whose runtime has no {@code jdk.jfr} module. Lives outside the module's packages so that it can
 * run from the class path while {@code dev.slipstream} is on the module path.
 */
public final class NoJfrProbe {
    /** The number of events the probe publishes. */
    static final int EVENTS = 10_000;

    private NoJfrProbe() {
    }

    /** One slot of the ring. */
    static final class Cell {
        long value;
        long doubled;
    }

    /**
     * Prints {@code jfrPresent=<bool> jdk.jfr-in-boot-layer=<bool> sum=<sum> clean=<bool>}.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        final long[] sum = new long[1];
        final Slipstream<Cell> pipeline = Slipstream.builder(Cell::new)
                .name("nojfr")
                .ringSize(256)
                .producers(ProducerType.SINGLE)
                .build();
        pipeline.handleEventsWith(StageSpec.of("double", (Cell cell, long sequence, boolean end) -> cell.doubled = 2 * cell.value))
                .then(StageSpec.of("check", (Cell cell, long sequence, boolean end) -> {
                    if (cell.doubled != 2 * cell.value) {
                        throw new IllegalStateException("stage order broken at " + sequence);
                    }
                }))
                .then(StageSpec.of("sum", (Cell cell, long sequence, boolean end) -> sum[0] += cell.doubled));
        pipeline.start();
        for (long i = 1; i <= EVENTS; i++) {
            pipeline.publishEvent((cell, sequence, value) -> cell.value = value, i);
        }
        final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(30));
        System.out.println("jfrPresent=" + JfrMonitoring.jfrPresent()
                + " jdk.jfr-in-boot-layer=" + ModuleLayer.boot().findModule("jdk.jfr").isPresent()
                + " sum=" + sum[0] + " clean=" + result.isClean());
    }
}
