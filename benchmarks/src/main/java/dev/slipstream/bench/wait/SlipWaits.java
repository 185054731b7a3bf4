package dev.slipstream.bench.wait;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.LiteBlockingWaitStrategy;
import dev.slipstream.wait.PhasedBackoffWaitStrategy;
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
