package dev.slipstream.topology;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a shutdown or halt achieved: whether every event accepted before it went through every
 * stage, how many each stage left behind if not, how many each stage skipped because its handler
 * threw, whether every thread ended, and which stages failed on the way.
 *
 * <p><b>What "clean" promises.</b> {@link #isClean()} is true only if every accepted event was
 * handled by every stage <em>without an exception</em>: nothing left ({@link #isDrained()}), no
 * event skipped after an exception ({@link #eventsSkipped()}: the stage's exception handler took
 * the exception and the stage went on, a rewind that gave up included), every thread ended
 * ({@link #isTerminated()}), and no stage failed ({@link #failures()}), at any time, during the
 * shutdown included. A batch that was retried after a {@link
 * dev.slipstream.processor.RewindableException} and then succeeded is not a skip: its events were
 * handled; {@link #batchesRetried()} counts those retries.
 *
 * <p>The accounting contract: every publication that returned normally (accepted) is either
 * handled by every stage, or counted in {@link #eventsLeft()} for each stage that did not handle
 * it; a publication that threw was not accepted and is not counted. For a pipeline the count is
 * taken against the ring's close fence, {@link #drainTarget()}: the highest sequence accepted
 * before the ring closed. Claims at or below it that their producers had not yet published when
 * the call returned are in {@link #claimsInFlight()} (and in every stage's count).
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
    private final Map<String, Long> eventsSkipped;
    private final Map<String, Long> retriesGivenUp;
    private final Map<String, Long> batchesRetried;

    /**
     * @param eventsSkipped per stage, events skipped after an exception (see {@link #eventsSkipped()})
     * @param retriesGivenUp per stage, of those, rewinds that gave up
     * @param batchesRetried per stage, batches handled again after a rewindable exception
     */
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
     * Every accepted event handled by every stage without an exception: drained, no event
     * skipped after an exception, terminated, and no stage failed (see the class comment).
     *
     * @return true if every accepted event went through every stage, no handler threw, and
     *     nothing was left running
     */
    public boolean isClean() {
        return isDrained() && totalEventsSkipped() == 0L && isTerminated() && failures.isEmpty();
    }

    /**
     * Per stage, in pipeline order, how many events it skipped because its handler threw and its
     * exception handler let the stage go on (the default, {@code logAndContinue}, does): the
     * event counts as finished for {@link #eventsLeft()}, but was not handled. Includes events
     * whose batch the rewind strategy gave up retrying ({@link #retriesGivenUp()}), and failed
     * {@code onBatchStart} and {@code onTimeout} callbacks. An exception that stopped the stage is
     * not here but in {@link #failures()}.
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
        long sum = 0L;
        for (final long skipped : eventsSkipped.values()) {
            sum += skipped;
        }
        return sum;
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
     * Per stage, how many times a batch was handled again after its handler threw a
     * {@link dev.slipstream.processor.RewindableException}. A retry that later succeeded does not
     * make the result unclean (its events were handled); one that gave up is in
     * {@link #eventsSkipped()}.
     *
     * @return stage name to count
     */
    public Map<String, Long> batchesRetried() {
        return batchesRetried;
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
        for (final StageFailure failure : failures) {
            sb.append("; ").append(failure);
        }
        return sb.toString();
    }
}
