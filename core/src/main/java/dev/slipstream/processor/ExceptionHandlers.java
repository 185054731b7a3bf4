package dev.slipstream.processor;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The built-in {@link ExceptionHandler exception handlers}: log and continue (the default of a
 * {@link BatchEventProcessor}), halt the stage, or rethrow to the thread's uncaught exception
 * handler. Each logs through {@link System.Logger} (logger {@code dev.slipstream.processor}),
 * naming the stage (or, without a stage name, the thread), the sequence and the event. A pipeline
 * names the stage for you (see {@link ExceptionHandler#forStage}).
 *
 * <p><b>Logs a production system can live with.</b> {@link #logAndContinue()} logs a stage's
 * first exception in full; after that, at most one summary per {@link #DEFAULT_SUMMARY_INTERVAL}
 * (10 s): how many, the first and last sequence, and the types, without stack traces. So a stage
 * that throws on a million events writes one full record and a few summary lines. Every exception
 * still reaches the stage's counters and the pipeline's {@code ShutdownResult}; to log each in
 * full, use {@link #logAndContinue(String, Duration)} with {@link Duration#ZERO}.
 *
 * <p>The summary is kept per handler instance: give each stage its own (the
 * {@code (stageName)} variants make a new one). The last summary is written when
 * {@link ExceptionHandler#stageStopped()} is called, which a pipeline and a queue-fed pool do and
 * a hand-wired {@link BatchEventProcessor} does not.
 *
 * <pre>{@code
 * processor.setExceptionHandler(ExceptionHandlers.halt("matching-engine"));
 * processor.setExceptionHandler(ExceptionHandlers.logAndContinue("journal"));   // the default
 * processor.setExceptionHandler(ExceptionHandlers.logAndContinue("audit", Duration.ZERO));  // every one
 * }</pre>
 */
public final class ExceptionHandlers {
    /** How often, at most, {@link #logAndContinue()} logs a summary after a stage's first exception. */
    public static final Duration DEFAULT_SUMMARY_INTERVAL = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger("dev.slipstream.processor");
    /** Exception types a summary names before it says "and others". */
    private static final int SUMMARY_TYPES = 5;

    private static final ExceptionHandler<Object> LOG_AND_CONTINUE = policy(Policy.CONTINUE, null, DEFAULT_SUMMARY_INTERVAL);
    private static final ExceptionHandler<Object> HALT = policy(Policy.HALT, null, DEFAULT_SUMMARY_INTERVAL);
    private static final ExceptionHandler<Object> RETHROW = policy(Policy.RETHROW, null, DEFAULT_SUMMARY_INTERVAL);

    private ExceptionHandlers() {
    }

    /**
     * Logs the exception (level WARNING) with the sequence and the event, skips the event and
     * keeps the stage running: the first exception in full, then at most one summary per
     * {@link #DEFAULT_SUMMARY_INTERVAL} (see the class comment). A failure in {@code onStart}
     * or {@code onShutdown} is logged in full.
     *
     * @param <E> the event type
     * @return the shared instance, which names the thread in its messages (a pipeline gives each
     *     stage a copy that names the stage)
     */
    public static <E> ExceptionHandler<E> logAndContinue() {
        return cast(LOG_AND_CONTINUE);
    }

    /**
     * As {@link #logAndContinue()}, naming the stage in its messages.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @return a new handler, with its own summary
     */
    public static <E> ExceptionHandler<E> logAndContinue(final String stageName) {
        return policy(Policy.CONTINUE, stageName, DEFAULT_SUMMARY_INTERVAL);
    }

    /**
     * As {@link #logAndContinue(String)}, with the summary interval given: after the first
     * exception, at most one summary line per {@code summaryInterval}; {@link Duration#ZERO}
     * logs every exception in full.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @param summaryInterval how often at most to log a summary; zero for every exception in full
     * @return a new handler, with its own summary
     * @throws NullPointerException if {@code summaryInterval} is null
     * @throws IllegalArgumentException if {@code summaryInterval} is negative
     */
    public static <E> ExceptionHandler<E> logAndContinue(final String stageName, final Duration summaryInterval) {
        if (Objects.requireNonNull(summaryInterval,
                "summaryInterval must not be null: use Duration.ZERO to log every exception in full").isNegative()) {
            throw new IllegalArgumentException("summaryInterval must not be negative, got " + summaryInterval
                    + "; use Duration.ZERO to log every exception in full");
        }
        return policy(Policy.CONTINUE, stageName, summaryInterval);
    }

    /**
     * Logs the exception (level ERROR) and stops the processor cleanly by throwing
     * {@link HaltProcessorException}: its sequence stays at the event before the failing one,
     * {@code onShutdown} runs, and {@code run()} returns. A failure in {@code onStart} halts the
     * stage before it processes anything; one in {@code onShutdown} is only logged. In a
     * pipeline the pipeline logs the stop (once), so the copy it uses does not.
     *
     * @param <E> the event type
     * @return the shared instance, which names the thread in its messages
     */
    public static <E> ExceptionHandler<E> halt() {
        return cast(HALT);
    }

    /**
     * As {@link #halt()}, naming the stage in its messages.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @return the handler
     */
    public static <E> ExceptionHandler<E> halt(final String stageName) {
        return policy(Policy.HALT, stageName, DEFAULT_SUMMARY_INTERVAL);
    }

    /**
     * Stops the processor by throwing a {@link StageFailedException} that wraps the handler's
     * exception; it escapes from {@code run()} (after {@code onShutdown}) to the thread's
     * uncaught exception handler, which reports it, so this handler does not log. Failures in
     * {@code onStart} and {@code onShutdown} are rethrown the same way.
     *
     * @param <E> the event type
     * @return the shared instance, which names the thread in its messages
     */
    public static <E> ExceptionHandler<E> rethrow() {
        return cast(RETHROW);
    }

    /**
     * As {@link #rethrow()}, naming the stage in its messages.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @return the handler
     */
    public static <E> ExceptionHandler<E> rethrow(final String stageName) {
        return policy(Policy.RETHROW, stageName, DEFAULT_SUMMARY_INTERVAL);
    }

    private static <E> ExceptionHandler<E> policy(final int kind, final String stageName, final Duration summaryInterval) {
        return cast(new Policy(kind, stageName, true, summaryInterval.toNanos()));
    }

    @SuppressWarnings("unchecked")
    private static <E> ExceptionHandler<E> cast(final ExceptionHandler<Object> handler) {
        // a policy never looks at the event beyond its toString, so it serves any event type
        return (ExceptionHandler<E>) handler;
    }

    /** "stage 'journal'", or the thread when the stage has no name. */
    static String stageLabel(final String stageName) {
        return stageName != null
                ? "stage '" + stageName + "'"
                : "unnamed stage on thread '" + Thread.currentThread().getName() + "'";
    }

    /** The message for a failed event; also used for timeouts, whose event is null. */
    static String eventMessage(final String stageName, final long sequence, final Object event, final String outcome) {
        return stageLabel(stageName) + ": exception at sequence " + sequence
                + (event == null ? "" : " on event " + describe(event)) + "; " + outcome;
    }

    /** The event's toString, which is user code and may itself throw. */
    private static String describe(final Object event) {
        try {
            return String.valueOf(event);
        } catch (RuntimeException e) {
            return event.getClass().getName() + " (toString failed: " + e + ")";
        }
    }

    /** What the policy does with an event whose exception it skips: the log message's ending. */
    private static String skipOutcome(final Throwable ex) {
        return ex instanceof RewindableException
                ? "the rewind strategy gave up retrying its batch; skipping the event"
                : "skipping the event";
    }

    private static final class Policy implements ExceptionHandler<Object> {
        static final int CONTINUE = 0;
        static final int HALT = 1;
        static final int RETHROW = 2;

        private final int kind;
        private final String stageName;
        /** False in the copy a pipeline uses: the pipeline logs a stop itself, once. */
        private final boolean logsStops;
        private final long summaryIntervalNanos;

        // The summary of exceptions not logged in full; guarded by this. Touched only when a
        // handler threw, never on an event that succeeds.
        private boolean firstLogged;
        private long lastReportNanos;
        private long pending;
        private long pendingFirst;
        private long pendingLast;
        private final Set<String> pendingTypes = new LinkedHashSet<>();
        private boolean moreTypes;

        Policy(final int kind, final String stageName, final boolean logsStops, final long summaryIntervalNanos) {
            this.kind = kind;
            this.stageName = stageName;
            this.logsStops = logsStops;
            this.summaryIntervalNanos = summaryIntervalNanos;
        }

        @Override
        public ExceptionHandler<Object> forStage(final String name) {
            // a name the user gave stays; a new instance: its own summary, no log of a stop
            return new Policy(kind, stageName != null ? stageName : name, false, summaryIntervalNanos);
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final Object event) {
            switch (kind) {
                case CONTINUE -> logSkipped(ex, sequence, event);
                case HALT -> throw halting(eventMessage(stageName, sequence, event, "halting the stage"), ex);
                default -> throw new StageFailedException(
                        eventMessage(stageName, sequence, event, "the stage stopped"), sequence, ex);
            }
        }

        private HaltProcessorException halting(final String message, final Throwable ex) {
            if (logsStops) {
                LOG.log(Level.ERROR, message, ex);
            }
            // the cause's type and message in the text too: a result or log line that shows only
            // this exception's toString still says why the stage stopped
            return new HaltProcessorException(message + ": " + ex, ex);
        }

        /** The first exception in full, then a summary at most once per interval. */
        private void logSkipped(final Throwable ex, final long sequence, final Object event) {
            final String summary;
            synchronized (this) {
                final long now = System.nanoTime();
                if (!firstLogged || summaryIntervalNanos == 0L) {
                    firstLogged = true;
                    lastReportNanos = now;
                    summary = null;
                } else {
                    if (pending == 0L) {
                        pendingFirst = sequence;
                    }
                    pending++;
                    pendingLast = sequence;
                    if (pendingTypes.size() < SUMMARY_TYPES) {
                        pendingTypes.add(ex.getClass().getName());
                    } else if (!pendingTypes.contains(ex.getClass().getName())) {
                        moreTypes = true;
                    }
                    if (now - lastReportNanos < summaryIntervalNanos) {
                        return;
                    }
                    summary = takeSummary(now, "since the last report");
                }
            }
            if (summary == null) {
                LOG.log(Level.WARNING, eventMessage(stageName, sequence, event, skipOutcome(ex))
                        + (summaryIntervalNanos == 0L ? "" : "; further exceptions of this stage are summarised,"
                        + " at most once every " + Duration.ofNanos(summaryIntervalNanos).toMillis() + " ms"), ex);
            } else {
                LOG.log(Level.WARNING, summary);
            }
        }

        /** The summary of the pending exceptions, which it clears; guarded by this. */
        private String takeSummary(final long now, final String when) {
            final String summary = stageLabel(stageName) + ": " + pending + (pending == 1 ? " more exception " : " more exceptions ")
                    + when + ", at sequences " + pendingFirst + " to " + pendingLast + ", types " + pendingTypes
                    + (moreTypes ? " and others" : "") + "; those events were skipped";
            pending = 0L;
            pendingTypes.clear();
            moreTypes = false;
            lastReportNanos = now;
            return summary;
        }

        @Override
        public void stageStopped() {
            if (kind != CONTINUE) {
                return;
            }
            final String summary;
            synchronized (this) {
                if (pending == 0L) {
                    return;
                }
                summary = takeSummary(System.nanoTime(), "since the last report (the stage is stopping)");
            }
            LOG.log(Level.WARNING, summary);
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
            switch (kind) {
                case CONTINUE -> LOG.log(Level.WARNING, stageLabel(stageName) + ": exception in onStart; the stage runs anyway", ex);
                case HALT -> throw halting(stageLabel(stageName) + ": exception in onStart; halting the stage", ex);
                default -> throw new StageFailedException(stageLabel(stageName) + ": exception in onStart", -1L, ex);
            }
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
            if (kind == RETHROW) {
                throw new StageFailedException(stageLabel(stageName) + ": exception in onShutdown", -1L, ex);
            }
            LOG.log(kind == HALT ? Level.ERROR : Level.WARNING,
                    stageLabel(stageName) + ": exception in onShutdown", ex);
        }

        @Override
        public String toString() {
            final String policy = kind == CONTINUE ? "logAndContinue" : kind == HALT ? "halt" : "rethrow";
            return "ExceptionHandlers." + policy + "(" + (stageName == null ? "" : "\"" + stageName + "\"") + ")";
        }
    }
}
