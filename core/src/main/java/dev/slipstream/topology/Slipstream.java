package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.monitor.JfrMonitoring;
import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.ring.EventFactory;
import dev.slipstream.ring.EventSink;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.SequencerClosedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * A pipeline: one ring buffer, the stages that read it, and their threads, wired with a fluent
 * DSL and run with a lifecycle that accounts for every event.
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
 * <h2>The accounting contract</h2>
 * Every publish that returns normally (every {@code try...} that returns true) is accepted and
 * is either handled by every stage before a shutdown reports clean or counted per stage in the
 * {@link ShutdownResult}; one that is not accepted throws {@link SequencerClosedException} (or
 * returns false). The shutdown drains up to the ring's close fence, the highest accepted claim
 * ({@link ShutdownResult#drainTarget()}).
 *
 * <h2>Graph</h2>
 * {@link #handleEventsWith} reads straight behind the producers (multicast); {@link StageGroup#then}
 * and {@link #after} place stages after others (pipeline, diamond, any DAG); worker pools
 * ({@link #handleEventsWithWorkerPool}, {@link StageGroup#thenWorkerPool}) hand each event to one
 * worker. <b>The producers are gated from the moment the pipeline is built</b>: events published
 * before the first stage exists wait in the ring, and every stage added before {@link #start()}
 * sees them. A handler added twice or in another live pipeline, a name used twice, a stage of
 * another pipeline, or a change after start is refused with an exception (a refused spec can be
 * added again). While running, {@link #addHandler} and {@link #removeStage} change the graph.
 *
 * <h2>Lifecycle</h2>
 * {@link #start()} once; {@link #shutdown(Duration)} drains, {@link #halt()} does not;
 * {@link #close()} shuts down with {@link #DEFAULT_CLOSE_TIMEOUT}. Stage threads are daemons
 * unless your thread factory says otherwise. The first stage failure stops the pipeline: the ring
 * closes (producers waiting for space get {@link SequencerClosedException}), the other stages
 * halt, and a draining shutdown stops waiting.
 *
 * @param <E> the event type
 */
public final class Slipstream<E> implements ForwardingEventSink<E>, AutoCloseable {
    /** How long {@link #close()} lets the stages drain. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** How long {@link #halt()} and {@link #removeStage} wait for threads to end. */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How much longer than its timeout a {@link #shutdown(Duration)} may take, waiting for threads
     * interrupted after the timeout; also how long {@link #halt()} waits before it interrupts.
     */
    public static final Duration STOP_GRACE = Duration.ofSeconds(1);
    private static final System.Logger LOG = System.getLogger(Slipstream.class.getName());

    // a facade over PipelineBuilder, PipelineGraph, PipelineWiring, Reconfiguration, PipelineLifecycle
    private final String name;
    private final RingBuffer<E> ring;
    private final ProducerType producerType;
    private final Duration stallThreshold;
    private final PipelineGraph<E> graph;
    private final PipelineWiring<E> wiring;
    private final PipelineLifecycle<E> run;
    private final Reconfiguration<E> reconfiguration;
    private final PipelineMetrics metrics;
    /** Guards the graph and lifecycle changes; never taken by stage threads or producers. */
    private final Object lock = new Object();

    Slipstream(final String name, final ProducerType producerType, final RingBuffer<E> ring, final SignalFanOut signal,
               final ThreadFactory threadFactory, final ExceptionHandler<? super E> exceptionHandler,
               final Duration stallThreshold) {
        this.name = name;
        this.producerType = producerType;
        this.ring = ring;
        this.stallThreshold = stallThreshold;
        this.graph = new PipelineGraph<>(this, ring, signal, threadFactory, exceptionHandler);
        this.run = new PipelineLifecycle<>(name, ring, lock, graph);
        this.wiring = new PipelineWiring<>(this, lock, graph, run);
        this.reconfiguration = new Reconfiguration<>(lock, graph, wiring, run, ring);
        this.metrics = new LivePipelineMetrics(name, ring, graph);
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
        return new Builder<>(factory);
    }

    // ===================================================================================== graph

    /**
     * Adds one stage per handler, each reading straight behind the producers (multicast).
     *
     * @param handlers the handlers, one stage (and thread) each
     * @return the new stages
     * @throws IllegalArgumentException if a handler is null or already in this pipeline
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWith(final EventHandler<? super E>... handlers) {
        return wiring.addStages(PipelineWiring.specsOf(handlers), List.of());
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
        return wiring.addStages(specs, List.of());
    }

    /**
     * Adds a work pool reading straight behind the producers: each event goes to one worker.
     *
     * @param workers the workers' handlers, distinct instances
     * @return the pool stage
     * @throws IllegalArgumentException if a handler is null, given twice or already in this pipeline
     * @throws IllegalStateException if the pipeline was started
     */
    @SafeVarargs
    public final StageGroup<E> handleEventsWithWorkerPool(final EventHandler<? super E>... workers) {
        return wiring.addStages(PipelineWiring.poolSpecOf(workers), List.of());
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
        return wiring.after(groups);
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
        return wiring.after(stages);
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
        return wiring.afterHandlers(handlers);
    }

    /** The DSL's side of the graph, for {@link StageGroup}. */
    PipelineWiring<E> wiring() {
        return wiring;
    }

    // ======================================================================= live reconfiguration

    /**
     * Adds a stage straight behind the producers. While running it starts at the current cursor
     * (or where the last stage stopped, if none is left); before {@link #start()} it is
     * {@link #handleEventsWith(EventHandler[])}.
     *
     * @param handler the handler
     * @return the new stage
     * @throws IllegalArgumentException if the handler is already in this or another live pipeline
     * @throws IllegalStateException if the pipeline is stopped
     */
    public Stage addHandler(final EventHandler<? super E> handler) {
        return addHandler(StageSpec.of(handler));
    }

    /**
     * Adds a stage with its settings, as {@link #addHandler(EventHandler)} does.
     *
     * @param spec the stage
     * @return the new stage
     * @throws IllegalArgumentException if a handler is already in this or another live pipeline or
     *     the name is taken
     * @throws IllegalStateException if the pipeline is stopped
     */
    public Stage addHandler(final StageSpec<? super E> spec) {
        return reconfiguration.add(name, spec);
    }

    /**
     * Removes a stage, waiting up to {@link #DEFAULT_JOIN_TIMEOUT} for its threads (see
     * {@link #removeStage(Stage, Duration)}).
     *
     * @param stage a stage of this pipeline
     * @return how many of the events published when it was asked to stop it did not finish
     * @throws IllegalArgumentException if the stage belongs to another pipeline, was already
     *     removed, or other stages follow it
     * @throws IllegalStateException if the pipeline is stopped, or the stage's threads did not end
     *     within {@link #DEFAULT_JOIN_TIMEOUT} (the stage then stays, halted and gating)
     */
    public long removeStage(final Stage stage) {
        return removed(removeStage(stage, DEFAULT_JOIN_TIMEOUT));
    }

    /**
     * Removes a stage: halts it, joins its threads (up to {@code timeout}), and only then stops
     * gating the producers on it, so they never overwrite a batch it is still reading. Stages that
     * follow it must be removed first. If its threads do not end in time, it stays, halted and
     * gating, and the result says so.
     *
     * @param stage a stage of this pipeline
     * @param timeout how long to wait for its threads
     * @return what the removal achieved
     * @throws IllegalArgumentException if the stage belongs to another pipeline, was already
     *     removed, or other stages follow it
     * @throws IllegalStateException if the pipeline is stopped, or another thread is removing it
     */
    public StageRemoval removeStage(final Stage stage, final Duration timeout) {
        return reconfiguration.remove(stage, timeout);
    }

    /**
     * Removes the stage that runs {@code handler} (for a pool, any of its workers' handlers).
     *
     * @param handler a handler of this pipeline
     * @return how many published events the stage had not finished
     * @throws IllegalArgumentException if no stage of this pipeline runs the handler, or others
     *     follow it
     * @throws IllegalStateException if the pipeline is stopped, or the stage's threads did not end
     *     within {@link #DEFAULT_JOIN_TIMEOUT}
     */
    public long removeHandler(final EventHandler<?> handler) {
        return removed(reconfiguration.removeHandler(name, handler, DEFAULT_JOIN_TIMEOUT));
    }

    /** What {@code removeStage(Stage)} and {@code removeHandler} return, or the exception they throw. */
    private static long removed(final StageRemoval removal) {
        if (!removal.isRemoved()) {
            throw new IllegalStateException(removal + " (waited " + DEFAULT_JOIN_TIMEOUT + ")");
        }
        return removal.eventsLeft();
    }

    // ================================================================================= lifecycle

    /**
     * Starts every stage's threads.
     *
     * @throws IllegalStateException if already started or stopped, or there is no stage
     */
    public void start() {
        run.start(metrics, stallThreshold);
    }

    /**
     * Closes the ring (later publishes throw {@link SequencerClosedException}), waits, parking,
     * until every accepted event is published and handled by every stage, then stops and joins
     * the threads. The wait ends at once if a stage fails. Calling it again returns the first
     * result.
     *
     * <p>If the stages have not drained by {@code timeout}, they are halted; a thread still running
     * a moment later is inside its handler and is <b>interrupted</b>, and the call waits for the
     * threads up to {@link #STOP_GRACE} more. A thread that ignores the interrupt is named in
     * {@link ShutdownResult#threadsStillRunning()}. Do not call it from a stage thread of this
     * pipeline: it could not drain (use {@link #halt()} there).
     *
     * @param timeout how long the stages may take to drain and end; the call returns within
     *     {@code timeout + STOP_GRACE}
     * @return what drained, what each stage left or skipped, which threads did not end
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public ShutdownResult shutdown(final Duration timeout) {
        Lifecycle.checkTimeout(timeout);
        return run.stop(false, timeout);
    }

    /**
     * Stops without draining: closes the ring, stops every stage after the batch in hand, joins
     * the threads, and reports what each stage left. A thread still running {@link #STOP_GRACE}
     * later is interrupted; the call waits up to {@link #DEFAULT_JOIN_TIMEOUT} in all.
     *
     * @return what was left
     */
    public ShutdownResult halt() {
        return run.stop(true, Duration.ZERO);
    }

    /** Shuts down with {@link #DEFAULT_CLOSE_TIMEOUT}; logs a warning if the result is not clean. */
    @Override
    public void close() {
        final ShutdownResult outcome = shutdown(DEFAULT_CLOSE_TIMEOUT);
        if (!outcome.isClean()) {
            LOG.log(System.Logger.Level.WARNING, outcome.toString());
        }
    }

    /** Whether the pipeline is stopped (shut down, halted): its handlers may join another pipeline. */
    boolean isStopped() {
        return run.state() == RunState.STOPPED;
    }

    /** The JFR registration while running, else null: for tests. */
    JfrMonitoring.Registration jfrRegistration() {
        return run.jfrRegistration();
    }

    // ============================================================================= introspection

    /**
     * Whether {@link #start()} was called (also true after a shutdown).
     *
     * @return true once started
     */
    public boolean isStarted() {
        return run.state() != RunState.NEW;
    }

    /**
     * Whether the pipeline is started and its ring still open.
     *
     * @return true while running
     */
    public boolean isRunning() {
        return run.isRunning();
    }

    /**
     * Stages that failed, in order, at any time; the first one stopped the pipeline. Cheap to
     * poll: with no failure it allocates nothing.
     *
     * @return an unmodifiable copy of the failures, empty if none
     */
    public List<StageFailure> failures() {
        return run.lifecycle().failures();
    }

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
        return List.copyOf(graph.snapshot());
    }

    /**
     * The stage of the given name.
     *
     * @param stageName the name
     * @return the stage
     * @throws IllegalArgumentException if there is no such stage
     */
    public Stage stage(final String stageName) {
        return graph.stageNamed(stageName);
    }

    /**
     * The graph: stage names and edges, renderable as Mermaid or DOT.
     *
     * @return a snapshot of the graph
     */
    public TopologyDescription describe() {
        synchronized (lock) {
            return graph.describe(producerType.name());
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
        return "Slipstream{name=" + name + ", stages=" + graph.snapshot().size() + ", state=" + run.stateName() + '}';
    }

    // ================================================================================ publishing

    /**
     * The publishing side alone (the ring), for code that should publish but not control the
     * pipeline; every publishing method here forwards to it.
     *
     * <pre>{@code
     * EventSink<Order> orders = pipeline.sink();
     * gateway.onMessage(line -> orders.publishEvent(Order::parse, line));   // publish only
     * }</pre>
     *
     * @return the sink the pipeline publishes into (its ring)
     */
    @Override
    public EventSink<E> sink() {
        return ring;
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
    public static final class Builder<E> extends PipelineBuilder<E, Builder<E>> {
        private Builder(final EventFactory<E> factory) {
            super(factory);
        }

        @Override
        Builder<E> self() {
            return this;
        }
    }
}
