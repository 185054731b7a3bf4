package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import java.util.concurrent.atomic.AtomicLong;

/** Distinct handler instances for tests (a non-capturing lambda is one shared object). */
final class Handlers {
    private Handlers() {
    }

    static EventHandler<TestEvent> noop() {
        return new EventHandler<>() {
            @Override
            public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
            }
        };
    }

    /** Sums event values and counts events; checks sequences arrive in order. */
    static final class Summing implements EventHandler<TestEvent> {
        final AtomicLong sum = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        volatile long lastSequence = -1;
        volatile boolean outOfOrder;

        @Override
        public void onEvent(final TestEvent event, final long sequence, final boolean endOfBatch) {
            if (sequence != lastSequence + 1 && lastSequence != -1) {
                outOfOrder = true;
            }
            lastSequence = sequence;
            sum.addAndGet(event.value);
            count.incrementAndGet();
        }
    }

    /**
     * Rethrows every event exception, so the stage gives up; with {@code callbacksToo}, a failed
     * {@code onStart} or {@code onShutdown} as well, else those are ignored.
     */
    static final class GiveUp implements ExceptionHandler<TestEvent> {
        private final boolean callbacksToo;

        GiveUp(final boolean callbacksToo) {
            this.callbacksToo = callbacksToo;
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final TestEvent event) {
            throw new IllegalStateException("giving up on sequence " + sequence, ex);
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
            if (callbacksToo) {
                throw new IllegalStateException("giving up on start", ex);
            }
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
            if (callbacksToo) {
                throw new IllegalStateException("giving up on shutdown", ex);
            }
        }
    }
}
