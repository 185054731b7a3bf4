package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
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
}
