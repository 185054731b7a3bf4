package dev.slipstream.examples.orderbook;

/**
 * Receives the execution reports of an order book, synchronously, on the matching thread.
 * Every order produces at least one call except a limit order that rests without trading.
 */
public interface ExecutionListener {
    /** Reject reason: the order id is already resting in the book. */
    int REJECT_DUPLICATE_ID = 1;
    /** Reject reason: the price is outside {@code 1 .. maxPrice}. */
    int REJECT_BAD_PRICE = 2;
    /** Reject reason: the quantity is not positive. */
    int REJECT_BAD_QUANTITY = 3;
    /** Reject reason: the book has no room for another resting order (the rest of the order is dropped). */
    int REJECT_BOOK_FULL = 4;
    /** Reject reason: a cancel named an order that is not resting (filled, cancelled, or never seen). */
    int REJECT_UNKNOWN_ORDER = 5;

    /**
     * An incoming order traded with a resting one, at the resting order's price.
     *
     * @param takerId the incoming order
     * @param makerId the resting order
     * @param takerSide the incoming order's side
     * @param price the trade price (the maker's limit)
     * @param quantity the traded quantity
     */
    void onTrade(long takerId, long makerId, Side takerSide, long price, long quantity);

    /**
     * Quantity left the book or was never placed: a cancelled resting order, or the unfilled
     * rest of a market order (market orders never rest).
     *
     * @param orderId the order
     * @param quantity the quantity cancelled
     */
    void onCancelled(long orderId, long quantity);

    /**
     * The order (or, for {@link #REJECT_BOOK_FULL}, its unfilled rest) was refused.
     *
     * @param orderId the order
     * @param reason one of the {@code REJECT_} constants
     */
    void onRejected(long orderId, int reason);
}
