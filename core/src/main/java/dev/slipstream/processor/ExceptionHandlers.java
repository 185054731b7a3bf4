package dev.slipstream.processor;

import java.lang.System.Logger.Level;

/**
 * The built-in {@link ExceptionHandler exception handlers}: log and continue (the default of a
 * {@link BatchEventProcessor}), halt the stage, or rethrow to the thread's uncaught exception
 * handler. Each logs through {@link System.Logger} (logger {@code dev.slipstream.processor}, so
 * java.util.logging or any other backend routed to System.Logger), naming the stage, the
 * sequence and the event. Give the stage name when you create one; without it the message names
 * the thread, which the topology names after the stage.
 *
 * <pre>{@code
 * processor.setExceptionHandler(ExceptionHandlers.halt("matching-engine"));
 * processor.setExceptionHandler(ExceptionHandlers.logAndContinue());   // the default
 * }</pre>
 */
public final class ExceptionHandlers {
    private static final System.Logger LOG = System.getLogger("dev.slipstream.processor");

    private static final ExceptionHandler<Object> LOG_AND_CONTINUE = new Policy(Policy.CONTINUE, null);
    private static final ExceptionHandler<Object> HALT = new Policy(Policy.HALT, null);
    private static final ExceptionHandler<Object> RETHROW = new Policy(Policy.RETHROW, null);

    private ExceptionHandlers() {
    }

    /**
     * Logs the exception (level WARNING) with the sequence and the event, skips the event and
     * keeps the stage running. A failure in {@code onStart} or {@code onShutdown} is logged too.
     *
     * @param <E> the event type
     * @return the shared instance, which names the thread in its messages
     */
    @SuppressWarnings("unchecked")
    public static <E> ExceptionHandler<E> logAndContinue() {
        return (ExceptionHandler<E>) LOG_AND_CONTINUE;
    }

    /**
     * As {@link #logAndContinue()}, naming the stage in its messages.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @return the handler
     */
    @SuppressWarnings("unchecked")
    public static <E> ExceptionHandler<E> logAndContinue(final String stageName) {
        return (ExceptionHandler<E>) new Policy(Policy.CONTINUE, stageName);
    }

    /**
     * Logs the exception (level ERROR) and stops the processor cleanly by throwing
     * {@link HaltProcessorException}: its sequence stays at the event before the failing one,
     * {@code onShutdown} runs, and {@code run()} returns. A failure in {@code onStart} halts the
     * stage before it processes anything; one in {@code onShutdown} is only logged.
     *
     * @param <E> the event type
     * @return the shared instance, which names the thread in its messages
     */
    @SuppressWarnings("unchecked")
    public static <E> ExceptionHandler<E> halt() {
        return (ExceptionHandler<E>) HALT;
    }

    /**
     * As {@link #halt()}, naming the stage in its messages.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @return the handler
     */
    @SuppressWarnings("unchecked")
    public static <E> ExceptionHandler<E> halt(final String stageName) {
        return (ExceptionHandler<E>) new Policy(Policy.HALT, stageName);
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
    @SuppressWarnings("unchecked")
    public static <E> ExceptionHandler<E> rethrow() {
        return (ExceptionHandler<E>) RETHROW;
    }

    /**
     * As {@link #rethrow()}, naming the stage in its messages.
     *
     * @param <E> the event type
     * @param stageName the stage's name, or null to name the thread instead
     * @return the handler
     */
    @SuppressWarnings("unchecked")
    public static <E> ExceptionHandler<E> rethrow(final String stageName) {
        return (ExceptionHandler<E>) new Policy(Policy.RETHROW, stageName);
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

    private static final class Policy implements ExceptionHandler<Object> {
        static final int CONTINUE = 0;
        static final int HALT = 1;
        static final int RETHROW = 2;

        private final int kind;
        private final String stageName;

        Policy(final int kind, final String stageName) {
            this.kind = kind;
            this.stageName = stageName;
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final Object event) {
            switch (kind) {
                case CONTINUE:
                    LOG.log(Level.WARNING, eventMessage(stageName, sequence, event, "skipping the event"), ex);
                    return;
                case HALT: {
                    final String message = eventMessage(stageName, sequence, event, "halting the stage");
                    LOG.log(Level.ERROR, message, ex);
                    throw new HaltProcessorException(message, ex);
                }
                default:
                    throw new StageFailedException(
                            eventMessage(stageName, sequence, event, "the stage stopped"), sequence, ex);
            }
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
            switch (kind) {
                case CONTINUE:
                    LOG.log(Level.WARNING, stageLabel(stageName) + ": exception in onStart; the stage runs anyway", ex);
                    return;
                case HALT: {
                    final String message = stageLabel(stageName) + ": exception in onStart; halting the stage";
                    LOG.log(Level.ERROR, message, ex);
                    throw new HaltProcessorException(message, ex);
                }
                default:
                    throw new StageFailedException(stageLabel(stageName) + ": exception in onStart", -1L, ex);
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
