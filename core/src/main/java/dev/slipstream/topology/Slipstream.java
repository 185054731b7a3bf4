package dev.slipstream.topology;

import dev.slipstream.monitor.JfrMonitoring;
import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.EventFactory;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.ring.EventTranslatorThreeArg;
import dev.slipstream.ring.EventTranslatorTwoArg;
import dev.slipstream.ring.EventTranslatorVararg;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A pipeline: one ring buffer, the stages that read it, and their threads, wired with a fluent
 * DSL and run with a lifecycle that loses nothing.
 *
 * <pre>{@code
 * try (Slipstream<Order> pipeline = Slipstream.builder(Order::new)
 *         .name("orders").ringSize(4096).producers(ProducerType.MULTI)
 *         .waitStrategy(new YieldingWaitStrategy())
 *         .build()) {
 *     StageGroup<Order> decoded = pipeline.handleEventsWith(StageSpec.of("decode", decoder));
 *     StageGroup<Order> persisted = decoded.then(journal, replicator);     // multicast after decode
 *     pipeline.after(persisted).handleEventsWith(matcher);                 // diamond: after both
 *     pipeline.start();
 *     pipeline.publishEvent((order, seq, line) -> order.parse(line), "BUY 100 ACME");
 *     ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));  // drains every stage
 * }
 * }</pre>
 *
 * <h2>Graph</h2>
 * {@link #handleEventsWith} adds stages that read straight behind the producers (each sees every
 * event: multicast); {@link StageGroup#then} places stages after others (pipeline); {@link #after}
 * places them after any set of stages (diamond, any DAG); worker pools ({@link
 * #handleEventsWithWorkerPool}, {@link StageGroup#thenWorkerPool}) hand each event to exactly one
 * worker. Every stage gates the producers from the moment it is added, so events published before
 * {@link #start()} wait for it. The graph is checked as it is built: a handler instance added twice,
 * a stage name used twice, a stage of another pipeline, or a change after start is refused with an
 * exception that says so. While running, {@link #addHandler} adds a stage at the current cursor and
 * {@link #removeStage} removes one; {@link #describe()} shows the graph.
 *
 * <h2>Lifecycle</h2>
 * {@link #start()} once. {@link #shutdown(Duration)} closes the ring (later publications throw
 * {@link SequencerClosedException}), waits without spinning until every stage has finished every
 * event published before the call, stops and joins the threads, and reports what was left if the
 * time ran out. {@link #halt()} stops at once. {@link #close()} shuts down with
 * {@link #DEFAULT_CLOSE_TIMEOUT}. If a stage's exception handler gives up (rethrows), the pipeline
 * stops: the ring closes, so producers waiting for space get {@link SequencerClosedException}
 * instead of waiting forever, and the other stages halt; {@link #failures()} says why.
 *
 * @param <E> the event type
 */
public final class Slipstream<E> implements AutoCloseable {
    /** How long {@link #close()} lets the stages drain. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** How long {@link #halt()} and {@link #removeStage} wait for threads to end. */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(10);
    /** Extra time a shutdown that ran out of time gives the halted threads to end. */
    private static final long JOIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MAX_DRAIN_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long a drained shutdown waits for claims made just before the close to be published. */
    private static final long LATE_PUBLISH_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final System.Logger LOG = System.getLogger(Slipstream.class.getName());

    private static final int NEW = 0;
    private static final int STARTED = 1;
    private static final int STOPPED = 2;

    private final String name;
    private final RingBuffer<E> ring;
    private final ProducerType producerType;
    private final SignalFanOut signal;
    private final LeafGate gate = new LeafGate();
    private final ThreadFactory threadFactory;
    private final ExceptionHandler<? super E> defaultExceptionHandler;
    private final Duration stallThreshold;
    private final Metrics metrics = new Metrics();

    /** Guards the graph and lifecycle changes; never taken by stage threads or producers. */
    private final Object lock = new Object();
    private final List<StageNode<E>> nodes = new ArrayList<>();
    private final Map<String, StageNode<E>> nodesByName = new HashMap<>();
    private final Map<Object, StageNode<E>> nodesByHandler = new IdentityHashMap<>();
    /** Read without the lock by failure handling and metrics. */
    private volatile List<StageNode<E>> nodeSnapshot = List.of();
    private volatile List<StageMetrics> metricsSnapshot = List.of();
    private volatile int state = NEW;
    /** Set when shutdown or halt begins: from then on a stage thread that ends is no failure. */
    private volatile boolean stopping;
    private final AtomicBoolean failed = new AtomicBoolean();
    private final List<StageFailure> failures = new CopyOnWriteArrayList<>();
    private JfrMonitoring.Registration jfr;
    private ShutdownResult result;
    private int unnamedStages;

    private Slipstream(final Builder<E> builder) {
        this.name = builder.name;
        this.producerType = builder.producerType;
        this.signal = new SignalFanOut(builder.waitStrategy != null ? builder.waitStrategy : defaultWaitStrategy());
        this.ring = RingBuffer.create(producerType, builder.factory, builder.ringSize, signal,
                builder.producerWaitStrategy != null ? builder.producerWaitStrategy
                        : ProducerWaitStrategies.defaultStrategy());
        this.threadFactory = builder.threadFactory;
        this.defaultExceptionHandler = builder.exceptionHandler;
        this.stallThreshold = builder.stallThreshold;
        // the gate is a view: registering it sets nothing; the pipeline sets each stage's start
        ring.addGatingSequences(gate);
    }

    /** Spin briefly, yield, then park: fast wake-up without burning a core while idle. */
    private static WaitStrategy defaultWaitStrategy() {
        return new HybridWaitStrategy();
    }

    /**
     * Starts building a pipeline whose ring is filled by {@code factory}.
     *
     * @param factory creates each slot's event once
     * @param <E> the event type
     * @return a builder
     * @throws NullPointerException if {@code factory} is null
     */
    public static <E> Builder<E> builder(final EventFactory<E> factory) {
        return new Builder<>(Objects.requireNonNull(factory, "factory must not be null"));
    }

    // ===================================================================================== graph

    /**
     * Adds one stage per handler, each reading straight behind the producers: every stage sees
     * every event (multicast).
     *
     * @param handlers the handlers, one stage (and thread) each
     * @return the new stages
     * @throws IllegalArgumentException if a handler is null or already in this pipeline
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWith(final EventHandler<? super E>... handlers) {
        return addStages(specsOf(handlers), List.of());
    }

    /**
     * Adds the given stages, each reading straight behind the producers.
     *
     * @param specs the stages with their settings
     * @return the new stages
     * @throws IllegalArgumentException if a handler is already in this pipeline, a name is taken,
     *     or a spec was used before
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWith(final StageSpec<? super E>... specs) {
        return addStages(specs, List.of());
    }

    /**
     * Adds a work pool reading straight behind the producers: each event goes to exactly one of
     * the workers.
     *
     * @param workers the workers' handlers, distinct instances
     * @return the pool stage
     * @throws IllegalArgumentException if a handler is null, given twice or already in this pipeline
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWithWorkerPool(final EventHandler<? super E>... workers) {
        return addStages(poolSpecOf(workers), List.of());
    }

    /**
     * Selects stages to place new stages after: {@code after(a, b).handleEventsWith(c)} makes
     * {@code c} read an event only after both {@code a} and {@code b} have finished it.
     *
     * @param groups groups of this pipeline
     * @return their union
     * @throws IllegalArgumentException if a group belongs to another pipeline or none is given
     */
    @SafeVarargs
    public final StageGroup<E> after(final StageGroup<E>... groups) {
        Objects.requireNonNull(groups, "groups must not be null");
        final List<StageNode<E>> selected = new ArrayList<>();
        for (final StageGroup<E> group : groups) {
            checkOwnGroup(group);
            for (final StageNode<E> node : group.nodes()) {
                if (!selected.contains(node)) {
                    selected.add(node);
                }
            }
        }
        return selection(selected);
    }

    /**
     * Selects stages to place new stages after.
     *
     * @param stages stages of this pipeline
     * @return them, as a group
     * @throws IllegalArgumentException if a stage belongs to another pipeline, was removed, or none
     *     is given
     */
    public StageGroup<E> after(final Stage... stages) {
        Objects.requireNonNull(stages, "stages must not be null");
        final List<StageNode<E>> selected = new ArrayList<>();
        for (final Stage stage : stages) {
            final StageNode<E> node = ownNode(stage);
            if (!selected.contains(node)) {
                selected.add(node);
            }
        }
        return selection(selected);
    }

    /**
     * Selects the stages that run the given handlers, to place new stages after them.
     *
     * @param handlers handlers already in this pipeline
     * @return their stages, as a group
     * @throws IllegalArgumentException if a handler is not in this pipeline, or none is given
     */
    @SafeVarargs
    public final StageGroup<E> after(final EventHandler<? super E>... handlers) {
        Objects.requireNonNull(handlers, "handlers must not be null");
        final List<StageNode<E>> selected = new ArrayList<>();
        synchronized (lock) {
            for (final EventHandler<? super E> handler : handlers) {
                final StageNode<E> node = nodesByHandler.get(Objects.requireNonNull(handler, "handler must not be null"));
                if (node == null) {
                    throw new IllegalArgumentException("handler " + handler + " is not in pipeline '" + name
                            + "'; add it before placing stages after it");
                }
                if (!selected.contains(node)) {
                    selected.add(node);
                }
            }
        }
        return selection(selected);
    }

    private StageGroup<E> selection(final List<StageNode<E>> selected) {
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("after(...) needs at least one stage of pipeline '" + name + "'");
        }
        return new StageGroup<>(this, selected);
    }

    /**
     * Adds a stage that reads straight behind the producers. While running it starts at the
     * current cursor (it sees events published from now on) and gates producers from then on;
     * before {@link #start()} it is the same as {@link #handleEventsWith(EventHandler[])}.
     *
     * @param handler the handler
     * @return the new stage
     * @throws IllegalArgumentException if the handler is already in this pipeline
     * @throws IllegalStateException if the pipeline is stopped
     */
    public Stage addHandler(final EventHandler<? super E> handler) {
        return addHandler(StageSpec.of(handler));
    }

    /**
     * Adds a stage that reads straight behind the producers, with its settings. While running it
     * starts at the current cursor.
     *
     * @param spec the stage
     * @return the new stage
     * @throws IllegalArgumentException if a handler is already in this pipeline or the name is taken
     * @throws IllegalStateException if the pipeline is stopped
     */
    public Stage addHandler(final StageSpec<? super E> spec) {
        Objects.requireNonNull(spec, "spec must not be null");
        synchronized (lock) {
            if (state == NEW) {
                return addStages(toArray(spec), List.of()).stage();
            }
            checkRunningForChange("add a handler");
            final StageNode<E> node = createNode(spec, List.of());
            // the gate now includes the new stage (at the cursor read in createNode); read the cursor
            // again: producers that missed the new gate claimed at most up to this value
            node.startAfter(ring.getCursor());
            startThreads(node);
            return node;
        }
    }

    /**
     * Removes a stage while running (or before start): it stops after its current batch and no
     * longer gates the producers; the stages it followed gate them again if nothing else follows
     * them. Stages that follow it must be removed first.
     *
     * @param stage a stage of this pipeline
     * @return how many of the events published when it was asked to stop it did not finish
     * @throws IllegalArgumentException if the stage belongs to another pipeline, was already
     *     removed, or other stages follow it
     * @throws IllegalStateException if the pipeline is stopped, or the stage's threads did not end
     *     within {@link #DEFAULT_JOIN_TIMEOUT}
     */
    public long removeStage(final Stage stage) {
        final StageNode<E> node = ownNode(stage);
        synchronized (lock) {
            if (state == STOPPED || stopping) {
                throw new IllegalStateException("pipeline '" + name + "' is stopped: stages can no longer be removed");
            }
            final List<String> followers = new ArrayList<>();
            for (final StageNode<E> down : node.downstreamNodes) {
                followers.add(down.name);
            }
            if (!followers.isEmpty()) {
                throw new IllegalArgumentException("stage '" + node.name + "' is followed by " + followers
                        + "; remove those stages first");
            }
            // volatile store: the stage's thread, ending after the halt below, sees it and reports no failure
            node.removed = true;
            nodes.remove(node);
            nodesByName.remove(node.name);
            for (final Object handler : node.handlerObjects()) {
                nodesByHandler.remove(handler);
            }
            for (final StageNode<E> up : node.upstreamNodes) {
                up.downstreamNodes.remove(node);
            }
            // the stages it followed are at or past it, so gating on them instead is safe
            updateGate();
            updateSnapshots();
            final long published = Math.max(highestPublished(), node.sequence());
            node.halt();
            final List<String> alive = joinThreads(List.of(node), System.nanoTime() + DEFAULT_JOIN_TIMEOUT.toNanos());
            if (node.ownWaitStrategy != null) {
                signal.remove(node.ownWaitStrategy);
            }
            final long left = Math.max(0L, published - node.sequence());
            if (!alive.isEmpty()) {
                throw new IllegalStateException("stage '" + node.name + "' was removed but its threads " + alive
                        + " did not end within " + DEFAULT_JOIN_TIMEOUT);
            }
            return left;
        }
    }

    /**
     * Removes the stage that runs {@code handler} (for a pool, any of its workers' handlers).
     *
     * @param handler a handler of this pipeline
     * @return how many published events the stage had not finished
     * @throws IllegalArgumentException if no stage of this pipeline runs the handler, or others
     *     follow it
     * @throws IllegalStateException if the pipeline is stopped
     */
    public long removeHandler(final EventHandler<?> handler) {
        Objects.requireNonNull(handler, "handler must not be null");
        final StageNode<E> node;
        synchronized (lock) {
            node = nodesByHandler.get(handler);
        }
        if (node == null) {
            throw new IllegalArgumentException("handler " + handler + " is not in pipeline '" + name + "'");
        }
        return removeStage(node);
    }

    StageGroup<E> addStages(final StageSpec<? super E>[] specs, final List<StageNode<E>> upstream) {
        Objects.requireNonNull(specs, "stage specs must not be null");
        if (specs.length == 0) {
            throw new IllegalArgumentException("at least one handler or stage spec is needed, got none");
        }
        synchronized (lock) {
            if (state != NEW) {
                throw new IllegalStateException("pipeline '" + name + "' is "
                        + (state == STARTED ? "already started" : "stopped")
                        + ": its graph is fixed; use addHandler(...) or removeStage(...) while it runs");
            }
            for (final StageNode<E> node : upstream) {
                if (node.removed) {
                    throw new IllegalArgumentException("stage '" + node.name + "' was removed; stages cannot follow it");
                }
            }
            checkSpecs(specs);
            final List<StageNode<E>> added = new ArrayList<>(specs.length);
            for (final StageSpec<? super E> spec : specs) {
                added.add(createNode(spec, upstream));
            }
            return new StageGroup<>(this, added);
        }
    }

    /** Checks every spec before adding any, so a bad one adds nothing. */
    private void checkSpecs(final StageSpec<? super E>[] specs) {
        final Map<Object, Boolean> handlers = new IdentityHashMap<>();
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            final StageSpec<? super E> spec = Objects.requireNonNull(specs[i], "stage spec " + i + " is null");
            for (final EventHandler<?> handler : spec.handlers()) {
                final StageNode<E> existing = nodesByHandler.get(handler);
                if (existing != null) {
                    throw new IllegalArgumentException("handler " + handler + " is already in pipeline '" + name
                            + "' (stage '" + existing.name + "'); a handler instance can be added once");
                }
                if (handlers.put(handler, Boolean.TRUE) != null) {
                    throw new IllegalArgumentException("handler " + handler + " is given twice; a handler instance"
                            + " can be added once");
                }
            }
            if (spec.name() != null) {
                if (nodesByName.containsKey(spec.name()) || names.contains(spec.name())) {
                    throw new IllegalArgumentException("stage name '" + spec.name() + "' is already used in pipeline '"
                            + name + "'; stage names must be unique");
                }
                names.add(spec.name());
            }
        }
        for (final StageSpec<? super E> spec : specs) {
            spec.markUsed();
        }
    }

    /** Creates, wires and gates a stage; under the lock. Starts after the right sequence, threads not started. */
    private StageNode<E> createNode(final StageSpec<? super E> spec, final List<StageNode<E>> upstream) {
        if (state != NEW) {
            checkSpecs(toArray(spec));
        }
        final String stageName = spec.name() != null ? spec.name() : defaultName(spec);
        final Sequence[] upstreamSequences = sequencesOf(upstream);
        final WaitStrategy own = spec.waitStrategy() != null && spec.waitStrategy() != signal.primary()
                ? spec.waitStrategy() : null;
        final SequenceBarrier barrier = own != null
                ? new StageBarrier(ring.sequencer(), own, upstreamSequences)
                : ring.newBarrier(upstreamSequences);
        final ExceptionHandler<? super E> chosen = spec.exceptionHandler() != null ? spec.exceptionHandler()
                : defaultExceptionHandler != null ? defaultExceptionHandler
                : ExceptionHandlers.logAndContinue(name + "/" + stageName);
        final TrackingExceptionHandler<E> exceptionHandler = new TrackingExceptionHandler<>(chosen);
        final StageNode<E> node = spec.isWorkerPool()
                ? new PoolNode<>(this, stageName, upstream, own, barrier, spec, exceptionHandler)
                : new HandlerNode<>(this, stageName, upstream, own, barrier, spec, exceptionHandler);
        node.threadFactory = spec.threadFactory() != null ? spec.threadFactory() : threadFactory;

        // where it starts: behind its upstream stages, or (a first stage) at the oldest slot still
        // protected, so that a stage added before start sees what the others will see
        long start;
        if (upstream.isEmpty()) {
            start = state == NEW ? ring.getMinimumGatingSequence() : ring.getCursor();
        } else {
            start = Long.MAX_VALUE;
            for (final StageNode<E> up : upstream) {
                start = Math.min(start, up.sequence());
            }
        }
        node.startAfter(start);

        if (own != null) {
            signal.add(own);
        }
        for (final StageNode<E> up : upstream) {
            up.downstreamNodes.add(node);
        }
        nodes.add(node);
        nodesByName.put(stageName, node);
        for (final Object handler : node.handlerObjects()) {
            nodesByHandler.put(handler, node);
        }
        updateGate();
        updateSnapshots();
        return node;
    }

    private String defaultName(final StageSpec<?> spec) {
        String base;
        if (spec.isWorkerPool()) {
            base = "pool";
        } else {
            final Class<?> type = spec.handlers().get(0).getClass();
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

    /** Gates the producers on every stage that no other stage follows; under the lock. */
    private void updateGate() {
        final List<Sequence> leaves = new ArrayList<>();
        for (final StageNode<E> node : nodes) {
            if (node.downstreamNodes.isEmpty()) {
                Collections.addAll(leaves, node.sequences());
            }
        }
        gate.setLeaves(leaves.toArray(new Sequence[0]));
    }

    private void updateSnapshots() {
        // volatile stores of immutable lists: readers without the lock see whole, current snapshots
        nodeSnapshot = List.copyOf(nodes);
        metricsSnapshot = List.copyOf(nodes);
    }

    private static <E> Sequence[] sequencesOf(final List<StageNode<E>> stages) {
        final List<Sequence> sequences = new ArrayList<>();
        for (final StageNode<E> node : stages) {
            // per stage, in the stage's own order (a pool's work sequence before its workers')
            Collections.addAll(sequences, node.sequences());
        }
        return sequences.toArray(new Sequence[0]);
    }

    void checkOwnGroup(final StageGroup<E> group) {
        Objects.requireNonNull(group, "stage group must not be null");
        if (group.pipeline() != this) {
            throw new IllegalArgumentException("stages " + group + " belong to pipeline '" + group.pipeline().name()
                    + "', not to '" + name + "'; a stage can only follow stages of its own pipeline");
        }
    }

    private StageNode<E> ownNode(final Stage stage) {
        Objects.requireNonNull(stage, "stage must not be null");
        if (!(stage instanceof StageNode) || ((StageNode<?>) stage).pipeline != this) {
            final String owner = stage instanceof StageNode ? ((StageNode<?>) stage).pipeline.name() : "unknown";
            throw new IllegalArgumentException("stage '" + stage.name() + "' belongs to pipeline '" + owner
                    + "', not to '" + name + "'");
        }
        @SuppressWarnings("unchecked")
        final StageNode<E> node = (StageNode<E>) stage;
        if (node.removed) {
            throw new IllegalArgumentException("stage '" + node.name + "' was removed from pipeline '" + name + "'");
        }
        return node;
    }

    private void checkRunningForChange(final String what) {
        if (state == STOPPED || stopping || failed.get()) {
            throw new IllegalStateException("pipeline '" + name + "' is stopped: cannot " + what);
        }
    }

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

    @SafeVarargs
    static <E> StageSpec<? super E>[] poolSpecOf(final EventHandler<? super E>... workers) {
        return toArray(StageSpec.workerPool(workers));
    }

    @SuppressWarnings("unchecked")
    private static <E> StageSpec<? super E>[] toArray(final StageSpec<? super E> spec) {
        final StageSpec<? super E>[] specs = new StageSpec[1];
        specs[0] = spec;
        return specs;
    }

    // ================================================================================= lifecycle

    /**
     * Starts every stage's threads.
     *
     * @throws IllegalStateException if already started or stopped, or there is no stage
     */
    public void start() {
        synchronized (lock) {
            if (state != NEW) {
                throw new IllegalStateException("pipeline '" + name + "' was already "
                        + (state == STARTED ? "started" : "stopped") + "; start() may be called once");
            }
            if (nodes.isEmpty()) {
                throw new IllegalStateException("pipeline '" + name
                        + "' has no stages: add one with handleEventsWith(...) before start()");
            }
            for (final StageNode<E> node : nodes) {
                createThreads(node);
            }
            // volatile store: read without the lock by isRunning() and toString()
            state = STARTED;
            jfr = JfrMonitoring.register(metrics, stallThreshold);
            for (final StageNode<E> node : nodes) {
                for (final Thread thread : node.threads) {
                    thread.start();
                }
            }
        }
    }

    private void startThreads(final StageNode<E> node) {
        createThreads(node);
        for (final Thread thread : node.threads) {
            thread.start();
        }
    }

    private void createThreads(final StageNode<E> node) {
        final Runnable[] bodies = node.runnables();
        node.threads.clear();
        for (int i = 0; i < bodies.length; i++) {
            final Thread thread = node.threadFactory.newThread(new StageRunnable(node, bodies[i]));
            if (thread == null) {
                throw new IllegalStateException("the thread factory of stage '" + node.name + "' returned null");
            }
            thread.setName(bodies.length == 1 ? name + "-" + node.name : name + "-" + node.name + "-" + i);
            node.threads.add(thread);
        }
    }

    /**
     * Stops accepting events and drains: closes the ring (publishing afterwards throws
     * {@link SequencerClosedException}), waits until every stage has finished every event
     * published before the call (stages whose threads have not begun running yet included), then
     * stops and joins the threads. Waits by parking, never spinning. Calling it again returns
     * the first result.
     *
     * <p>Call it from a thread that is not one of the pipeline's: a stage that shuts its own
     * pipeline down cannot drain while it waits (use {@link #halt()} there).
     *
     * @param timeout how long to wait for the stages to drain; after it they are halted and given
     *     up to one more second to end
     * @return whether everything drained and, if not, how many events each stage left
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public ShutdownResult shutdown(final Duration timeout) {
        QueueWorkerPool.checkTimeout(timeout);
        return stop(false, timeout);
    }

    /**
     * Stops at once: closes the ring, halts every stage after its current batch, joins the threads
     * (up to {@link #DEFAULT_JOIN_TIMEOUT}) and reports how many events each stage left.
     *
     * @return what was left
     */
    public ShutdownResult halt() {
        return stop(true, Duration.ZERO);
    }

    /**
     * Shuts down with {@link #DEFAULT_CLOSE_TIMEOUT}, for try-with-resources; logs a warning if
     * something was left behind ({@link #shutdown(Duration)} returns the details).
     */
    @Override
    public void close() {
        final ShutdownResult outcome = shutdown(DEFAULT_CLOSE_TIMEOUT);
        if (!outcome.isClean()) {
            LOG.log(System.Logger.Level.WARNING, outcome.toString());
        }
    }

    private ShutdownResult stop(final boolean halt, final Duration timeout) {
        synchronized (lock) {
            if (result != null) {
                return result;
            }
            final long startNanos = System.nanoTime();
            // volatile store: stage threads that end from now on are stopping, not failing
            stopping = true;
            final List<StageNode<E>> stages = new ArrayList<>(nodes);
            final boolean wasStarted = state == STARTED;
            final StageFailure firstFailure = failures.isEmpty() ? null : failures.get(0);
            ring.close("pipeline '" + name + "' " + (firstFailure != null ? "stopped after a failure: " + firstFailure
                    : halt ? "was halted" : "is shut down"));

            long target = highestPublished();
            final long drainDeadline = startNanos + timeout.toNanos();
            if (wasStarted && !halt) {
                target = awaitDrained(stages, target, drainDeadline);
            }
            final List<String> alive;
            if (wasStarted) {
                for (final StageNode<E> node : stages) {
                    node.halt();
                }
                final long now = System.nanoTime();
                final long joinDeadline = halt ? now + DEFAULT_JOIN_TIMEOUT.toNanos()
                        : Math.max(drainDeadline, now + Math.min(JOIN_GRACE_NANOS, DEFAULT_JOIN_TIMEOUT.toNanos()));
                alive = joinThreads(stages, joinDeadline);
            } else {
                alive = List.of();
            }
            if (jfr != null) {
                jfr.close();
                jfr = null;
            }
            final Map<String, Long> left = new LinkedHashMap<>();
            for (final StageNode<E> node : stages) {
                left.put(node.name, Math.max(0L, target - node.sequence()));
            }
            state = STOPPED;
            result = new ShutdownResult(name, halt, target, left, alive, new ArrayList<>(failures),
                    Duration.ofNanos(System.nanoTime() - startNanos));
            return result;
        }
    }

    /** Parks until every stage reached the target (re-read, for claims published late) or time is up. */
    private long awaitDrained(final List<StageNode<E>> stages, final long initialTarget, final long deadline) {
        long target = initialTarget;
        boolean inGrace = false;
        long graceDeadline = 0;
        long parkNanos = TimeUnit.MICROSECONDS.toNanos(10);
        while (true) {
            boolean drained = true;
            for (final StageNode<E> node : stages) {
                if (node.sequence() < target) {
                    drained = false;
                    break;
                }
            }
            if (drained) {
                final long later = highestPublished();
                if (later > target) {
                    // a claim made just before the close was published since: drain it too
                    target = later;
                    continue;
                }
                if (ring.getCursor() <= target || inGrace && graceDeadline - System.nanoTime() <= 0) {
                    return target;
                }
                // many producers: a claim made just before the close may still be being written;
                // give it a moment (a producer waiting for space when the ring closed abandons its
                // claim, so this cannot wait for every claim)
                if (!inGrace) {
                    inGrace = true;
                    graceDeadline = System.nanoTime() + LATE_PUBLISH_GRACE_NANOS;
                }
            }
            if (failed.get()) {
                return target;
            }
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return target;
            }
            LockSupport.parkNanos(this, Math.min(parkNanos, remaining));
            parkNanos = Math.min(parkNanos * 2, MAX_DRAIN_PARK_NANOS);
        }
    }

    /** The highest sequence below which every claimed slot is published. */
    private long highestPublished() {
        final long cursor = ring.getCursor();
        long lowest = cursor;
        for (final StageNode<E> node : nodeSnapshot) {
            lowest = Math.min(lowest, node.sequence());
        }
        if (lowest >= cursor) {
            return cursor;
        }
        // the stages gate the producers, so lowest + 1 is within a ring of the cursor
        return ring.sequencer().getHighestPublishedSequence(lowest + 1, cursor);
    }

    private static <E> List<String> joinThreads(final List<StageNode<E>> stages, final long deadline) {
        final List<String> alive = new ArrayList<>();
        final Thread self = Thread.currentThread();
        for (final StageNode<E> node : stages) {
            for (final Thread thread : node.threads) {
                if (thread == self) {
                    // called from a stage's own handler: it ends when that handler returns
                    alive.add(thread.getName());
                    continue;
                }
                final long remaining = deadline - System.nanoTime();
                try {
                    if (remaining > 0) {
                        TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (thread.isAlive()) {
                    alive.add(thread.getName());
                }
            }
        }
        return alive;
    }

    /** A stage thread ended: unless the pipeline is stopping or the stage was removed, that is a failure. */
    private void stageThreadEnded(final StageNode<E> node, final Throwable thrown) {
        if (stopping || node.removed || failed.get() && thrown == null) {
            return;
        }
        fail(node.failure(thrown));
    }

    private void fail(final StageFailure failure) {
        failures.add(failure);
        if (failed.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.ERROR, "pipeline '" + name + "' stops: " + failure, failure.cause());
            // producers waiting for space, and later claims, now get SequencerClosedException
            ring.close("pipeline '" + name + "' stopped after a failure: " + failure);
            for (final StageNode<E> node : nodeSnapshot) {
                node.halt();
            }
        }
    }

    /** The JFR registration while running, else null: for tests. */
    JfrMonitoring.Registration jfrRegistration() {
        synchronized (lock) {
            return jfr;
        }
    }

    /**
     * Whether {@link #start()} was called (also true after a shutdown).
     *
     * @return true once started
     */
    public boolean isStarted() {
        return state != NEW;
    }

    /**
     * Whether the pipeline is running: started and its ring still open (not shut down, halted
     * or stopped by a failure).
     *
     * @return true while running
     */
    public boolean isRunning() {
        // a closed ring is what stops a pipeline, by shutdown, halt or failure
        return state == STARTED && !ring.isClosed();
    }

    /**
     * Stages that stopped on their own (their exception handler gave up), in order; the first one
     * stopped the pipeline.
     *
     * @return the failures, empty if none
     */
    public List<StageFailure> failures() {
        return List.copyOf(failures);
    }

    // ============================================================================= introspection

    /**
     * The pipeline's name, used in thread names ({@code <pipeline>-<stage>}), errors and metrics.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The ring buffer, for direct claim/publish and for raw consumers.
     *
     * @return the ring
     */
    public RingBuffer<E> ringBuffer() {
        return ring;
    }

    /**
     * The stages, in the order they were added.
     *
     * @return a snapshot of the stages
     */
    public List<Stage> stages() {
        return List.copyOf(nodeSnapshot);
    }

    /**
     * The stage of the given name.
     *
     * @param stageName the name
     * @return the stage
     * @throws IllegalArgumentException if there is no such stage
     */
    public Stage stage(final String stageName) {
        for (final StageNode<E> node : nodeSnapshot) {
            if (node.name.equals(stageName)) {
                return node;
            }
        }
        throw new IllegalArgumentException("pipeline '" + name + "' has no stage named '" + stageName + "'");
    }

    /**
     * The graph: stage names and edges, renderable as Mermaid or DOT.
     *
     * @return a snapshot of the graph
     */
    public TopologyDescription describe() {
        synchronized (lock) {
            final List<TopologyDescription.StageInfo> stages = new ArrayList<>();
            final List<TopologyDescription.Edge> edges = new ArrayList<>();
            final String ringNode = name + ".ring";
            for (final StageNode<E> node : nodes) {
                stages.add(new TopologyDescription.StageInfo(node.name, node.isWorkerPool(), node.workers()));
                if (node.upstreamNodes.isEmpty()) {
                    edges.add(new TopologyDescription.Edge(ringNode, node.name));
                }
                for (final StageNode<E> up : node.upstreamNodes) {
                    edges.add(new TopologyDescription.Edge(up.name, node.name));
                }
            }
            return new TopologyDescription(name, ring.getBufferSize(), producerType.name(), stages, edges);
        }
    }

    /**
     * Live, allocation-free metrics of the ring and every stage.
     *
     * @return the metrics view (the same object on every call)
     */
    public PipelineMetrics metrics() {
        return metrics;
    }

    @Override
    public String toString() {
        return "Slipstream{name=" + name + ", stages=" + nodeSnapshot.size() + ", state="
                + (state == NEW ? "new" : state == STARTED ? (isRunning() ? "running" : "stopping") : "stopped") + '}';
    }

    // ================================================================================ publishing

    /**
     * Claims a slot, lets {@code translator} fill it and publishes it.
     *
     * @param translator writes the event
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public void publishEvent(final EventTranslator<E> translator) {
        ring.publishEvent(translator);
    }

    /**
     * Claims a slot, fills it from one argument and publishes it.
     *
     * @param translator writes the event
     * @param arg0 the argument
     * @param <A> the argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A> void publishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        ring.publishEvent(translator, arg0);
    }

    /**
     * Claims a slot, fills it from two arguments and publishes it.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A, B> void publishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0, final B arg1) {
        ring.publishEvent(translator, arg0, arg1);
    }

    /**
     * Claims a slot, fills it from three arguments and publishes it.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param arg2 the third argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @param <C> the third argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A, B, C> void publishEvent(final EventTranslatorThreeArg<E, A, B, C> translator, final A arg0,
                                       final B arg1, final C arg2) {
        ring.publishEvent(translator, arg0, arg1, arg2);
    }

    /**
     * Claims a slot, fills it from any number of arguments and publishes it.
     *
     * @param translator writes the event
     * @param args the arguments
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public void publishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        ring.publishEvent(translator, args);
    }

    /**
     * Publishes if there is space now.
     *
     * @param translator writes the event
     * @return false if the ring was full (nothing published)
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public boolean tryPublishEvent(final EventTranslator<E> translator) {
        return ring.tryPublishEvent(translator);
    }

    /**
     * Publishes from one argument if there is space now.
     *
     * @param translator writes the event
     * @param arg0 the argument
     * @param <A> the argument type
     * @return false if the ring was full
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A> boolean tryPublishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        return ring.tryPublishEvent(translator, arg0);
    }

    /**
     * Publishes from two arguments if there is space now.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @return false if the ring was full
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A, B> boolean tryPublishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0,
                                          final B arg1) {
        return ring.tryPublishEvent(translator, arg0, arg1);
    }

    /**
     * Publishes from three arguments if there is space now.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param arg2 the third argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @param <C> the third argument type
     * @return false if the ring was full
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A, B, C> boolean tryPublishEvent(final EventTranslatorThreeArg<E, A, B, C> translator, final A arg0,
                                             final B arg1, final C arg2) {
        return ring.tryPublishEvent(translator, arg0, arg1, arg2);
    }

    /**
     * Publishes from any number of arguments if there is space now.
     *
     * @param translator writes the event
     * @param args the arguments
     * @return false if the ring was full
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public boolean tryPublishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        return ring.tryPublishEvent(translator, args);
    }

    /**
     * Publishes one event per translator, as one batch.
     *
     * @param translators the translators
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public void publishEvents(final EventTranslator<E>[] translators) {
        ring.publishEvents(translators);
    }

    /**
     * Publishes {@code batchSize} events from {@code translators[batchStartsAt ..]}, as one batch.
     *
     * @param translators the translators
     * @param batchStartsAt the first translator used
     * @param batchSize how many events
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public void publishEvents(final EventTranslator<E>[] translators, final int batchStartsAt, final int batchSize) {
        ring.publishEvents(translators, batchStartsAt, batchSize);
    }

    /**
     * Publishes one event per argument, as one batch.
     *
     * @param translator writes each event
     * @param args one per event
     * @param <A> the argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        ring.publishEvents(translator, args);
    }

    /**
     * Publishes {@code batchSize} events from {@code args[batchStartsAt ..]}, as one batch.
     *
     * @param translator writes each event
     * @param batchStartsAt the first argument used
     * @param batchSize how many events
     * @param args the arguments
     * @param <A> the argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt,
                                  final int batchSize, final A[] args) {
        ring.publishEvents(translator, batchStartsAt, batchSize, args);
    }

    /**
     * Publishes one event per pair of arguments, as one batch.
     *
     * @param translator writes each event
     * @param arg0 first arguments
     * @param arg1 second arguments, as many
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A, B> void publishEvents(final EventTranslatorTwoArg<E, A, B> translator, final A[] arg0,
                                     final B[] arg1) {
        ring.publishEvents(translator, arg0, arg1);
    }

    /**
     * Publishes one event per triple of arguments, as one batch.
     *
     * @param translator writes each event
     * @param arg0 first arguments
     * @param arg1 second arguments, as many
     * @param arg2 third arguments, as many
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @param <C> the third argument type
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A, B, C> void publishEvents(final EventTranslatorThreeArg<E, A, B, C> translator, final A[] arg0,
                                        final B[] arg1, final C[] arg2) {
        ring.publishEvents(translator, arg0, arg1, arg2);
    }

    /**
     * Publishes one event per argument list, as one batch.
     *
     * @param translator writes each event
     * @param args one argument list per event
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public void publishEvents(final EventTranslatorVararg<E> translator, final Object[]... args) {
        ring.publishEvents(translator, args);
    }

    /**
     * Publishes the batch if there is space for all of it now.
     *
     * @param translators the translators
     * @return false if the ring had no room for the batch
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public boolean tryPublishEvents(final EventTranslator<E>[] translators) {
        return ring.tryPublishEvents(translators);
    }

    /**
     * Publishes {@code batchSize} events from {@code translators[batchStartsAt ..]} if there is
     * space for all of them now.
     *
     * @param translators the translators
     * @param batchStartsAt the first translator used
     * @param batchSize how many events
     * @return false if the ring had no room for the batch
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public boolean tryPublishEvents(final EventTranslator<E>[] translators, final int batchStartsAt,
                                    final int batchSize) {
        return ring.tryPublishEvents(translators, batchStartsAt, batchSize);
    }

    /**
     * Publishes {@code batchSize} events from {@code args[batchStartsAt ..]} if there is space for
     * all of them now.
     *
     * @param translator writes each event
     * @param batchStartsAt the first argument used
     * @param batchSize how many events
     * @param args the arguments
     * @param <A> the argument type
     * @return false if the ring had no room for the batch
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt,
                                        final int batchSize, final A[] args) {
        return ring.tryPublishEvents(translator, batchStartsAt, batchSize, args);
    }

    /**
     * Publishes one event per argument if there is space for all of them now.
     *
     * @param translator writes each event
     * @param args one per event
     * @param <A> the argument type
     * @return false if the ring had no room for the batch
     * @throws SequencerClosedException if the pipeline is shut down or stopped
     */
    public <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        return ring.tryPublishEvents(translator, args);
    }

    // ================================================================================== helpers

    /** Runs one stage body and reports its end to the pipeline. */
    private final class StageRunnable implements Runnable {
        private final StageNode<E> node;
        private final Runnable body;

        StageRunnable(final StageNode<E> node, final Runnable body) {
            this.node = node;
            this.body = body;
        }

        @Override
        public void run() {
            Throwable thrown = null;
            try {
                body.run();
            } catch (Throwable t) {
                thrown = t;
            } finally {
                stageThreadEnded(node, thrown);
            }
        }
    }

    /** The pipeline's metrics view: every getter reads live values. */
    private final class Metrics implements PipelineMetrics {
        @Override
        public String pipelineName() {
            return name;
        }

        @Override
        public int bufferSize() {
            return ring.getBufferSize();
        }

        @Override
        public long cursor() {
            return ring.getCursor();
        }

        @Override
        public long remainingCapacity() {
            return ring.remainingCapacity();
        }

        @Override
        public List<StageMetrics> stages() {
            return metricsSnapshot;
        }

        @Override
        public StageMetrics stage(final String stageName) {
            for (final StageMetrics stage : metricsSnapshot) {
                if (stage.stageName().equals(stageName)) {
                    return stage;
                }
            }
            throw new IllegalArgumentException("pipeline '" + name + "' has no stage named '" + stageName + "'");
        }
    }

    /**
     * Configures a {@link Slipstream} pipeline.
     *
     * <pre>{@code
     * Slipstream<Tick> pipeline = Slipstream.builder(Tick::new)
     *         .name("ticks").ringSize(8192).producers(ProducerType.SINGLE)
     *         .waitStrategy(new BlockingWaitStrategy())
     *         .producerWaitStrategy(ProducerWaitStrategies.defaultStrategy())
     *         .threadFactory(Thread::new)
     *         .build();
     * }</pre>
     *
     * @param <E> the event type
     */
    public static final class Builder<E> {
        private final EventFactory<E> factory;
        private String name = "slipstream";
        private int ringSize = 1024;
        private ProducerType producerType = ProducerType.MULTI;
        private WaitStrategy waitStrategy;
        private ProducerWaitStrategy producerWaitStrategy;
        private ThreadFactory threadFactory = Thread::new;
        private ExceptionHandler<? super E> exceptionHandler;
        private Duration stallThreshold = Duration.ofSeconds(1);

        private Builder(final EventFactory<E> factory) {
            this.factory = factory;
        }

        /**
         * The pipeline's name, used in thread names, errors and metrics (default "slipstream").
         *
         * @param pipelineName not blank
         * @return this builder
         */
        public Builder<E> name(final String pipelineName) {
            this.name = WorkerPool.checkName(pipelineName, "pipeline name");
            return this;
        }

        /**
         * The number of slots in the ring (default 1024).
         *
         * @param size a power of two
         * @return this builder
         * @throws IllegalArgumentException if {@code size} is not a positive power of two
         */
        public Builder<E> ringSize(final int size) {
            if (size < 1 || Integer.bitCount(size) != 1) {
                throw new IllegalArgumentException("ringSize must be a power of two, got " + size);
            }
            this.ringSize = size;
            return this;
        }

        /**
         * One publishing thread, or many (default {@link ProducerType#MULTI}, always safe).
         *
         * @param type the producer type
         * @return this builder
         */
        public Builder<E> producers(final ProducerType type) {
            this.producerType = Objects.requireNonNull(type, "producer type must not be null");
            return this;
        }

        /**
         * How stages wait for events, unless a stage sets its own (default
         * {@link HybridWaitStrategy}: spin briefly, yield, then park).
         *
         * @param strategy the wait strategy
         * @return this builder
         */
        public Builder<E> waitStrategy(final WaitStrategy strategy) {
            this.waitStrategy = Objects.requireNonNull(strategy, "waitStrategy must not be null");
            return this;
        }

        /**
         * How producers wait when the ring is full (default
         * {@link ProducerWaitStrategies#defaultStrategy()}: spin, yield, then park briefly).
         *
         * @param strategy the producer wait strategy
         * @return this builder
         */
        public Builder<E> producerWaitStrategy(final ProducerWaitStrategy strategy) {
            this.producerWaitStrategy = Objects.requireNonNull(strategy, "producerWaitStrategy must not be null");
            return this;
        }

        /**
         * Makes the stages' threads unless a stage sets its own (default: plain non-daemon threads).
         * The pipeline names each thread {@code <pipeline>-<stage>[-<worker>]}.
         *
         * @param factory the thread factory
         * @return this builder
         */
        public Builder<E> threadFactory(final ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "threadFactory must not be null");
            return this;
        }

        /**
         * What a stage does when its handler throws, unless the stage sets its own (default: log
         * the stage, sequence and exception, and continue).
         *
         * @param handler the exception handler
         * @return this builder
         */
        public Builder<E> exceptionHandler(final ExceptionHandler<? super E> handler) {
            this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
            return this;
        }

        /**
         * How long a stage may have a backlog without progress before JFR reports a stall
         * ({@link dev.slipstream.monitor.StageStallEvent}; default 1 s).
         *
         * @param threshold positive
         * @return this builder
         * @throws IllegalArgumentException if {@code threshold} is not positive
         */
        public Builder<E> stallThreshold(final Duration threshold) {
            Objects.requireNonNull(threshold, "stallThreshold must not be null");
            if (threshold.isNegative() || threshold.isZero()) {
                throw new IllegalArgumentException("stallThreshold must be positive, got " + threshold);
            }
            this.stallThreshold = threshold;
            return this;
        }

        /**
         * Builds the pipeline and its ring; add stages, then {@link Slipstream#start()}.
         *
         * @return the pipeline
         */
        public Slipstream<E> build() {
            return new Slipstream<>(this);
        }
    }
}
