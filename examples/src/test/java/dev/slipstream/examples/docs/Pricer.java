package dev.slipstream.examples.docs;

import dev.slipstream.processor.EventHandler;
import java.util.concurrent.atomic.AtomicLong;

/** A worker of the ring-fed pool sample; counts the orders all pricers handled. */
final class Pricer implements EventHandler<Order> {
    static final AtomicLong PRICED = new AtomicLong();

    @Override
    public void onEvent(final Order order, final long sequence, final boolean endOfBatch) {
        PRICED.incrementAndGet();
    }
}
