package dev.slipstream.examples.docs;

import dev.slipstream.processor.EventHandler;
import java.util.concurrent.atomic.AtomicLong;

/** A worker of the queue-fed pool sample; counts the jobs all workers handled. */
final class JobHandler implements EventHandler<Job> {
    static final AtomicLong HANDLED = new AtomicLong();

    @Override
    public void onEvent(final Job job, final long sequence, final boolean endOfBatch) {
        HANDLED.incrementAndGet();
    }
}
