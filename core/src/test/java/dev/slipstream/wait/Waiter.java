package dev.slipstream.wait;

import dev.slipstream.sequence.SequenceBarrier;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A thread blocked in {@code barrier.waitFor(sequence)}, with its outcome as a future. */
final class Waiter {
    final Thread thread;
    final CompletableFuture<Long> result = new CompletableFuture<>();

    private Waiter(final SequenceBarrier barrier, final long sequence) {
        thread = new Thread(() -> {
            try {
                result.complete(barrier.waitFor(sequence));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "waiter-for-" + sequence);
        thread.setDaemon(true);
    }

    static Waiter start(final SequenceBarrier barrier, final long sequence) {
        final Waiter waiter = new Waiter(barrier, sequence);
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
