package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

/**
 * The pipeline's graph: its stages, their edges, validation of every change, the gate the
 * producers wait on (the leaf stages), and its description. No threads: every method runs under
 * the pipeline's lock, except the snapshot getters.
 *
 * <p>The gate holds the producers from the moment the pipeline exists: with no stage it stays at
 * the last sequence a stage finished (-1 at first), so events published before the first stage
 * exists wait in the ring (and a full ring blocks its producers) until a stage reads them.
 *
 * @param <E> the event type
 */
final class PipelineGraph<E> {
    private final Slipstream<E> pipeline;
    private final RingBuffer<E> ring;
    private final SignalFanOut signal;
    private final LeafGate gate = new LeafGate();
    private final ThreadFactory defaultThreadFactory;
    private final ExceptionHandler<? super E> defaultExceptionHandler;
    private final List<StageNode<E>> nodes = new ArrayList<>();
    private final Map<String, StageNode<E>> nodesByName = new HashMap<>();
    private final Map<Object, StageNode<E>> nodesByHandler = new IdentityHashMap<>();
    /** Read without the lock by failure handling, metrics and drain accounting. */
    private volatile List<StageNode<E>> snapshot = List.of();
    private int unnamedStages;

    PipelineGraph(final Slipstream<E> pipeline, final RingBuffer<E> ring, final SignalFanOut signal,
                  final ThreadFactory defaultThreadFactory, final ExceptionHandler<? super E> defaultExceptionHandler) {
        this.pipeline = pipeline;
        this.ring = ring;
        this.signal = signal;
        this.defaultThreadFactory = defaultThreadFactory;
        this.defaultExceptionHandler = defaultExceptionHandler;
        // the gate is a view: registering it sets nothing; it holds at -1 until the first stage
        ring.addGatingSequences(gate);
    }

    List<StageNode<E>> nodes() {
        return nodes;
    }

    List<StageNode<E>> snapshot() {
        return snapshot;
    }

    StageNode<E> byHandler(final Object handler) {
        return nodesByHandler.get(handler);
    }

    /**
     * The node behind a stage of this pipeline still in the graph; no lock (reads the volatile {@code removed}).
     *
     * @throws IllegalArgumentException if the stage belongs to another pipeline or was removed
     */
    StageNode<E> ownNode(final Stage stage) {
        Objects.requireNonNull(stage, "stage must not be null");
        if (!(stage instanceof StageNode) || ((StageNode<?>) stage).pipeline != pipeline) {
            final String owner = stage instanceof StageNode ? ((StageNode<?>) stage).pipeline.name() : "unknown";
            throw new IllegalArgumentException("stage '" + stage.name() + "' belongs to pipeline '" + owner
                    + "', not to '" + pipeline.name() + "'");
        }
        @SuppressWarnings("unchecked")
        final StageNode<E> node = (StageNode<E>) stage;
        if (node.removed) {
            throw new IllegalArgumentException("stage '" + node.name + "' was removed from pipeline '"
                    + pipeline.name() + "'");
        }
        return node;
    }

    /**
     * The stage of the given name, from the snapshot (no lock).
     *
     * @throws IllegalArgumentException if there is no such stage
     */
    StageNode<E> stageNamed(final String stageName) {
        for (final StageNode<E> node : snapshot) {
            if (node.name.equals(stageName)) {
                return node;
            }
        }
        throw new IllegalArgumentException("pipeline '" + pipeline.name() + "' has no stage named '" + stageName + "'");
    }

    /** Checks every spec before anything is added, so a bad one adds nothing and marks no spec used. */
    void checkSpecs(final StageSpec<? super E>[] specs) {
        final Map<Object, Boolean> handlers = new IdentityHashMap<>();
        final List<String> names = new ArrayList<>();
        final String name = pipeline.name();
        for (int i = 0; i < specs.length; i++) {
            final StageSpec<? super E> spec = Objects.requireNonNull(specs[i], "stage spec " + i + " is null");
            spec.checkUnused();
            for (final EventHandler<?> handler : spec.handlers) {
                final StageNode<E> existing = nodesByHandler.get(handler);
                if (existing != null) {
                    throw new IllegalArgumentException("handler " + handler + " is already in pipeline '" + name
                            + "' (stage '" + existing.name + "'); a handler instance can be added once"
                            + HandlerOwners.sharedObjectHint(handler));
                }
                if (handlers.put(handler, Boolean.TRUE) != null) {
                    throw new IllegalArgumentException("handler " + handler + " is given twice; a handler instance"
                            + " can be added once" + HandlerOwners.sharedObjectHint(handler));
                }
                HandlerOwners.check(handler, pipeline);
            }
            if (spec.name != null) {
                if (nodesByName.containsKey(spec.name) || names.contains(spec.name)) {
                    throw new IllegalArgumentException("stage name '" + spec.name + "' is already used in pipeline '"
                            + name + "'; stage names must be unique");
                }
                names.add(spec.name);
            }
        }
    }

