package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;

/**
 * The second half of a blocking strategy's wait: the cursor has passed the sequence, but an
 * upstream stage has not. Upstream stages do not signal, so a blocking strategy cannot sleep on a
 * condition here; instead it spins a little (the stage is usually just behind), then yields, then
 * parks for short intervals so that a slow stage does not make its followers burn a core.
 */
final class UpstreamWait {
    /** Shared by every waiting stage: each passes its own count of rounds. */
    static final Backoff BACKOFF = new Backoff(100, 100, 20_000L, 20_000L);

    private UpstreamWait() {
    }

    /** Waits for {@code dependent} to reach {@code sequence}, with no time limit. */
    static long await(final long sequence, final Sequence dependent, final SequenceBarrier barrier)
            throws AlertException, InterruptedException {
        long available;
        long round = 0;
        // acquire: seeing an upstream stage past a slot means seeing what it wrote into the event
        while ((available = dependent.get()) < sequence) {
            barrier.checkAlert();
            pause(round++, Long.MAX_VALUE);
        }
        return available;
    }

    /** Waits for {@code dependent} to reach {@code sequence} until {@code deadline} (System.nanoTime). */
    static long await(final long sequence, final Sequence dependent, final SequenceBarrier barrier,
                      final long deadline) throws AlertException, InterruptedException, TimeoutException {
        long available;
        long round = 0;
        while ((available = dependent.get()) < sequence) {
            barrier.checkAlert();
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw TimeoutException.INSTANCE;
            }
            pause(round++, left);
        }
        return available;
    }

    /** One step of spin, then yield, then park (at most {@code maxParkNanos}). */
    private static void pause(final long round, final long maxParkNanos) throws InterruptedException {
        if (BACKOFF.idleAt(round, maxParkNanos) == Backoff.Phase.PARK) {
            throwIfInterrupted();
        }
    }

    /** A parked thread returns at once when interrupted: turn that into the exception, not a spin. */
    static void throwIfInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting for a sequence");
        }
    }
}
