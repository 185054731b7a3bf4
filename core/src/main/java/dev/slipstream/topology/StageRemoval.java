package dev.slipstream.topology;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Slipstream#removeStage(Stage, java.time.Duration)} achieved. If the stage's threads
 * did not end in time it is <b>not</b> removed: it stays, halted and holding the producers back,
 * and the next {@link ShutdownResult} lists its threads as still running.
 *
 * <pre>{@code
 * StageRemoval removal = pipeline.removeStage(audit, Duration.ofSeconds(2));
 * if (!removal.isRemoved()) {
 *     log.warn(removal.toString());   // "stage 'audit' NOT removed: threads [...] still running ..."
 * }
 * }</pre>
 */
public final class StageRemoval {
    private final String stageName;
    private final long eventsLeft;
    private final List<String> threadsStillRunning;

    StageRemoval(final String stageName, final long eventsLeft, final List<String> threadsStillRunning) {
        this.stageName = Objects.requireNonNull(stageName);
        this.eventsLeft = eventsLeft;
        this.threadsStillRunning = List.copyOf(threadsStillRunning);
    }

    /**
     * The stage.
     *
     * @return its name
     */
    public String stageName() {
        return stageName;
    }

    /**
     * Whether the stage's threads ended and it left the pipeline.
     *
     * @return true if removed
     */
    public boolean isRemoved() {
        return threadsStillRunning.isEmpty();
    }

    /**
     * How many events published when it was asked to stop the stage did not finish.
     *
     * @return the count
     */
    public long eventsLeft() {
        return eventsLeft;
    }

    /**
     * The stage's threads that did not end within the timeout (empty if removed).
     *
     * @return thread names
     */
    public List<String> threadsStillRunning() {
        return threadsStillRunning;
    }

    @Override
    public String toString() {
        return isRemoved()
                ? "stage '" + stageName + "' removed; it left " + eventsLeft + " published events unfinished"
                : "stage '" + stageName + "' NOT removed: threads " + threadsStillRunning + " still running; it stays"
                        + " in the pipeline, halted, holding the producers back, " + eventsLeft + " events unfinished";
    }
}
