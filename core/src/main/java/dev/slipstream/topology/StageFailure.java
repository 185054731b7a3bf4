package dev.slipstream.topology;

import java.util.Objects;

/**
 * Why a stage stopped on its own: its exception handler gave up on an event, or its thread ended
 * unexpectedly. The pipeline then stops (see {@link Slipstream}).
 *
 * <pre>{@code
 * ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));
 * for (StageFailure failure : result.failures()) {
 *     log.error("stage " + failure.stageName() + " failed at " + failure.sequence(), failure.cause());
 * }
 * }</pre>
 */
public final class StageFailure {
    /** How many causes {@link #toString()} follows: a guard against a cycle in a cause chain. */
    private static final int MAX_CAUSES = 8;

    private final String stageName;
    private final long sequence;
    private final Throwable cause;

    /**
     * Creates the record.
     *
     * @param stageName the stage that stopped
     * @param sequence the sequence of the event it failed on, or -1 if it was not an event
     * @param cause what was thrown, or null if the stage ended without an exception
     */
    public StageFailure(final String stageName, final long sequence, final Throwable cause) {
        this.stageName = Objects.requireNonNull(stageName, "stageName must not be null");
        this.sequence = sequence;
        this.cause = cause;
    }

    /**
     * The stage that stopped.
     *
     * @return its name
     */
    public String stageName() {
        return stageName;
    }

    /**
     * The sequence of the event the stage failed on.
     *
     * @return the sequence, or -1 if the failure was not about one event
     */
    public long sequence() {
        return sequence;
    }

    /**
     * What was thrown.
     *
     * @return the exception, or null if the stage's thread ended without one
     */
    public Throwable cause() {
        return cause;
    }

    /**
     * The stage, the sequence, and what was thrown with each of its causes, so the reason shows
     * through a wrapper such as {@link dev.slipstream.processor.HaltProcessorException}.
     */
    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("stage '").append(stageName).append("' failed");
        if (sequence >= 0) {
            sb.append(" at sequence ").append(sequence);
        }
        if (cause == null) {
            return sb.append(": its thread ended unexpectedly").toString();
        }
        sb.append(": ").append(cause);
        Throwable seen = cause;
        for (int depth = 0; depth < MAX_CAUSES && seen.getCause() != null && seen.getCause() != seen; depth++) {
            seen = seen.getCause();
            // a wrapper whose message already quotes its cause gets no second copy of it
            final String rendered = String.valueOf(seen);
            if (sb.indexOf(rendered) < 0) {
                sb.append("; caused by ").append(rendered);
            }
        }
        return sb.toString();
    }
}
