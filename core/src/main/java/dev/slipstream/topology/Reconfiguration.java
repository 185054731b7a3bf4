package dev.slipstream.topology;

import dev.slipstream.ring.RingBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Changes to a running pipeline: adding a first-level stage, and removing a stage in the only safe
 * order: halt it, join its threads, and only then take it out of the gate (re-gate), so producers
 * never overwrite a batch it may still be reading. The join happens outside the pipeline's lock;
 * a stage whose threads do not end in time stays in the graph, halted and gating, and is reported.
 *
 * @param <E> the event type
 */
final class Reconfiguration<E> {
    private final Object lock;
    private final PipelineGraph<E> graph;
    private final Lifecycle lifecycle;
    private final RingBuffer<E> ring;

    Reconfiguration(final Object lock, final PipelineGraph<E> graph, final Lifecycle lifecycle,
                    final RingBuffer<E> ring) {
        this.lock = lock;
        this.graph = graph;
        this.lifecycle = lifecycle;
        this.ring = ring;
    }

    /** Adds and starts a first-level stage while running; under the lock. */
    StageNode<E> addRunning(final StageSpec<? super E> spec) {
        final boolean first = graph.isEmpty();
        final StageNode<E> node = graph.add(spec, List.of(), graph.startFor(List.of(), true));
        if (!first) {
            // the gate now includes the new stage (at the cursor read before); read the cursor
            // again: producers that missed the new gate claimed at most up to this value
            node.startAfter(ring.getCursor());
        }
        try {
            node.createThreads(lifecycle);
        } catch (RuntimeException e) {
            // no thread, so no stage: take it out before it gates anyone, and leave the spec unused
            graph.remove(node);
            spec.unmarkUsed();
            throw e;
        }
        node.startThreads();
        return node;
    }

    /**
     * Removes a stage: checks (under the lock), halts and joins (outside it), then re-gates
     * (under it again).
     *
     * @param stopped whether the pipeline is stopping or stopped (read under the lock)
     */
    StageRemoval remove(final StageNode<E> node, final long timeoutNanos, final java.util.function.BooleanSupplier stopped) {
        final long published;
        final List<Thread> threads;
        synchronized (lock) {
            if (stopped.getAsBoolean()) {
                throw new IllegalStateException("pipeline '" + node.pipeline.name()
                        + "' is stopped: stages can no longer be removed");
            }
            if (node.removed) {
                throw new IllegalArgumentException("stage '" + node.name + "' was removed from pipeline '"
                        + node.pipeline.name() + "'");
            }
            if (node.removing) {
                throw new IllegalStateException("stage '" + node.name + "' is being removed by another thread");
            }
            final List<String> followers = new ArrayList<>();
            for (final StageNode<E> down : node.downstreamNodes) {
                followers.add(down.name);
            }
            if (!followers.isEmpty()) {
                throw new IllegalArgumentException("stage '" + node.name + "' is followed by " + followers
                        + "; remove those stages first");
            }
            node.removing = true;
            published = Math.max(DrainAccounting.highestPublished(ring, graph.snapshot()), node.sequence());
            threads = new ArrayList<>(node.threads);
        }
        // 1. halt: the stage stops after its current batch; it still gates the producers
        node.requestStop();
        // 2. join, without the lock: a stuck stage must not block the rest of the pipeline's control
        final List<String> alive = lifecycle.state() == Lifecycle.NEW
                ? List.of() : Lifecycle.join(threads, System.nanoTime() + timeoutNanos);
        synchronized (lock) {
            node.removing = false;
            final long left = Math.max(0L, published - node.sequence());
            if (!alive.isEmpty()) {
                // not removed: it keeps gating, so its last batch is never overwritten
                node.stuck = true;
                return new StageRemoval(node.name, left, alive);
            }
            if (lifecycle.state() != Lifecycle.STOPPED) {
                // 3. re-gate: only now may producers pass its last batch
                graph.remove(node);
            }
            return new StageRemoval(node.name, left, List.of());
        }
    }
}
