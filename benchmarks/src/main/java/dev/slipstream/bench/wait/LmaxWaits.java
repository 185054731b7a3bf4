package dev.slipstream.bench.wait;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.LiteBlockingWaitStrategy;
import com.lmax.disruptor.PhasedBackoffWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.concurrent.TimeUnit;

/**
 * LMAX Disruptor wait strategies by the names the benchmarks use.
 *
 * <pre>{@code
 * WaitStrategy w = LmaxWaits.create("yielding");
 * }</pre>
 */
public final class LmaxWaits {
    private LmaxWaits() {
    }

    /**
     * Creates the strategy.
     *
     * @param name busyspin, yielding, sleeping, blocking, liteblocking or phased
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
            // spin 10 us, yield up to 100 us, then block on a lock: the same phases as Slipstream's
            case "phased" -> PhasedBackoffWaitStrategy.withLiteLock(10, 100, TimeUnit.MICROSECONDS);
            default -> throw new IllegalArgumentException("LMAX has no wait strategy '" + name
                    + "'; expected busyspin, yielding, sleeping, blocking, liteblocking or phased");
        };
    }
}
