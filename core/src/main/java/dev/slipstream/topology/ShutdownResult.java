package dev.slipstream.topology;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a shutdown or halt achieved: per stage, the accepted events left behind and those skipped
 * because a handler threw; the threads still running; the stages that failed.
 *
 * <p>{@link #isClean()} means every accepted event was handled by every stage without an
 * exception: drained, nothing skipped, every thread ended, no stage failed at any time. A batch
 * retried after a {@link dev.slipstream.processor.RewindableException} that then succeeded is
 * handled, not skipped.
 *
 * <p>Accounting: every publication that returned normally is handled by every stage or counted in
 * {@link #eventsLeft()} for each stage that did not handle it; one that threw is not counted. A
 * pipeline counts against the ring's close fence, {@link #drainTarget()}.
 *
 * <pre>{@code
 * ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));
 * if (!result.isClean()) {
 *     log.warn(result.toString());   // e.g. "... NOT drained ...: journal left 12; pricer skipped 3 events after an exception"
 * }
 * result.requireClean();             // or throw instead
 * }</pre>
 */
public final class ShutdownResult {
    /** The {@link #eventsLeft()} key for accepted events of a pipeline that had no stage when it stopped. */
    public static final String NO_STAGE = "(no stage)";

    private final String name;
    private final boolean halted;
    private final long drainTarget;
    private final Map<String, Long> eventsLeft;
    private final List<String> threadsStillRunning;
    private final List<StageFailure> failures;
    private final Duration elapsed;
    private final long claimsInFlight;
    private final Map<String, Long> eventsSkipped;
    private final Map<String, Long> retriesGivenUp;
    private final Map<String, Long> batchesRetried;

    ShutdownResult(final String name, final boolean halted, final long drainTarget,
                   final Map<String, Long> eventsLeft, final List<String> threadsStillRunning,
                   final List<StageFailure> failures, final Duration elapsed, final long claimsInFlight,
                   final Map<String, Long> eventsSkipped, final Map<String, Long> retriesGivenUp,
                   final Map<String, Long> batchesRetried) {
        this.claimsInFlight = claimsInFlight;
        this.eventsSkipped = Collections.unmodifiableMap(new LinkedHashMap<>(eventsSkipped));
        this.retriesGivenUp = Collections.unmodifiableMap(new LinkedHashMap<>(retriesGivenUp));
        this.batchesRetried = Collections.unmodifiableMap(new LinkedHashMap<>(batchesRetried));
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
     * Whether this was a halt rather than a draining shutdown.
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
        return maxEventsLeft() == 0L;
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
     * Drained, nothing skipped, terminated, and no stage failed (see the class comment).
     *
     * @return true if every accepted event went through every stage without an exception
     */
    public boolean isClean() {
        return isDrained() && totalEventsSkipped() == 0L && isTerminated() && failures.isEmpty();
    }

    /**
     * Per stage, in pipeline order, events skipped because the handler threw and the exception
     * handler let the stage go on: finished for {@link #eventsLeft()}, but not handled. Includes
     * rewinds that gave up ({@link #retriesGivenUp()}) and failed {@code onBatchStart} and
     * {@code onTimeout} callbacks; an exception that stopped the stage is in {@link #failures()}.
     *
     * @return stage name to count (0 for a stage whose handler never threw); empty for a halt or
     *     shutdown of something that counts no exceptions
     */
    public Map<String, Long> eventsSkipped() {
        return eventsSkipped;
    }

    /**
     * How many events one stage skipped after an exception (see {@link #eventsSkipped()}).
     *
     * @param stageName the stage
     * @return the count
     * @throws IllegalArgumentException if there is no such stage
     */
    public long eventsSkipped(final String stageName) {
        return ofStage(eventsSkipped, stageName);
    }

    /**
     * The events skipped after an exception, over all stages.
     *
     * @return the sum of {@link #eventsSkipped()}
     */
    public long totalEventsSkipped() {
        return eventsSkipped.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Per stage, of its {@link #eventsSkipped() skipped events}, those that threw a
     * {@link dev.slipstream.processor.RewindableException} whose rewind strategy gave up.
     *
     * @return stage name to count
     */
    public Map<String, Long> retriesGivenUp() {
        return retriesGivenUp;
    }

    /**
     * Per stage, batches handled again after a {@link dev.slipstream.processor.RewindableException};
     * a retry that gave up is also in {@link #eventsSkipped()}.
     *
     * @return stage name to count
     */
    public Map<String, Long> batchesRetried() {
        return batchesRetried;
    }

    /**
     * Accepted sequences not yet published when the call returned, from the first unpublished
     * claim up to the fence; also counted in every stage's {@link #eventsLeft()}.
     *
     * @return the count, 0 for a queue-fed pool
     */
    public long claimsInFlight() {
        return claimsInFlight;
    }

    /**
     * The ring's close fence: the highest sequence accepted before the ring closed.
     *
     * @return the drain target; -1 if nothing was accepted, and for a queue-fed pool
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
        return ofStage(eventsLeft, stageName);
    }

    /** One stage's count in a per-stage map, naming the stages there are if it has none. */
    private long ofStage(final Map<String, Long> perStage, final String stageName) {
        final Long count = perStage.get(stageName);
        if (count == null) {
            throw new IllegalArgumentException("no stage named '" + stageName + "' in '" + name
                    + "'; stages are " + perStage.keySet());
        }
        return count;
    }

    /**
     * The most events any one stage left behind.
     *
     * @return the maximum over the stages, 0 if drained
     */
    public long maxEventsLeft() {
        return eventsLeft.values().stream().mapToLong(Long::longValue).reduce(0L, Math::max);
    }

    /**
     * Names of the threads still running when the call returned.
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
            failures.stream().map(StageFailure::cause).filter(Objects::nonNull).forEach(e::addSuppressed);
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
        for (final Map.Entry<String, Long> entry : eventsSkipped.entrySet()) {
            final long skipped = entry.getValue();
            if (skipped > 0) {
                sb.append("; ").append(entry.getKey()).append(" skipped ").append(skipped)
                        .append(skipped == 1 ? " event" : " events").append(" after an exception");
                final long givenUp = retriesGivenUp.getOrDefault(entry.getKey(), 0L);
                if (givenUp > 0) {
                    sb.append(" (").append(givenUp).append(" after its rewinds gave up)");
                }
            }
        }
        for (final Map.Entry<String, Long> entry : batchesRetried.entrySet()) {
            if (entry.getValue() > 0) {
                sb.append("; ").append(entry.getKey()).append(" retried ").append(entry.getValue())
                        .append(entry.getValue() == 1 ? " batch" : " batches");
            }
        }
        if (!threadsStillRunning.isEmpty()) {
            sb.append("; threads still running: ").append(threadsStillRunning);
        }
        failures.forEach(failure -> sb.append("; ").append(failure));
        return sb.toString();
    }
}
