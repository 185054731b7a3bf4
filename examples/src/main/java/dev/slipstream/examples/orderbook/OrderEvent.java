package dev.slipstream.examples.orderbook;

/**
 * One slot of the engine's ring. The gateway (a client thread) writes the order; the journal and
 * the replica read it; the matching stage writes the execution report and the top of book after
 * the order; the market-data stage reads those. Each stage writes only its own fields, and the
 * pipeline's sequence barriers make each stage's writes visible to the stages after it.
 *
 * <p>Slots are preallocated and reused: every field is overwritten for each new order.
 */
public final class OrderEvent {
    /** A limit order. */
    public static final byte LIMIT = 1;
    /** A market order. */
    public static final byte MARKET = 2;
    /** A cancel request for a resting order. */
    public static final byte CANCEL = 3;

    // ---- written by the gateway
    byte type;
    Side side;
    long orderId;
    long price;
    long quantity;
    int clientId;
    /** When the client meant to send the order ({@link System#nanoTime()}); latency is measured from here. */
    long submitNanos;

    // ---- written by the matching stage
    long filledQuantity;
    int fills;
    boolean rejected;
    long bestBid;
    long bestBidQuantity;
    long bestAsk;
    long bestAskQuantity;

    /** Copies an order in: what the gateway's translator does, allocation-free. */
    void setOrder(final byte type, final Side side, final long orderId, final long price, final long quantity,
                  final int clientId, final long submitNanos) {
        this.type = type;
        this.side = side;
        this.orderId = orderId;
        this.price = price;
        this.quantity = quantity;
        this.clientId = clientId;
        this.submitNanos = submitNanos;
    }

    @Override
    public String toString() {
        return "OrderEvent{type=" + type + ", side=" + side + ", id=" + orderId + ", price=" + price
                + ", qty=" + quantity + ", client=" + clientId + ", filled=" + filledQuantity + '}';
    }
}
