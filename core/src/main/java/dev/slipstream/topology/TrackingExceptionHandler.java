package dev.slipstream.topology;

import dev.slipstream.processor.ExceptionHandler;

/**
 * Sits between a stage and its exception handler: counts every exception the handler lets pass
 * (the event is skipped, see {@link ExceptionTally}), and when the handler gives up on an event
 * (throws), records the sequence and cause for the stage's failure report, then lets the
 * exception stop the stage as the handler intended.
 */
final class TrackingExceptionHandler<E> implements ExceptionHandler<E> {
    private final ExceptionHandler<? super E> delegate;
    private final ExceptionTally tally = new ExceptionTally();
    private volatile StageNode<?> node;

    /**
     * @param delegate the stage's exception handler, already {@link ExceptionHandler#forStage named
     *     for the stage}
     */
    TrackingExceptionHandler(final ExceptionHandler<? super E> delegate) {
        this.delegate = delegate;
    }

    /** What the handler let pass so far. */
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
