package dev.slipstream.topology;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Backoff;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Drain accounting on a closed ring against its close fence ({@code ring.closeFence()}): every
 * claim at or below it is published by its producer and none above it is accepted, so the fence
 * is exactly the last accepted event. Claims in flight are the fence minus the highest gap-free
 * published sequence; a stage left the fence minus its sequence. No grace period, no guess.
 */
final class DrainAccounting {
    /** A drain wait parks only: from 10 us, doubling up to 1 ms. Shared: each wait counts its own parks. */
    private static final Backoff DRAIN_WAIT =
            new Backoff(0, 0, TimeUnit.MICROSECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(1));

    private DrainAccounting() {
    }

    /** The highest gap-free published sequence, looking from the slowest stage. */
    static long highestPublished(final RingBuffer<?> ring, final List<? extends StageNode<?>> stages) {
        final long cursor = ring.getCursor();
        final long lowest = stages.stream().mapToLong(StageNode::sequence).reduce(cursor, Math::min);
        if (lowest >= cursor) {
            return cursor;
        }
        // the stages gate the producers, so lowest + 1 is within a ring of the cursor
        return ring.sequencer().getHighestPublishedSequence(lowest + 1, cursor);
    }

    /**
     * Parks until drained, a stage failed or was stopped below the fence, or the deadline passed.
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
                final long remaining = deadline - System.nanoTime();
                if (lifecycle.hasFailed() || anyStoppedBelow(stages, fence) || remaining <= 0) {
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
        return highestPublished(ring, stages) >= fence && stages.stream().allMatch(node -> node.sequence() >= fence);
    }

    private static boolean anyStoppedBelow(final List<? extends StageNode<?>> stages, final long fence) {
        return stages.stream().anyMatch(node -> node.stopRequested() && node.sequence() < fence);
    }

    /** Claims at or below the fence not yet published. */
    static long claimsInFlight(final RingBuffer<?> ring, final List<? extends StageNode<?>> stages, final long fence) {
        return Math.max(0L, fence - highestPublished(ring, stages));
    }

    /** Per stage, accepted events it did not handle; with no stage, all under {@link ShutdownResult#NO_STAGE}. */
    static Map<String, Long> left(final List<? extends StageNode<?>> stages, final long fence) {
        final Map<String, Long> left = new LinkedHashMap<>();
        stages.forEach(node -> left.put(node.name, Math.max(0L, fence - node.sequence())));
        if (stages.isEmpty() && fence >= 0) {
            left.put(ShutdownResult.NO_STAGE, fence + 1);
        }
        return left;
    }
}
