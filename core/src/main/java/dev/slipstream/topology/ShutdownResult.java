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
 * <pre>{@code
 * ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));
 * if (!result.isClean()) {
 *     log.warn(result.toString());   // e.g. "... NOT drained: journal left 12 events ..."
 * }
 * result.requireClean();             // or throw instead
 * }</pre>
 */
public final class ShutdownResult {
    private final String name;
    private final boolean halted;
    private final long drainTarget;
    private final Map<String, Long> eventsLeft;
    private final List<String> threadsStillRunning;
    private final List<StageFailure> failures;
    private final Duration elapsed;

    ShutdownResult(final String name, final boolean halted, final long drainTarget,
                   final Map<String, Long> eventsLeft, final List<String> threadsStillRunning,
                   final List<StageFailure> failures, final Duration elapsed) {
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
     * The sequence the stages had to reach: the highest contiguous sequence published before the
     * ring closed (-1 if nothing was published; for a queue-fed pool, -1).
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
        if (!threadsStillRunning.isEmpty()) {
            sb.append("; threads still running: ").append(threadsStillRunning);
        }
        for (final StageFailure failure : failures) {
            sb.append("; ").append(failure);
        }
        return sb.toString();
    }
}