    /** Creates, wires and gates a checked stage starting after {@code start}; no threads yet. */
    StageNode<E> add(final StageSpec<? super E> spec, final List<StageNode<E>> upstream, final long start) {
        final String stageName = spec.name != null ? spec.name : defaultName(spec);
        final Sequence[] upstreamSequences = sequencesOf(upstream.stream());
        final WaitStrategy own = spec.waitStrategy != null && spec.waitStrategy != signal.primary()
                ? spec.waitStrategy : null;
        final SequenceBarrier barrier = own != null
                ? ring.sequencer().newBarrier(own, upstreamSequences)
                : ring.newBarrier(upstreamSequences);
        final ExceptionHandler<? super E> chosen = spec.exceptionHandler != null ? spec.exceptionHandler
                : defaultExceptionHandler != null ? defaultExceptionHandler
                : ExceptionHandlers.logAndContinue();
        // per stage: its own name and log summary; the pipeline logs a stop, once
        final TrackingExceptionHandler<E> exceptionHandler =
                new TrackingExceptionHandler<>(chosen.forStage(pipeline.name() + "/" + stageName));
        final StageNode<E> node = spec.isWorkerPool()
                ? new PoolNode<>(pipeline, stageName, upstream, own, barrier, spec, exceptionHandler)
                : new HandlerNode<>(pipeline, stageName, upstream, own, barrier, spec, exceptionHandler);
        node.threadFactory = spec.threadFactory != null ? spec.threadFactory : defaultThreadFactory;
        node.startAfter(start);
        spec.markUsed();
        if (own != null) {
            signal.add(own);
        }
        upstream.forEach(up -> up.downstreamNodes.add(node));
        nodes.add(node);
        nodesByName.put(stageName, node);
        for (final Object handler : node.handlerObjects()) {
            nodesByHandler.put(handler, node);
            HandlerOwners.claim(handler, pipeline, stageName);
        }
        updateGate();
        return node;
    }

    /**
     * Where a new stage starts: behind its upstream stages; else, before start, at the oldest slot
     * held back (so it sees what was published before any stage existed); else at the cursor, or
     * where the last stage stopped if none is left.
     */
    long startFor(final List<StageNode<E>> upstream, final boolean running) {
        if (upstream.isEmpty()) {
            return !running ? ring.getMinimumGatingSequence() : nodes.isEmpty() ? gate.floor() : ring.getCursor();
        }
        return upstream.stream().mapToLong(StageNode::sequence).min().getAsLong();
    }

    /** Takes a stopped, joined stage out of the graph; the stages it followed gate the producers again. */
    void remove(final StageNode<E> node) {
        node.removed = true; // ownNode() refuses it from now on
        nodes.remove(node);
        nodesByName.remove(node.name);
        for (final Object handler : node.handlerObjects()) {
            nodesByHandler.remove(handler);
            HandlerOwners.release(handler, pipeline);
        }
        node.upstreamNodes.forEach(up -> up.downstreamNodes.remove(node));
        if (node.ownWaitStrategy != null) {
            signal.remove(node.ownWaitStrategy);
        }
        // its upstream stages are at or past it, so gating on them is safe
        gate.holdAt(node.sequence());
        updateGate();
    }

    /** Gives every handler back to the other pipelines: the pipeline stopped. */
    void releaseHandlers() {
        nodesByHandler.keySet().forEach(handler -> HandlerOwners.release(handler, pipeline));
    }

    /** Gates the producers on every stage that no other stage follows. */
    private void updateGate() {
        gate.setLeaves(sequencesOf(nodes.stream().filter(node -> node.downstreamNodes.isEmpty())));
        // immutable lists: readers without the lock see whole, current snapshots
        snapshot = List.copyOf(nodes);
    }

    private String defaultName(final StageSpec<?> spec) {
        final String base;
        if (spec.isWorkerPool()) {
            base = "pool";
        } else {
            final Class<?> type = spec.handlers.get(0).getClass();
            final String simple = type.getSimpleName();
            base = type.isAnonymousClass() || type.isSynthetic() || simple.isEmpty() || simple.contains("$")
                    ? "stage" : simple;
        }
        String candidate;
        do {
            unnamedStages++;
            candidate = base + "-" + unnamedStages;
        } while (nodesByName.containsKey(candidate));
        return candidate;
    }

    /** Per stage, in the stage's own order (a pool's work sequence before its workers'). */
    private static <E> Sequence[] sequencesOf(final Stream<StageNode<E>> stages) {
        return stages.flatMap(node -> Arrays.stream(node.sequences())).toArray(Sequence[]::new);
    }

    /** The graph: stage names and edges. */
    TopologyDescription describe(final String producerType) {
        final List<TopologyDescription.StageInfo> stages = new ArrayList<>();
        final List<TopologyDescription.Edge> edges = new ArrayList<>();
        final String ringNode = pipeline.name() + ".ring";
        for (final StageNode<E> node : nodes) {
            stages.add(new TopologyDescription.StageInfo(node.name, node.isWorkerPool(), node.workers()));
            if (node.upstreamNodes.isEmpty()) {
                edges.add(new TopologyDescription.Edge(ringNode, node.name));
            }
            node.upstreamNodes.forEach(up -> edges.add(new TopologyDescription.Edge(up.name, node.name)));
        }
        return new TopologyDescription(pipeline.name(), ring.getBufferSize(), producerType, stages, edges);
    }
}
