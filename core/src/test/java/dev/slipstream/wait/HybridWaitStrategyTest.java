package dev.slipstream.wait;

import dev.slipstream.sequence.Sequence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
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
    void aWaitSpinsNoLongerThanMaxSpinNanosHoweverLargeItsWindowGrew() throws Exception {
        // a window of 2^31 spins lasts about a minute on any CPU; the time bound ends it after 1 ms
        final HybridWaitStrategy strategy = new HybridWaitStrategy(Integer.MAX_VALUE, 1_000_000L, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final Waiter waiter = Waiter.start("grown-window waiter", () -> {
            // waits that each end after a few spins grow the thread's window by half each time,
            // past 2^31 within 64 waits
            for (int i = 0; i < 64; i++) {
                strategy.waitFor(0, barrier.cursor, new AvailableAfterReads(4, 0), barrier);
            }
            return strategy.waitFor(0, barrier.cursor, barrier.cursor, barrier);
        });

        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (strategy.parkedWaiters() == 0) {
            assertTrue(System.nanoTime() < deadline, "the wait still spins 10 s in: maxSpinNanos did not end it");
            Thread.sleep(1);
        }
        barrier.publish(0);
        assertEquals(0L, waiter.get());
    }

    @Test
    void aWaitThatParkedButEndedWithinTheLongestSpinMakesTheNextWaitSpin() throws Exception {
        // a spin may last 10 s: the first wait (window at its floor) parks and is woken at once
        final HybridWaitStrategy strategy = new HybridWaitStrategy(Integer.MAX_VALUE, 10_000_000_000L, 0, 1_000);
        final TestBarrier barrier = new TestBarrier(strategy);
        final CountDownLatch secondWaitStarted = new CountDownLatch(1);
        final Waiter waiter = Waiter.start("briefly parked waiter", () -> {
            strategy.waitFor(0, barrier.cursor, barrier.cursor, barrier);
            secondWaitStarted.countDown();
            return strategy.waitFor(1, barrier.cursor, barrier.cursor, barrier);
        });
        while (strategy.parkedWaiters() == 0) {
            Thread.yield();
        }
        barrier.publish(0);
        assertTrue(secondWaitStarted.await(10, TimeUnit.SECONDS));
        final long wakeUpsAfterFirst = strategy.wakeUps();

        // a waiter that halved its window instead would park within microseconds of starting
        Thread.sleep(100);
        barrier.publish(1);

        assertEquals(1L, waiter.get());
        assertEquals(wakeUpsAfterFirst, strategy.wakeUps(), "the second wait was met spinning, not woken");
    }

    @Test
    void describesItsSettings() {
        assertEquals("HybridWaitStrategy[spinTries=7, maxSpinNanos=50000, yieldTries=3, upstreamParkNanos=500]",
                new HybridWaitStrategy(7, 3, 500).toString());
        assertEquals("HybridWaitStrategy[spinTries=7, maxSpinNanos=900, yieldTries=3, upstreamParkNanos=500]",
                new HybridWaitStrategy(7, 900, 3, 500).toString());
    }

    /** A sequence that reads as behind until it has been read a given number of times. */
    private static final class AvailableAfterReads extends Sequence {
        private final long value;
        private int readsLeft;

        AvailableAfterReads(final int reads, final long value) {
            super(value);
            this.value = value;
            this.readsLeft = reads;
        }

        @Override
        public long get() {
            return --readsLeft > 0 ? value - 1 : value;
        }
    }
}
