package dev.slipstream.bench.wait;

import dev.slipstream.bench.support.EventPlacement;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.LiteBlockingWaitStrategy;
import dev.slipstream.wait.PhasedBackoffWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import dev.slipstream.wait.SleepingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;

import java.time.Duration;

/**
 * Slipstream wait strategies by the names the benchmarks use.
 *
 * <pre>{@code
 * WaitStrategy w = SlipWaits.create("hybrid");
 * }</pre>
 */
public final class SlipWaits {
    private SlipWaits() {
    }

    /**
     * Builds a Slipstream ring with the library's default producer-side wait, unless the system
     * property {@code bench.producerWait} names another one ({@code spin}, {@code yield}, or
     * {@code park<nanos>}, e.g. {@code park1} for a fixed 1 ns park loop like LMAX's). For
     * experiments only: published results use the default.
     *
     * @param multi many producers (true) or one
     * @param ringSize the ring size
     * @param wait the consumers' wait strategy
     * @return the ring
     */
    public static RingBuffer<ValueEvent> ring(final boolean multi, final int ringSize, final WaitStrategy wait) {
        final ProducerWaitStrategy producerWait = producerWait();
        if (producerWait == null) {
            return multi ? RingBuffer.createMultiProducer(EventPlacement::newEvent, ringSize, wait)
                    : RingBuffer.createSingleProducer(EventPlacement::newEvent, ringSize, wait);
        }
        return RingBuffer.create(multi ? ProducerType.MULTI : ProducerType.SINGLE, EventPlacement::newEvent, ringSize, wait,
                producerWait);
    }

    /**
     * The producer-side wait that the system property {@code bench.producerWait} names
     * ({@code spin}, {@code yield}, or {@code park<nanos>}), or null for the library's default.
     * For experiments only: published results use the default.
     *
     * @return the strategy, or null when the property is unset or {@code default}
     */
    public static ProducerWaitStrategy producerWait() {
        final String p = System.getProperty("bench.producerWait", "default");
        if (p.equals("default")) {
            return null;
        } else if (p.equals("spin")) {
            return ProducerWaitStrategies.busySpin();
        } else if (p.equals("yield")) {
            return ProducerWaitStrategies.yielding();
        } else if (p.startsWith("park")) {
            return ProducerWaitStrategies.parking(Long.parseLong(p.substring(4)));
        }
        throw new IllegalArgumentException("bench.producerWait must be default, spin, yield or park<nanos>, got " + p);
    }

    /**
     * Creates the strategy, with its default settings.
     *
     * @param name busyspin, yielding, sleeping, blocking, liteblocking, phased or hybrid
     * @return a new strategy
     * @throws IllegalArgumentException for another name
     */
    public static WaitStrategy create(final String name) {
        return switch (name) {
            case "busyspin" -> new BusySpinWaitStrategy();
            case "yielding" -> new YieldingWaitStrategy();
            case "sleeping" -> new SleepingWaitStrategy();
            case "blocking" -> new BlockingWaitStrategy();
            case "liteblocking" -> new LiteBlockingWaitStrategy();
            // the same phases as the LMAX peer: spin 10 us, yield up to 100 us, then block
            case "phased" -> PhasedBackoffWaitStrategy.withLiteLock(Duration.ofNanos(10_000), Duration.ofNanos(100_000));
            case "hybrid" -> new HybridWaitStrategy();
            default -> throw new IllegalArgumentException("Slipstream has no wait strategy '" + name
                    + "'; expected busyspin, yielding, sleeping, blocking, liteblocking, phased or hybrid");
        };
    }
}
