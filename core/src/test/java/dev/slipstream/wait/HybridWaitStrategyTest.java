package dev.slipstream.wait;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HybridWaitStrategyTest {

    @Test
    void aParkedWaiterIsWokenBySignalAllWhenBlocking() throws Exception {
        final HybridWaitStrategy strategy = new HybridWaitStrategy(0, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final Waiter waiter = Waiter.start(barrier, 0).awaitAsleep();
        while (strategy.parkedWaiters() != 1) {
            Thread.yield();
        }

        barrier.publish(0);

        assertEquals(0, waiter.get());
        assertTrue(strategy.wakeUps() >= 1, "the signal unparked the registered waiter");
        waiter.thread.join();
        assertEquals(0, strategy.parkedWaiters(), "a woken waiter deregisters");
    }

    @Test
    void everyParkedWaiterIsWoken() throws Exception {
        final HybridWaitStrategy strategy = new HybridWaitStrategy(0, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final Waiter[] waiters = new Waiter[4];
        for (int i = 0; i < waiters.length; i++) {
            waiters[i] = Waiter.start(barrier, 0).awaitAsleep();
        }
        while (strategy.parkedWaiters() != waiters.length) {
            Thread.yield();
        }

        barrier.publish(0);

        for (final Waiter waiter : waiters) {
            assertEquals(0, waiter.get());
            waiter.thread.join();
        }
        assertEquals(0, strategy.parkedWaiters());
    }

    @Test
    void signalWithNoWaiterUnparksNobody() {
        final HybridWaitStrategy strategy = new HybridWaitStrategy();
        for (int i = 0; i < 10_000; i++) {
            strategy.signalAllWhenBlocking();
        }
        assertEquals(0, strategy.parkedWaiters());
        assertEquals(0, strategy.wakeUps(), "no waiter, so no lock taken and no unpark issued");
    }

    @Test
    void signalAfterTheWaiterLeftUnparksNobody() throws Exception {
        final HybridWaitStrategy strategy = new HybridWaitStrategy(0, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final Waiter waiter = Waiter.start(barrier, 0).awaitAsleep();
        barrier.publish(0);
        waiter.get();
        waiter.thread.join();
        final long wakeUpsSoFar = strategy.wakeUps();

        for (int i = 1; i <= 1_000; i++) {
            barrier.publish(i);
        }

        assertEquals(wakeUpsSoFar, strategy.wakeUps());
    }

    @Test
    void aWaiterWithNoSpinWindowLeftParksAndIsWokenByThePublish() throws Exception {
        final HybridWaitStrategy strategy = new HybridWaitStrategy(0, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final Waiter waiter = Waiter.start(barrier, 0);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (strategy.parkedWaiters() == 0) {
            assertTrue(System.nanoTime() < deadline, "the waiter never parked");
            Thread.sleep(1);
        }
        barrier.publish(0);
        assertEquals(0, waiter.get());
    }

    @Test
    void theRegistryGrowsBeyondItsInitialSize() throws Exception {
        final HybridWaitStrategy strategy = new HybridWaitStrategy(0, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final Waiter[] waiters = new Waiter[9];
        for (int i = 0; i < waiters.length; i++) {
            waiters[i] = Waiter.start(barrier, i).awaitAsleep();
        }
        while (strategy.parkedWaiters() != waiters.length) {
            Thread.yield();
        }
        for (int i = 0; i < waiters.length; i++) {
            barrier.publish(i);
            assertEquals(i, waiters[i].get(), "the waiter for " + i + " returns once " + i + " is published");
        }
    }

    @Test
    void describesItsSettings() {
        assertEquals("HybridWaitStrategy[spinTries=7, yieldTries=3, upstreamParkNanos=500]",
                new HybridWaitStrategy(7, 3, 500).toString());
    }
}
