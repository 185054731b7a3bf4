package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import java.util.List;
import java.util.stream.Stream;

/**
 * One or more stages of a pipeline, as returned by the DSL, to place the next stages after.
 *
 * <pre>{@code
 * StageGroup<Order> decoded = pipeline.handleEventsWith(decoder);
 * StageGroup<Order> persisted = decoded.then(journal, replicator);   // both after decoder
 * persisted.then(matcher);                                           // after both
 * }</pre>
 *
 * @param <E> the event type
 */
public final class StageGroup<E> {
    private final Slipstream<E> pipeline;
    private final List<StageNode<E>> nodes;

    StageGroup(final Slipstream<E> pipeline, final List<StageNode<E>> nodes) {
        this.pipeline = pipeline;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Adds one stage per handler, each after every stage of this group.
     *
     * @param handlers the handlers, one stage each
     * @return the new stages
     * @throws IllegalArgumentException if a handler is already in the pipeline
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> then(final EventHandler<? super E>... handlers) {
        return pipeline.wiring().addStages(PipelineWiring.specsOf(handlers), nodes);
    }

    /**
     * Adds the given stages, each after every stage of this group.
     *
     * @param specs the stages
     * @return the new stages
     * @throws IllegalArgumentException if a handler is already in the pipeline, a name is taken,
     *     or a spec was used before
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> then(final StageSpec<? super E>... specs) {
        return pipeline.wiring().addStages(specs, nodes);
    }

    /**
     * Adds a work pool after every stage of this group.
     *
     * @param workers the workers' handlers, distinct instances
     * @return the pool stage
     * @throws IllegalArgumentException if a handler is already in the pipeline
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> thenWorkerPool(final EventHandler<? super E>... workers) {
        return pipeline.wiring().addStages(PipelineWiring.poolSpecOf(workers), nodes);
    }

    /**
     * Same as {@link #then(EventHandler[])}; reads well after {@code pipeline.after(...)}.
     *
     * @param handlers the handlers, one stage each
     * @return the new stages
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWith(final EventHandler<? super E>... handlers) {
        return then(handlers);
    }

    /**
     * Same as {@link #then(StageSpec[])}; reads well after {@code pipeline.after(...)}.
     *
     * @param specs the stages
     * @return the new stages
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWith(final StageSpec<? super E>... specs) {
        return then(specs);
    }

    /**
     * Same as {@link #thenWorkerPool(EventHandler[])}.
     *
     * @param workers the workers' handlers
     * @return the pool stage
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWithWorkerPool(final EventHandler<? super E>... workers) {
        return thenWorkerPool(workers);
    }

    /**
     * This group and another of the same pipeline, to place later stages after both.
     *
     * @param other the other group
     * @return the union
     * @throws IllegalArgumentException if {@code other} belongs to another pipeline
     */
    public StageGroup<E> and(final StageGroup<E> other) {
        pipeline.wiring().checkOwnGroup(other);
        return new StageGroup<>(pipeline, Stream.concat(nodes.stream(), other.nodes.stream()).distinct().toList());
    }

    /**
     * The stages of this group.
     *
     * @return the stages
     */
    public List<Stage> stages() {
        return List.copyOf(nodes);
    }

    /**
     * The only stage of this group.
     *
     * @return the stage
     * @throws IllegalStateException if the group has more than one stage
     */
    public Stage stage() {
        if (nodes.size() != 1) {
            throw new IllegalStateException("this group has " + nodes.size() + " stages " + names()
                    + "; stage() needs exactly one, use stages()");
        }
        return nodes.get(0);
    }

    Slipstream<E> pipeline() {
        return pipeline;
    }

    List<StageNode<E>> nodes() {
        return nodes;
    }

    private List<String> names() {
        return nodes.stream().map(node -> node.name).toList();
    }

    @Override
    public String toString() {
        return "StageGroup" + names();
    }
}
