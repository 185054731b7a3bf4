package dev.slipstream.examples.orderbook;

import dev.slipstream.processor.EventHandler;
import org.HdrHistogram.Histogram;

/**
 * The matching stage: the single thread that owns the {@link OrderBook}. It runs after both the
 * journal and the replica, so an order is matched only once it is durable and replicated. For
 * each order it writes the execution report (filled quantity, fills, rejected) and the top of
 * book into the event for the market-data stage, and records the latency from the client's
 * submission to this report.
 *
 * <p>Only this thread writes the histogram; read it after the pipeline has shut down (joining
 * the stage's thread makes its writes visible).
 */
final class MatchingStage implements EventHandler<OrderEvent>, ExecutionListener {
    private final OrderBook book;
    private final ExecutionDigest digest = new ExecutionDigest();
    private final Histogram latency;
    private OrderEvent current;

    MatchingStage(final OrderBook book, final Histogram latency) {
        this.book = book;
        this.latency = latency;
    }

    @Override
    public void onEvent(final OrderEvent order, final long sequence, final boolean endOfBatch) {
        current = order;
        order.filledQuantity = 0;
        order.fills = 0;
        order.rejected = false;
        switch (order.type) {
            case OrderEvent.LIMIT -> book.limit(order.orderId, order.side, order.price, order.quantity, this);
            case OrderEvent.MARKET -> book.market(order.orderId, order.side, order.quantity, this);
            case OrderEvent.CANCEL -> book.cancel(order.orderId, this);
            default -> throw new IllegalArgumentException("unknown order type " + order.type + " at " + sequence);
        }
        order.bestBid = book.bestBid();
        order.bestBidQuantity = book.quantityAt(Side.BUY, order.bestBid);
        order.bestAsk = book.bestAsk();
        order.bestAskQuantity = book.quantityAt(Side.SELL, order.bestAsk);
        latency.recordValue(Math.min(latency.getHighestTrackableValue(), System.nanoTime() - order.submitNanos));
    }

    @Override
    public void onTrade(final long takerId, final long makerId, final Side takerSide, final long price,
                        final long quantity) {
        current.filledQuantity += quantity;
        current.fills++;
        digest.onTrade(takerId, makerId, takerSide, price, quantity);
    }

    @Override
    public void onCancelled(final long orderId, final long quantity) {
        digest.onCancelled(orderId, quantity);
    }

    @Override
    public void onRejected(final long orderId, final int reason) {
        current.rejected = true;
        digest.onRejected(orderId, reason);
    }

    ExecutionDigest digest() {
        return digest;
    }

    OrderBook book() {
        return book;
    }
}
