package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.RingBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Changes to a running pipeline: adding a first-level stage, and removing a stage in the only
 * safe order: halt, join (outside the lock), then re-gate, so producers never overwrite a batch
 * it may still be reading. A stage whose threads do not end in time stays, halted and gating.
 *
 * <pre>{@code
 * Stage audit = reconfiguration.add("orders", StageSpec.of("audit", auditor));   // at the cursor
 * StageRemoval removal = reconfiguration.remove(audit, Duration.ofSeconds(2));   // halt, join, re-gate
 * }</pre>
 *
 * @param <E> the event type
 */
final class Reconfiguration<E> {
    private final Object lock;
    private final PipelineGraph<E> graph;
    private final PipelineWiring<E> wiring;
    private final PipelineLifecycle<E> run;
    private final RingBuffer<E> ring;

    Reconfiguration(final Object lock, final PipelineGraph<E> graph, final PipelineWiring<E> wiring,
                    final PipelineLifecycle<E> run, final RingBuffer<E> ring) {
        this.lock = lock;
        this.graph = graph;
        this.wiring = wiring;
        this.run = run;
        this.ring = ring;
    }

    /** Adds a stage straight behind the producers: before start as the DSL does, else {@link #addRunning}. */
    Stage add(final String pipelineName, final StageSpec<? super E> spec) {
        Objects.requireNonNull(spec, "spec must not be null");
        synchronized (lock) {
            if (run.state() == RunState.NEW) {
                return wiring.addStages(PipelineWiring.one(spec), List.of()).stage();
            }
            if (run.refusesNewStages()) {
                throw new IllegalStateException("pipeline '" + pipelineName + "' is stopped: cannot add a handler");
            }
            graph.checkSpecs(PipelineWiring.one(spec));
            return addRunning(spec);
        }
    }

    StageRemoval remove(final Stage stage, final Duration timeout) {
        Lifecycle.checkTimeout(timeout);
        return remove(graph.ownNode(stage), timeout.toNanos());
    }

    StageRemoval removeHandler(final String pipelineName, final EventHandler<?> handler, final Duration timeout) {
        Objects.requireNonNull(handler, "handler must not be null");
        final StageNode<E> node;
        synchronized (lock) {
            node = graph.byHandler(handler);
        }
        if (node == null) {
            throw new IllegalArgumentException("handler " + handler + " is not in pipeline '" + pipelineName + "'");
        }
        return remove(node, timeout);
    }

    /** Adds and starts a first-level stage while running; under the lock. */
    private StageNode<E> addRunning(final StageSpec<? super E> spec) {
        final boolean first = graph.nodes().isEmpty();
        final StageNode<E> node = graph.add(spec, List.of(), graph.startFor(List.of(), true));
        if (!first) {
            // the gate now includes the new stage (at the cursor read before); read the cursor
            // again: producers that missed the new gate claimed at most up to this value
            node.startAfter(ring.getCursor());
        }
        try {
            node.createThreads(run.lifecycle());
        } catch (RuntimeException e) {
            // no thread, so no stage: out before it gates anyone, spec unused
            graph.remove(node);
            spec.unmarkUsed();
            throw e;
        }
        node.startThreads();
        return node;
    }

    /** Checks under the lock, halts and joins outside it, then re-gates under it again. */
    private StageRemoval remove(final StageNode<E> node, final long timeoutNanos) {
        final long published;
        final List<Thread> threads;
        synchronized (lock) {
            if (run.isStopping()) {
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
            final List<String> followers = node.downstreamNodes.stream().map(down -> down.name).toList();
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
        final List<String> alive = run.state() == RunState.NEW
                ? List.of() : Lifecycle.join(threads, System.nanoTime() + timeoutNanos);
        synchronized (lock) {
            node.removing = false;
            final long left = Math.max(0L, published - node.sequence());
            if (!alive.isEmpty()) {
                // not removed: it keeps gating, so its last batch is never overwritten
                node.stuck = true;
                return new StageRemoval(node.name, left, alive);
            }
            if (run.state() != RunState.STOPPED) {
                // 3. re-gate: only now may producers pass its last batch
                graph.remove(node);
            }
            return new StageRemoval(node.name, left, List.of());
        }
    }
}
