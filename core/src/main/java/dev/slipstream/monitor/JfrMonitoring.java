package dev.slipstream.monitor;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.FlightRecorder;

/**
 * Connects running pipelines to JFR: while at least one pipeline is registered, JFR's periodic
 * thread calls back here to write a {@link StageBacklogEvent} per stage and to check for
 * stalls ({@link StageStallEvent}). With no pipeline registered, the hooks are removed from JFR.
 *
 * <p>The hooks run only while a recording enables the event and read only the allocation-free
 * {@link StageMetrics} getters, so a pipeline pays nothing when no recording runs. The topology
 * DSL registers each pipeline on {@code start()}; a hand-wired ring can register its own
 * {@link PipelineMetrics}.
 *
 * <p>JFR is optional ({@code requires static jdk.jfr}): without the module at run time,
 * {@link #jfrPresent()} is false and registering installs no hooks and touches no JFR class.
 *
 * <pre>{@code
 * try (JfrMonitoring.Registration jfr = JfrMonitoring.register(metrics, Duration.ofSeconds(2))) {
 *     // ... run ...
 * }
 * }</pre>
 */
public final class JfrMonitoring {
    /** Whether jdk.jfr can be used from here; checked once, before any JFR class is linked. */
    private static final boolean JFR_PRESENT = jfrModulePresent();
    private static final List<Registration> REGISTRATIONS = new CopyOnWriteArrayList<>();
    private static final Runnable BACKLOG_HOOK = JfrMonitoring::emitBacklog;
    private static final Runnable STALL_HOOK = JfrMonitoring::checkStalls;
    /** Guards hook registration with JFR, so add and remove never interleave. */
    private static final Object LOCK = new Object();
    private static boolean hooksInstalled;

    private JfrMonitoring() {
    }

    /**
     * Starts monitoring a pipeline: its stages appear in backlog events, and a stage with a
     * backlog that makes no progress for {@code stallThreshold} produces stall events.
     *
     * @param metrics the pipeline's metrics
     * @param stallThreshold how long without progress counts as a stall; positive
     * @return the registration; close it when the pipeline stops
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code stallThreshold} is zero or negative
     */
    public static Registration register(final PipelineMetrics metrics, final Duration stallThreshold) {
        Objects.requireNonNull(metrics, "metrics must not be null");
        Objects.requireNonNull(stallThreshold, "stallThreshold must not be null");
        if (stallThreshold.isNegative() || stallThreshold.isZero()) {
            throw new IllegalArgumentException("stallThreshold must be positive, got " + stallThreshold);
        }
        final Registration registration = new Registration(metrics, stallThreshold.toNanos());
        synchronized (LOCK) {
            REGISTRATIONS.add(registration);
            if (!hooksInstalled && JFR_PRESENT && FlightRecorder.isAvailable()) {
                FlightRecorder.addPeriodicEvent(StageBacklogEvent.class, BACKLOG_HOOK);
                FlightRecorder.addPeriodicEvent(StageStallEvent.class, STALL_HOOK);
                hooksInstalled = true;
            }
        }
        return registration;
    }

    /**
     * Whether the {@code jdk.jfr} module is present and readable, so that pipelines can feed JFR.
     * When it is false, {@link #register} records nothing and never fails for want of JFR.
     *
     * @return true if JFR can be used
     */
    public static boolean jfrPresent() {
        return JFR_PRESENT;
    }

    private static boolean jfrModulePresent() {
        final Module self = JfrMonitoring.class.getModule();
        final ModuleLayer layer = self.getLayer() != null ? self.getLayer() : ModuleLayer.boot();
        // a named module reads jdk.jfr only if it was resolved (requires static); the class path reads everything
        return layer.findModule("jdk.jfr").filter(self::canRead).isPresent();
    }

    /**
     * Whether JFR currently holds this class's periodic hooks (true while a registration is open).
     *
     * @return true if the hooks are installed
     */
    public static boolean hooksInstalled() {
        synchronized (LOCK) {
            return hooksInstalled;
        }
    }

    private static void unregister(final Registration registration) {
        synchronized (LOCK) {
            if (REGISTRATIONS.remove(registration) && REGISTRATIONS.isEmpty() && hooksInstalled) {
                FlightRecorder.removePeriodicEvent(BACKLOG_HOOK);
                FlightRecorder.removePeriodicEvent(STALL_HOOK);
                hooksInstalled = false;
            }
        }
    }

