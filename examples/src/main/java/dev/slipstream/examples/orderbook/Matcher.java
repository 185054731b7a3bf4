package dev.slipstream.examples.orderbook;

import java.util.List;

/**
 * What a matching engine does with orders: the fast {@link OrderBook} and the plain
 * {@link ReferenceMatcher} that checks it both implement it.
 */
public interface Matcher {
    /**
     * Submits a limit order.
     *
     * @param orderId a new id
     * @param side buy or sell
     * @param price the limit, in ticks
     * @param quantity at least 1
     * @param listener receives the execution reports
     */
    void limit(long orderId, Side side, long price, long quantity, ExecutionListener listener);

    /**
     * Submits a market order (never rests).
     *
     * @param orderId a new id
     * @param side buy or sell
     * @param quantity at least 1
     * @param listener receives the execution reports
     */
    void market(long orderId, Side side, long quantity, ExecutionListener listener);

    /**
     * Cancels a resting order.
     *
     * @param orderId the order
     * @param listener receives the execution report
     */
    void cancel(long orderId, ExecutionListener listener);

    /**
     * The resting orders, bids best first, then asks best first; oldest first at one price.
     *
     * @return the orders
     */
    List<RestingOrder> snapshot();
}
