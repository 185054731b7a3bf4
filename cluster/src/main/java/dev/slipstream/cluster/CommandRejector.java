package dev.slipstream.cluster;

import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;

/**
 * A clustered pipeline's exception handler under {@link CommandFailurePolicy#REJECT}: an
 * {@link Exception} a stage throws marks the command rejected and answers its client once; an
 * {@link Error} halts the stage, and the service stops the member.
 *
 * <p>The pipeline gives each stage its own copy ({@link #forStage}), which logs through that
 * stage's {@link ExceptionHandlers#logAndContinue(String)}: the first rejection in full, then a
 * summary at most every 10 s.
 *
 * <pre>{@code
 * Slipstream.builder(factory).exceptionHandler(new CommandRejector<>(outbox)).build();
 * }</pre>
 *
 * @param <T> the payload type
 */
final class CommandRejector<T> implements ExceptionHandler<ClusterCommand<T>> {
    private final ReplyOutbox outbox;
    private final ExceptionHandler<ClusterCommand<T>> log;

    CommandRejector(final ReplyOutbox outbox) {
        this(outbox, ExceptionHandlers.logAndContinue());
    }

    private CommandRejector(final ReplyOutbox outbox, final ExceptionHandler<ClusterCommand<T>> log) {
        this.outbox = outbox;
        this.log = log;
    }

    @Override
    public ExceptionHandler<ClusterCommand<T>> forStage(final String stageName) {
        return new CommandRejector<>(outbox, ExceptionHandlers.logAndContinue(stageName));
    }

    @Override
    public void handleEventException(final Throwable ex, final long sequence, final ClusterCommand<T> command) {
        if (!(ex instanceof Exception) || command == null) {
            // not a function of the log (or no command to blame): this member stops, the others go on
            if (ex instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("stage failed without a command", ex);
        }
        // a stage that replied and then threw has answered already: one answer per command
        if (command.casRejected(reason(ex)) && !command.isTimer() && !command.isAnswered()) {
            outbox.reject(command, command.rejection());
        }
        log.handleEventException(ex, sequence, command);
    }

    @Override
    public void handleOnStartException(final Throwable ex) {
        if (ex instanceof Error error) {
            throw error;
        }
        throw ex instanceof RuntimeException runtime ? runtime
                : new IllegalStateException("a clustered stage failed to start", ex);
    }

    @Override
    public void handleOnShutdownException(final Throwable ex) {
        log.handleOnShutdownException(ex);
    }

    @Override
    public void stageStopped() {
        log.stageStopped();
    }

    /** @return what the client is told: the exception's type and message */
    static String reason(final Throwable ex) {
        final String message = ex.getMessage();
        return message == null ? ex.getClass().getName() : ex.getClass().getName() + ": " + message;
    }
}
