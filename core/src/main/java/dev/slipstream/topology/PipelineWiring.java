package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.processor.EventHandler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The DSL's side of a pipeline's graph: adding stages before start, and selecting the stages new
 * ones follow (by group, stage or handler), each checked to belong to this pipeline.
 *
 * <pre>{@code
 * StageGroup<Order> decoded = wiring.addStages(PipelineWiring.specsOf(decoder), List.of());
 * wiring.after(decoded).then(matcher);
 * }</pre>
 *
 * @param <E> the event type
 */
final class PipelineWiring<E> {
    private final Slipstream<E> pipeline;
    private final Object lock;
    private final PipelineGraph<E> graph;
    private final PipelineLifecycle<E> run;

    PipelineWiring(final Slipstream<E> pipeline, final Object lock, final PipelineGraph<E> graph,
                   final PipelineLifecycle<E> run) {
        this.pipeline = pipeline;
        this.lock = lock;
        this.graph = graph;
        this.run = run;
    }

    /** Adds stages after {@code upstream} (none: straight behind the producers); before start only. */
    StageGroup<E> addStages(final StageSpec<? super E>[] specs, final List<StageNode<E>> upstream) {
        Objects.requireNonNull(specs, "stage specs must not be null");
        if (specs.length == 0) {
            throw new IllegalArgumentException("at least one handler or stage spec is needed, got none");
        }
        synchronized (lock) {
            final RunState state = run.state();
            if (state != RunState.NEW) {
                throw new IllegalStateException("pipeline '" + pipeline.name() + "' is "
                        + (state == RunState.RUNNING ? "already started" : "stopped")
                        + ": its graph is fixed; use addHandler(...) or removeStage(...) while it runs");
            }
            for (final StageNode<E> node : upstream) {
                if (node.removed) {
                    throw new IllegalArgumentException("stage '" + node.name + "' was removed; stages cannot follow it");
                }
            }
            graph.checkSpecs(specs);
            final List<StageNode<E>> added = new ArrayList<>(specs.length);
            for (final StageSpec<? super E> spec : specs) {
                added.add(graph.add(spec, upstream, graph.startFor(upstream, false)));
            }
            return new StageGroup<>(pipeline, added);
        }
    }

    /** The union of groups of this pipeline. */
    StageGroup<E> after(final StageGroup<E>[] groups) {
        Objects.requireNonNull(groups, "groups must not be null");
        Arrays.stream(groups).forEach(this::checkOwnGroup);
        return selection(Arrays.stream(groups).flatMap(group -> group.nodes().stream()));
    }

    /** Stages of this pipeline, as a group. */
    StageGroup<E> after(final Stage[] stages) {
        Objects.requireNonNull(stages, "stages must not be null");
        return selection(Arrays.stream(stages).map(graph::ownNode));
    }

    /** The stages that run handlers of this pipeline, as a group. */
    StageGroup<E> afterHandlers(final EventHandler<? super E>[] handlers) {
        Objects.requireNonNull(handlers, "handlers must not be null");
        final List<StageNode<E>> selected = new ArrayList<>();
        synchronized (lock) {
            for (final EventHandler<? super E> handler : handlers) {
                final StageNode<E> node = graph.byHandler(Objects.requireNonNull(handler, "handler must not be null"));
                if (node == null) {
                    throw new IllegalArgumentException("handler " + handler + " is not in pipeline '" + pipeline.name()
                            + "'; add it before placing stages after it");
                }
                selected.add(node);
            }
        }
        return selection(selected.stream());
    }

    /** Refuses a group of another pipeline, naming both. */
    void checkOwnGroup(final StageGroup<E> group) {
        Objects.requireNonNull(group, "stage group must not be null");
        if (group.pipeline() != pipeline) {
            throw new IllegalArgumentException("stages " + group + " belong to pipeline '" + group.pipeline().name()
                    + "', not to '" + pipeline.name() + "'; a stage can only follow stages of its own pipeline");
        }
    }

    private StageGroup<E> selection(final Stream<StageNode<E>> nodes) {
        final List<StageNode<E>> selected = nodes.distinct().toList();
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("after(...) needs at least one stage of pipeline '"
                    + pipeline.name() + "'");
        }
        return new StageGroup<>(pipeline, selected);
    }

    /** One single-handler spec per handler. */
    @SafeVarargs
    static <E> StageSpec<? super E>[] specsOf(final EventHandler<? super E>... handlers) {
        Objects.requireNonNull(handlers, "handlers must not be null");
        @SuppressWarnings("unchecked")
        final StageSpec<? super E>[] specs = new StageSpec[handlers.length];
        for (int i = 0; i < handlers.length; i++) {
            specs[i] = StageSpec.of(Objects.requireNonNull(handlers[i], "handler " + i + " is null"));
        }
        return specs;
    }

    /** One pool spec over the workers. */
    @SafeVarargs
    static <E> StageSpec<? super E>[] poolSpecOf(final EventHandler<? super E>... workers) {
        return one(StageSpec.workerPool(workers));
    }

    /** A spec as the array the graph's checks take. */
    @SuppressWarnings("unchecked")
    static <E> StageSpec<? super E>[] one(final StageSpec<? super E> spec) {
        return new StageSpec[] {spec};
    }
}
