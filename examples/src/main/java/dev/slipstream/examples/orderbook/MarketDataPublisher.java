package dev.slipstream.examples.orderbook;

import dev.slipstream.processor.EventHandler;
import java.io.PrintStream;

/**
 * The market-data stage, last in the pipeline: reads the top of book that the matching stage
 * wrote into the event and publishes it (here: prints it) every {@code every} orders.
 */
final class MarketDataPublisher implements EventHandler<OrderEvent> {
    private final PrintStream out;
    private final long every;
    private long published;

    MarketDataPublisher(final PrintStream out, final long every) {
        if (every < 1) {
            throw new IllegalArgumentException("printEvery must be at least 1, got " + every);
        }
        this.out = out;
        this.every = every;
    }

    @Override
    public void onEvent(final OrderEvent order, final long sequence, final boolean endOfBatch) {
        if ((sequence + 1) % every == 0) {
            published++;
            out.printf("  market data @ %,11d   bid %,6d x %-6d  ask %,6d x %-6d%n", sequence + 1,
                    order.bestBid, order.bestBidQuantity, order.bestAsk, order.bestAskQuantity);
        }
    }

    long published() {
        return published;
    }
}
