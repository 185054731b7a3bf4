package dev.slipstream.examples.orderbook;

/** Which side of the book an order is on. */
public enum Side {
    /** A bid: wants to buy at the limit price or lower. */
    BUY,
    /** An offer: wants to sell at the limit price or higher. */
    SELL;

    /**
     * The side this one trades against.
     *
     * @return SELL for BUY, BUY for SELL
     */
    public Side opposite() {
        return this == BUY ? SELL : BUY;
    }
}
