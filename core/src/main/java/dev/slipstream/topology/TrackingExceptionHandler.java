package dev.slipstream.topology;

import dev.slipstream.processor.ExceptionHandler;

/**
 * Between a stage and its exception handler: counts what the handler lets pass
 * ({@link ExceptionTally}), and records the sequence and cause when it gives up (throws).
 */
final class TrackingExceptionHandler<E> implements ExceptionHandler<E> {
    private final ExceptionHandler<? super E> delegate;
    private final ExceptionTally tally = new ExceptionTally();
    private volatile StageNode<?> node;

    TrackingExceptionHandler(final ExceptionHandler<? super E> delegate) {
        this.delegate = delegate;
    }

    ExceptionTally tally() {
        return tally;
    }

    void attach(final StageNode<?> stage) {
        this.node = stage;
    }

    @Override
    public void handleEventException(final Throwable ex, final long sequence, final E event) {
        try {
            delegate.handleEventException(ex, sequence, event);
        } catch (RuntimeException | Error fatal) {
            record(sequence, fatal);
            throw fatal;
        }
        // it returned: the stage skips the event and goes on
        tally.skipped(ex);
    }

    @Override
    public void handleOnStartException(final Throwable ex) {
        try {
            delegate.handleOnStartException(ex);
        } catch (RuntimeException | Error fatal) {
            record(-1L, fatal);
            throw fatal;
        }
    }

    @Override
    public void handleOnShutdownException(final Throwable ex) {
        delegate.handleOnShutdownException(ex);
    }

    @Override
    public void stageStopped() {
        delegate.stageStopped();
    }

    private void record(final long sequence, final Throwable fatal) {
        final StageNode<?> stage = node;
        if (stage != null) {
            stage.recordFailure(sequence, fatal);
        }
    }
}
