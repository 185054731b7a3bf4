package dev.slipstream.topology;

import dev.slipstream.processor.ExceptionHandler;

/**
 * Sits between a stage and its exception handler: when the handler gives up on an event (throws),
 * records the sequence and cause for the stage's failure report, then lets the exception stop the
 * stage as the handler intended.
 */
final class TrackingExceptionHandler<E> implements ExceptionHandler<E> {
    private final ExceptionHandler<? super E> delegate;
    private volatile StageNode<?> node;

    TrackingExceptionHandler(final ExceptionHandler<? super E> delegate) {
        this.delegate = delegate;
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

    private void record(final long sequence, final Throwable fatal) {
        final StageNode<?> stage = node;
        if (stage != null) {
            stage.recordFailure(sequence, fatal);
        }
    }
}
