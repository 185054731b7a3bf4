package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a pipeline or queue-fed pool stops threads that are still inside their handler after a
 * halt ({@link Lifecycle#stopThreads}): the check starts stage-like threads stuck in their
 * handler, a blocking sleep, once or on every event of a batch, and asks the stopper to end them
 * within a deadline. The shipped stopper interrupts them, and again while they keep blocking;
 * the check must fail on a stopper that only joins ({@link #JOIN_ONLY}, the old shutdown) and on
 * one that interrupts once ({@link #INTERRUPT_ONCE}).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StuckStageStopTest {
    /** The part of a shutdown under test: wait for, and if need be interrupt, stopping threads. */
    interface Stopper {
        List<String> stop(List<Thread> threads, long interruptAt, long deadline);
    }

    /** Mutant: the old shutdown, which only joined and never interrupted a stuck handler. */
    static final Stopper JOIN_ONLY = (threads, interruptAt, deadline) -> Lifecycle.join(threads, deadline);

    /** Mutant: interrupts once, so a handler that blocks again on its next event stays stuck. */
    static final Stopper INTERRUPT_ONCE = (threads, interruptAt, deadline) -> {
        if (Lifecycle.join(threads, interruptAt).isEmpty()) {
            return List.of();
        }
        for (final Thread thread : threads) {
            thread.interrupt();
        }
        return Lifecycle.join(threads, deadline);
    };

    /**
     * Starts {@code n} threads whose "handler" sleeps for ever on each of {@code events} events
     * (an interrupt ends one sleep, as it would make a handler throw and the stage skip the
     * event), then asks {@code stopper} to end them within 3 s, interrupting after 20 ms.
     *
     * @return the threads still running when the stopper returned
     */
    static List<String> stillRunning(final Stopper stopper, final int n, final int events) throws InterruptedException {
        final CountDownLatch inHandler = new CountDownLatch(n);
        final List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final Thread thread = new Thread(() -> {
                inHandler.countDown();
                for (int event = 0; event < events; event++) {
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException skipped) {
                        // the event is skipped; the batch goes on to the next one
                    }
                }
            }, "stuck-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        inHandler.await();
        final long now = System.nanoTime();
        final List<String> alive = stopper.stop(threads, now + TimeUnit.MILLISECONDS.toNanos(20),
                now + TimeUnit.SECONDS.toNanos(3));
        for (final Thread thread : threads) {
            // free what a mutant left stuck
            while (thread.isAlive()) {
                thread.interrupt();
                thread.join(1);
            }
        }
        return alive;
    }

    @Test
    void theShippedStopperEndsHandlersStuckOnceOrOnEveryEvent() throws Exception {
        final Stopper shipped = Lifecycle::stopThreads;
        assertEquals(List.of(), stillRunning(shipped, 2, 1), "stuck on one event");
        assertEquals(List.of(), stillRunning(shipped, 2, 200), "stuck on every event of a batch of 200");
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAStopperThatNeverInterrupts() throws Exception {
        assertEquals(List.of("stuck-0", "stuck-1"), stillRunning(JOIN_ONLY, 2, 1));
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAStopperThatInterruptsOnlyOnce() throws Exception {
        assertFalse(stillRunning(INTERRUPT_ONCE, 2, 200).isEmpty(), "a handler blocking on every event stays stuck");
    }
}