    private static void emitBacklog() {
        REGISTRATIONS.forEach(Registration::emitBacklog);
    }

    private static void checkStalls() {
        final long now = System.nanoTime();
        REGISTRATIONS.forEach(registration -> registration.checkStalls(now));
    }

    /**
     * One monitored pipeline. Closing it stops the monitoring; closing twice does nothing.
     *
     * <pre>{@code
     * JfrMonitoring.Registration jfr = JfrMonitoring.register(metrics, Duration.ofSeconds(1));
     * jfr.close();
     * }</pre>
     */
    public static final class Registration implements AutoCloseable {
        private final PipelineMetrics metrics;
        private final long stallThresholdNanos;
        /** Per stage: progress seen by the last stall check. Touched only by JFR's periodic thread. */
        private final Map<StageMetrics, StallState> stallStates = new IdentityHashMap<>();
        private volatile long stallsDetected;
        private volatile long backlogEventsWritten;

        private Registration(final PipelineMetrics metrics, final long stallThresholdNanos) {
            this.metrics = metrics;
            this.stallThresholdNanos = stallThresholdNanos;
        }

        /**
         * Stall episodes found so far (checked only while a recording enables {@link StageStallEvent}).
         *
         * @return the count
         */
        public long stallsDetected() {
            return stallsDetected;
        }

        /**
         * How many backlog events this registration has written so far (only while a recording
         * enables {@link StageBacklogEvent}).
         *
         * @return the count
         */
        public long backlogEventsWritten() {
            return backlogEventsWritten;
        }

        /**
         * The stall threshold.
         *
         * @return the threshold
         */
        public Duration stallThreshold() {
            return Duration.ofNanos(stallThresholdNanos);
        }

        /** Stops monitoring this pipeline. */
        @Override
        public void close() {
            unregister(this);
        }

        private void emitBacklog() {
            final String pipeline = metrics.pipelineName();
            final long cursor = metrics.cursor();
            final long remaining = metrics.remainingCapacity();
            for (final StageMetrics stage : metrics.stages()) {
                final StageBacklogEvent event = new StageBacklogEvent();
                if (!event.shouldCommit()) {
                    return;
                }
                event.pipeline = pipeline;
                event.stage = stage.stageName();
                event.sequence = stage.sequence();
                event.cursor = cursor;
                event.backlog = stage.lag();
                event.remainingCapacity = remaining;
                event.eventsProcessed = stage.eventsProcessed();
                event.exceptionsHandled = stage.exceptionsHandled();
                event.commit();
                // single writer (JFR's periodic thread); volatile so other threads read it
                backlogEventsWritten = backlogEventsWritten + 1;
            }
        }

        private synchronized void checkStalls(final long now) {
            final List<StageMetrics> stages = metrics.stages();
            if (stallStates.size() > stages.size()) {
                // a stage was removed: forget it (identity, as stages do not override equals)
                stallStates.keySet().removeIf(known -> stages.stream().noneMatch(stage -> stage == known));
            }
            for (final StageMetrics stage : stages) {
                final long sequence = stage.sequence();
                final long backlog = stage.lag();
                final StallState state = stallStates.computeIfAbsent(stage, s -> new StallState());
                if (sequence != state.sequence || backlog == 0) {
                    state.sequence = sequence;
                    state.progressNanos = now;
                    state.reported = false;
                    continue;
                }
                final long stalledFor = now - state.progressNanos;
                if (stalledFor < stallThresholdNanos) {
                    continue;
                }
                if (!state.reported) {
                    state.reported = true;
                    // single writer (JFR's periodic thread); volatile so other threads read it
                    stallsDetected = stallsDetected + 1;
                }
                final StageStallEvent event = new StageStallEvent();
                if (event.shouldCommit()) {
                    event.pipeline = metrics.pipelineName();
                    event.stage = stage.stageName();
                    event.sequence = sequence;
                    event.backlog = backlog;
                    event.stalledFor = stalledFor;
                    event.threshold = stallThresholdNanos;
                    event.commit();
                }
            }
        }
    }

    /** What the last stall check saw of one stage. */
    private static final class StallState {
        long sequence = Long.MIN_VALUE;
        long progressNanos;
        boolean reported;
    }
}
