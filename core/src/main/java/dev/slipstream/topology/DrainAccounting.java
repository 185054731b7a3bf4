package dev.slipstream.topology;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Backoff;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Drain accounting on a closed ring, against its close fence: the highest sequence whose claim the
 * ring accepted before it closed. Every claim at or below the fence is published by its producer;
 * none above it is accepted. So the fence is exactly the last accepted event, and:
 * <ul>
 *   <li>claims in flight = fence minus the highest gap-free published sequence;</li>
 *   <li>a stage left = fence minus the stage's sequence (never below 0);</li>
 *   <li>drained = nothing in flight and every stage at the fence.</li>
 * </ul>
 * No grace period and no guess: a claim being written when the ring closed is waited for (up to
 * the timeout) and counted if it is not published in time.
 */
final class DrainAccounting {
    /** A drain wait parks only: from 10 us, doubling up to 1 ms. Shared: each wait counts its own parks. */
    private static final Backoff DRAIN_WAIT =
            new Backoff(0, 0, TimeUnit.MICROSECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(1));

    private DrainAccounting() {
    }

    /** The close fence of a closed ring: the highest accepted claim. */
    static long fence(final RingBuffer<?> ring) {
        // the ring fixed it when it closed: every claim at or below it will be published
        return ring.closeFence();
    }

    /**
     * The highest sequence up to which every claimed slot is published (gap-free), looking from the
     * slowest stage; the cursor when no stage is behind it.
     */
    static long highestPublished(final RingBuffer<?> ring, final List<? extends StageNode<?>> stages) {
        final long cursor = ring.getCursor();
        long lowest = cursor;
        for (final StageNode<?> node : stages) {
            lowest = Math.min(lowest, node.sequence());
        }
        if (lowest >= cursor) {
            return cursor;
        }
        // the stages gate the producers, so lowest + 1 is within a ring of the cursor
        return ring.sequencer().getHighestPublishedSequence(lowest + 1, cursor);
    }

    /**
     * Parks (never spins) until every claim up to {@code fence} is published and every stage
     * reached it; or a stage failed; or a stage was stopped below the fence (it can never get
     * there); or the deadline passed.
     *
     * @return whether it drained
     */
    static boolean awaitDrained(final RingBuffer<?> ring, final List<? extends StageNode<?>> stages,
                                final long fence, final Lifecycle lifecycle, final long deadline) {
        lifecycle.drainWaiter(Thread.currentThread());
        try {
            long parks = 0;
            while (true) {
                if (isDrained(ring, stages, fence)) {
                    return true;
                }
                if (lifecycle.hasFailed() || anyStoppedBelow(stages, fence)) {
                    return false;
                }
                final long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                DRAIN_WAIT.idleAt(parks++, remaining);
            }
        } finally {
            lifecycle.drainWaiter(null);
        }
    }

    static boolean isDrained(final RingBuffer<?> ring, final List<? extends StageNode<?>> stages, final long fence) {
        // with stages, "every stage at the fence" implies "published up to the fence" (no stage
        // passes an unpublished slot); the published check covers a pipeline without stages
        if (highestPublished(ring, stages) < fence) {
            return false;
        }
        for (final StageNode<?> node : stages) {
            if (node.sequence() < fence) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyStoppedBelow(final List<? extends StageNode<?>> stages, final long fence) {
        for (final StageNode<?> node : stages) {
            if (node.stopRequested() && node.sequence() < fence) {
                return true;
            }
        }
        return false;
    }

    /** Claims at or below the fence not yet published. */
    static long claimsInFlight(final RingBuffer<?> ring, final List<? extends StageNode<?>> stages, final long fence) {
        return Math.max(0L, fence - highestPublished(ring, stages));
    }

    /**
     * Per stage, accepted events it did not handle: fence minus its sequence. With no stage at all,
     * every accepted event is reported under {@link ShutdownResult#NO_STAGE}.
     */
    static Map<String, Long> left(final List<? extends StageNode<?>> stages, final long fence) {
        final Map<String, Long> left = new LinkedHashMap<>();
        for (final StageNode<?> node : stages) {
            left.put(node.name, Math.max(0L, fence - node.sequence()));
        }
        if (stages.isEmpty() && fence >= 0) {
            left.put(ShutdownResult.NO_STAGE, fence + 1);
        }
        return left;
    }
}
