package dev.slipstream.topology;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a shutdown or halt achieved: whether every event accepted before it went through every
 * stage, how many each stage left behind if not, whether every thread ended, and which stages
 * failed on the way.
 *
 * <p>The accounting contract: every publication that returned normally (accepted) is either
 * handled by every stage, or counted in {@link #eventsLeft()} for each stage that did not handle
 * it; a publication that threw was not accepted and is not counted. For a pipeline the count is
 * taken against the ring's close fence, {@link #drainTarget()}: the highest sequence accepted
 * before the ring closed. Claims at or below it that their producers had not yet published when
 * the call returned are in {@link #claimsInFlight()} (and in every stage's count). {@link
 * #isClean()} is true only if nothing was left, every thread ended and no stage failed, at any
 * time, during the shutdown included.
 *
 * <pre>{@code
 * ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));
 * if (!result.isClean()) {
 *     log.warn(result.toString());   // e.g. "... NOT drained: journal left 12 events ..."
 * }
 * result.requireClean();             // or throw instead
 * }</pre>
 */
public final class ShutdownResult {
    /**
     * The key under which {@link #eventsLeft()} reports accepted events of a pipeline that had no
     * stage when it stopped: no stage handled them.
     */
    public static final String NO_STAGE = "(no stage)";

    private final String name;
    private final boolean halted;
    private final long drainTarget;
    private final Map<String, Long> eventsLeft;
    private final List<String> threadsStillRunning;
    private final List<StageFailure> failures;
    private final Duration elapsed;
    private final long claimsInFlight;

    ShutdownResult(final String name, final boolean halted, final long drainTarget,
                   final Map<String, Long> eventsLeft, final List<String> threadsStillRunning,
                   final List<StageFailure> failures, final Duration elapsed) {
        this(name, halted, drainTarget, eventsLeft, threadsStillRunning, failures, elapsed, 0L);
    }

    ShutdownResult(final String name, final boolean halted, final long drainTarget,
                   final Map<String, Long> eventsLeft, final List<String> threadsStillRunning,
                   final List<StageFailure> failures, final Duration elapsed, final long claimsInFlight) {
        this.claimsInFlight = claimsInFlight;
        this.name = Objects.requireNonNull(name);
        this.halted = halted;
        this.drainTarget = drainTarget;
        this.eventsLeft = Collections.unmodifiableMap(new LinkedHashMap<>(eventsLeft));
        this.threadsStillRunning = List.copyOf(threadsStillRunning);
        this.failures = List.copyOf(failures);
        this.elapsed = Objects.requireNonNull(elapsed);
    }

    /**
     * The name of the pipeline or pool.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Whether this was a halt (stop at once) rather than a draining shutdown.
     *
     * @return true for a halt
     */
    public boolean wasHalted() {
        return halted;
    }

    /**
     * Whether every stage finished every event accepted before the call.
     *
     * @return true if no stage left an event behind
     */
    public boolean isDrained() {
        for (final long left : eventsLeft.values()) {
            if (left > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every thread of the pipeline ended before the call returned.
     *
     * @return true if none is still running
     */
    public boolean isTerminated() {
        return threadsStillRunning.isEmpty();
    }

    /**
     * Drained, terminated and no stage failed.
     *
     * @return true if the shutdown lost nothing and left nothing running
     */
    public boolean isClean() {
        return isDrained() && isTerminated() && failures.isEmpty();
    }

    /**
     * Accepted sequences not yet visible to the stages when the call returned: from the first
     * claim that its producer had not published yet (a producer still writing its event when the
     * time ran out, or at a halt) up to the fence. They are also counted in every stage's
     * {@link #eventsLeft()}.
     *
     * @return the count, 0 for a queue-fed pool
     */
    public long claimsInFlight() {
        return claimsInFlight;
    }

    /**
     * The sequence the stages had to reach: the ring's close fence, the highest sequence whose
     * claim was accepted before the ring closed (-1 if nothing was accepted; for a queue-fed pool,
     * -1).
     *
     * @return the drain target
     */
    public long drainTarget() {
        return drainTarget;
    }

    /**
     * Per stage, in pipeline order, how many accepted events it did not finish.
     *
     * @return stage name to count (0 for a stage that drained)
     */
    public Map<String, Long> eventsLeft() {
        return eventsLeft;
    }

    /**
     * How many accepted events one stage did not finish.
     *
     * @param stageName the stage
     * @return the count
     * @throws IllegalArgumentException if there is no such stage
     */
    public long eventsLeft(final String stageName) {
        final Long left = eventsLeft.get(stageName);
        if (left == null) {
            throw new IllegalArgumentException("no stage named '" + stageName + "' in '" + name
                    + "'; stages are " + eventsLeft.keySet());
        }
        return left;
    }

    /**
     * The most events any one stage left behind.
     *
     * @return the maximum over the stages, 0 if drained
     */
    public long maxEventsLeft() {
        long max = 0;
        for (final long left : eventsLeft.values()) {
            max = Math.max(max, left);
        }
        return max;
    }

    /**
     * Names of the threads still running when the call returned (they ignored the stop, or a
     * handler is stuck).
     *
     * @return the thread names
     */
    public List<String> threadsStillRunning() {
        return threadsStillRunning;
    }

    /**
     * Stages that stopped on their own before or during the call.
     *
     * @return the failures, in the order they happened
     */
    public List<StageFailure> failures() {
        return failures;
    }

    /**
     * How long the call took.
     *
     * @return the duration
     */
    public Duration elapsed() {
        return elapsed;
    }

    /**
     * Throws unless the result {@link #isClean() is clean}.
     *
     * @return this result
     * @throws IllegalStateException with this result's description if something was left behind
     */
    public ShutdownResult requireClean() {
        if (!isClean()) {
            final IllegalStateException e = new IllegalStateException(toString());
            for (final StageFailure failure : failures) {
                if (failure.cause() != null) {
                    e.addSuppressed(failure.cause());
                }
            }
            throw e;
        }
        return this;
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder();
        sb.append('\'').append(name).append("' ").append(halted ? "halted" : "shut down");
        sb.append(" in ").append(elapsed.toMillis()).append(" ms: ");
        if (isDrained()) {
            sb.append("drained up to sequence ").append(drainTarget).append(" through ")
                    .append(eventsLeft.size()).append(eventsLeft.size() == 1 ? " stage" : " stages");
        } else {
            sb.append("NOT drained (target sequence ").append(drainTarget).append("):");
            for (final Map.Entry<String, Long> entry : eventsLeft.entrySet()) {
                if (entry.getValue() > 0) {
                    sb.append(' ').append(entry.getKey()).append(" left ").append(entry.getValue()).append(',');
                }
            }
            sb.setLength(sb.length() - 1);
        }
        if (claimsInFlight > 0) {
            sb.append("; ").append(claimsInFlight).append(" accepted events behind a claim not yet published");
        }
        if (!threadsStillRunning.isEmpty()) {
            sb.append("; threads still running: ").append(threadsStillRunning);
        }
        for (final StageFailure failure : failures) {
            sb.append("; ").append(failure);
        }
        return sb.toString();
    }
}
