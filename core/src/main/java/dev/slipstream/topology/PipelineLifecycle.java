package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.monitor.JfrMonitoring;
import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.ring.RingBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A pipeline's run: starting its stages, and the three ways it stops (shutdown, halt, first
 * failure), each closing the ring first and accounting against its close fence. The state
 * machine, failures and joining are {@link Lifecycle}'s.
 *
 * <pre>{@code
 * run.start();                                      // under the pipeline's lock: threads start
 * ShutdownResult r = run.stop(false, Duration.ofSeconds(5));   // drain, stop, join, account
 * }</pre>
 *
 * @param <E> the event type
 */
final class PipelineLifecycle<E> {
    /**
     * After a halt, how long a stage gets to leave its wait before it is interrupted: one still
     * running after this is inside its handler.
     */
    private static final long HALT_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String name;
    private final RingBuffer<E> ring;
    private final Object lock;
    private final PipelineGraph<E> graph;
    private final Lifecycle lifecycle;
    /** Set under the lock when shutdown or halt begins: no more graph changes. */
    private volatile boolean stopRequested;
    private JfrMonitoring.Registration jfr;
    private ShutdownResult result;

    PipelineLifecycle(final String name, final RingBuffer<E> ring, final Object lock, final PipelineGraph<E> graph) {
        this.name = name;
        this.ring = ring;
        this.lock = lock;
        this.graph = graph;
        this.lifecycle = new Lifecycle("pipeline '" + name + "'", this::stopAfterFailure);
    }

    Lifecycle lifecycle() {
        return lifecycle;
    }

    RunState state() {
        return lifecycle.state();
    }

    /** Whether a shutdown or halt has begun or ended: the graph no longer changes. */
    boolean isStopping() {
        return lifecycle.state() == RunState.STOPPED || stopRequested;
    }

    /** Whether a stage added while running is refused: the pipeline is stopping, stopped or failed. */
    boolean refusesNewStages() {
        return isStopping() || lifecycle.hasFailed();
    }

    boolean isRunning() {
        // a closed ring is what stops a pipeline, by shutdown, halt or failure
        return lifecycle.state() == RunState.RUNNING && !ring.isClosed();
    }

    /** How {@code toString} names the state. */
    String stateName() {
        final RunState state = lifecycle.state();
        return state == RunState.NEW ? "new" : state == RunState.RUNNING ? (isRunning() ? "running" : "stopping")
                : "stopped";
    }

    /** Creates every stage's threads, then starts them, with JFR monitoring registered between. */
    void start(final PipelineMetrics metrics, final Duration stallThreshold) {
        synchronized (lock) {
            final RunState state = lifecycle.state();
            if (state != RunState.NEW) {
                throw new IllegalStateException("pipeline '" + name + "' was already "
                        + (state == RunState.RUNNING ? "started" : "stopped") + "; start() may be called once");
            }
            if (graph.nodes().isEmpty()) {
                throw new IllegalStateException("pipeline '" + name
                        + "' has no stages: add one with handleEventsWith(...) before start()");
            }
            graph.nodes().forEach(node -> node.createThreads(lifecycle));
            lifecycle.setState(RunState.RUNNING);
            jfr = JfrMonitoring.register(metrics, stallThreshold);
            graph.nodes().forEach(StageNode::startThreads);
        }
    }

    /** Shuts down (drains up to the fence within {@code timeout}) or halts; later calls get the first result. */
    ShutdownResult stop(final boolean halt, final Duration timeout) {
        synchronized (lock) {
            if (result != null) {
                return result;
            }
            final long startNanos = System.nanoTime();
            stopRequested = true;
            final List<StageNode<E>> stages = new ArrayList<>(graph.nodes());
            final boolean wasStarted = lifecycle.state() == RunState.RUNNING;
            final StageFailure firstFailure = lifecycle.firstFailure();
            ring.close("pipeline '" + name + "' " + (firstFailure != null ? "stopped after a failure: " + firstFailure
                    : halt ? "was halted" : "is shut down"));
            // no claim is accepted from here on: the fence is the last accepted event
            final long fence = ring.closeFence();
            final long drainDeadline = startNanos + timeout.toNanos();
            if (wasStarted && !halt) {
                DrainAccounting.awaitDrained(ring, stages, fence, lifecycle, drainDeadline);
            }
            final List<String> alive = new ArrayList<>();
            if (wasStarted) {
                stages.forEach(StageNode::requestStop);
                final long now = System.nanoTime();
                // a shutdown drained in time gives the threads until the timeout to end (onShutdown);
                // out of time, a moment to leave their wait, then stuck handlers are interrupted
                final long interruptAt = halt ? now + Slipstream.STOP_GRACE.toNanos()
                        : Math.max(drainDeadline, now + HALT_SETTLE_NANOS);
                final long joinDeadline = halt ? now + Slipstream.DEFAULT_JOIN_TIMEOUT.toNanos()
                        : Math.max(drainDeadline, now) + Slipstream.STOP_GRACE.toNanos();
                final List<Thread> threads = stages.stream().flatMap(node -> node.threads.stream())
                        .collect(Collectors.toList());
                alive.addAll(Lifecycle.stopThreads(threads, interruptAt, joinDeadline));
            }
            if (jfr != null) {
                jfr.close();
                jfr = null;
            }
            final Map<String, Long> left = DrainAccounting.left(stages, fence);
            final long inFlight = DrainAccounting.claimsInFlight(ring, stages, fence);
            // read after the join: every ended thread's counts are complete (join orders them)
            final Map<String, Long> skipped = new LinkedHashMap<>();
            final Map<String, Long> givenUp = new LinkedHashMap<>();
            final Map<String, Long> retried = new LinkedHashMap<>();
            for (final StageNode<E> node : stages) {
                skipped.put(node.name, node.exceptions.tally().skipped());
                givenUp.put(node.name, node.exceptions.tally().retriesGivenUp());
                retried.put(node.name, node.batchRewinds());
            }
            lifecycle.setState(RunState.STOPPED);
            graph.releaseHandlers();
            result = new ShutdownResult(name, halt, fence, left, alive, lifecycle.failures(),
                    Duration.ofNanos(System.nanoTime() - startNanos), inFlight, skipped, givenUp, retried);
            return result;
        }
    }

    /** The first failure: producers are told (the ring closes) and the other stages halt. */
    private void stopAfterFailure() {
        final StageFailure failure = lifecycle.firstFailure();
        // producers waiting for space, and later claims, now get SequencerClosedException
        ring.close("pipeline '" + name + "' stopped after a failure: " + failure);
        graph.snapshot().forEach(StageNode::requestStop);
    }

    /** The JFR registration while running, else null: for tests. */
    JfrMonitoring.Registration jfrRegistration() {
        synchronized (lock) {
            return jfr;
        }
    }
}
