package dev.slipstream.wait;

import dev.slipstream.sequence.SequenceBarrier;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A thread blocked in {@code barrier.waitFor(sequence)}, or in a sequence of waits of its own, with
 * its outcome as a future. Each waiter is a new thread, so it starts with fresh spin windows.
 */
final class Waiter {
    /** The waits a waiter thread makes; returns what the last one returned. */
    @FunctionalInterface
    interface Waits {
        long run() throws Exception;
    }

    final Thread thread;
    final CompletableFuture<Long> result = new CompletableFuture<>();

    private Waiter(final String name, final Waits waits) {
        thread = new Thread(() -> {
            try {
                result.complete(waits.run());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, name);
        thread.setDaemon(true);
    }

    static Waiter start(final SequenceBarrier barrier, final long sequence) {
        return start("waiter-for-" + sequence, () -> barrier.waitFor(sequence));
    }

    static Waiter start(final String name, final Waits waits) {
        final Waiter waiter = new Waiter(name, waits);
        waiter.thread.start();
        return waiter;
    }

    /** Returns once the waiter thread is asleep (parked or on a condition): it needs a wake-up now. */
    Waiter awaitAsleep() {
        while (true) {
            final Thread.State state = thread.getState();
            if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
                return this;
            }
            if (state == Thread.State.TERMINATED) {
                throw new AssertionError("waiter ended before it slept: " + result);
            }
            Thread.yield();
        }
    }

    long get() throws Exception {
        return result.get(30, TimeUnit.SECONDS);
    }

    /** The exception the wait ended with. */
    Throwable failure() throws Exception {
        try {
            final long value = result.get(30, TimeUnit.SECONDS);
            throw new AssertionError("expected the wait to fail, but it returned " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
