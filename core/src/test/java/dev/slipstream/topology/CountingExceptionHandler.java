package dev.slipstream.topology;

import dev.slipstream.processor.ExceptionHandler;
import java.util.concurrent.atomic.AtomicLong;

/** Counts event exceptions and carries on. */
final class CountingExceptionHandler<E> implements ExceptionHandler<E> {
    private final AtomicLong count;

    CountingExceptionHandler(final AtomicLong count) {
        this.count = count;
    }

    @Override
    public void handleEventException(final Throwable ex, final long sequence, final E event) {
        count.incrementAndGet();
    }

    @Override
    public void handleOnStartException(final Throwable ex) {
    }

    @Override
    public void handleOnShutdownException(final Throwable ex) {
    }
}
