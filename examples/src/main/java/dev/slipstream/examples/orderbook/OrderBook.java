package dev.slipstream.examples.orderbook;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A limit order book for one instrument with price-time priority: an incoming order trades with
 * the best opposite price first and, at one price, with the oldest resting order first. Trades
 * happen at the resting order's price. A limit order's unfilled rest joins the book; a market
 * order trades what it can and its rest is cancelled. Partial fills leave the resting order in
 * place with its time priority.
 *
 * <p>Prices are integer ticks in {@code 1 .. maxPrice}; each side is an array of price levels
 * indexed by price, and each level a linked list of orders in arrival order. Orders are
 * preallocated nodes recycled through a free list and found by id through an open-addressing
 * index, so the book allocates nothing after construction. It is single-threaded by design: in
 * the engine only the matching stage touches it.
 *
 * <pre>{@code
 * OrderBook book = new OrderBook(10_000, 1 << 16);
 * book.limit(1, Side.SELL, 101, 50, listener);   // rests: best ask 101 x 50
 * book.limit(2, Side.BUY, 102, 20, listener);    // trades 20 @ 101 with order 1
 * book.cancel(1, listener);                      // cancels the remaining 30
 * }</pre>
 */
public final class OrderBook implements Matcher {
    /** What {@link #bestBid()} and {@link #bestAsk()} return for an empty side. */
    public static final long NO_PRICE = 0;
    /** The largest {@code maxPrice} accepted (two arrays of that many levels are allocated). */
    public static final int MAX_PRICE_LIMIT = 1 << 24;

    private final int maxPrice;
    private final PriceLevel[] bids;
    private final PriceLevel[] asks;
    private final OrderIndex index;
    /** Highest bid price with orders; 0 when there are none. */
    private int bidTop;
    /** Lowest ask price with orders; maxPrice + 1 when there are none. */
    private int askTop;
    private OrderNode free;
    private int resting;

    /**
     * Creates an empty book.
     *
     * @param maxPrice the highest valid price in ticks, 1 to {@link #MAX_PRICE_LIMIT}
     * @param capacity the most orders that may rest at once, at least 1
     * @throws IllegalArgumentException if an argument is out of range
     */
    public OrderBook(final int maxPrice, final int capacity) {
        if (maxPrice < 1 || maxPrice > MAX_PRICE_LIMIT) {
            throw new IllegalArgumentException("maxPrice must be between 1 and " + MAX_PRICE_LIMIT + ", got " + maxPrice);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.maxPrice = maxPrice;
        this.bids = newLevels(maxPrice);
        this.asks = newLevels(maxPrice);
        this.index = new OrderIndex(capacity);
        this.bidTop = 0;
        this.askTop = maxPrice + 1;
        for (int i = 0; i < capacity; i++) {
            final OrderNode node = new OrderNode();
            node.next = free;
            free = node;
        }
    }

    private static PriceLevel[] newLevels(final int maxPrice) {
        final PriceLevel[] levels = new PriceLevel[maxPrice + 2];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = new PriceLevel();
        }
        return levels;
    }

    /**
     * Submits a limit order: it trades against every opposite order at its limit or better,
     * then its rest joins the book.
     *
     * @param orderId a new id (not resting in the book)
     * @param side buy or sell
     * @param price the limit, in ticks
     * @param quantity at least 1
     * @param listener receives the execution reports, before this method returns
     */
    @Override
    public void limit(final long orderId, final Side side, final long price, final long quantity,
                      final ExecutionListener listener) {
        Objects.requireNonNull(side, "side must not be null");
        if (!validate(orderId, quantity, listener)) {
            return;
        }
        if (price < 1 || price > maxPrice) {
            listener.onRejected(orderId, ExecutionListener.REJECT_BAD_PRICE);
            return;
        }
        final long left = match(orderId, side, (int) price, quantity, listener);
        if (left > 0) {
            rest(orderId, side, (int) price, left, listener);
        }
    }

    /**
     * Submits a market order: it trades against the best opposite orders until it is filled or
     * that side is empty; the unfilled rest is reported cancelled.
     *
     * @param orderId a new id (not resting in the book)
     * @param side buy or sell
     * @param quantity at least 1
     * @param listener receives the execution reports, before this method returns
     */
    @Override
    public void market(final long orderId, final Side side, final long quantity, final ExecutionListener listener) {
        Objects.requireNonNull(side, "side must not be null");
        if (!validate(orderId, quantity, listener)) {
            return;
        }
        final long left = match(orderId, side, side == Side.BUY ? maxPrice : 1, quantity, listener);
        if (left > 0) {
            listener.onCancelled(orderId, left);
        }
    }

    /**
     * Cancels a resting order (what is left of it).
     *
     * @param orderId the order
     * @param listener told {@code onCancelled} with the open quantity, or
     *     {@code onRejected(REJECT_UNKNOWN_ORDER)} if the order is not resting
     */
    @Override
    public void cancel(final long orderId, final ExecutionListener listener) {
        final OrderNode node = index.get(orderId);
        if (node == null) {
            listener.onRejected(orderId, ExecutionListener.REJECT_UNKNOWN_ORDER);
            return;
        }
        final long open = node.remaining;
        remove(node);
        listener.onCancelled(orderId, open);
    }

    private boolean validate(final long orderId, final long quantity, final ExecutionListener listener) {
        if (quantity < 1) {
            listener.onRejected(orderId, ExecutionListener.REJECT_BAD_QUANTITY);
            return false;
        }
        if (index.get(orderId) != null) {
            listener.onRejected(orderId, ExecutionListener.REJECT_DUPLICATE_ID);
            return false;
        }
        return true;
    }

    /** Trades {@code quantity} against the opposite side up to {@code limit}; returns what is left. */
    private long match(final long takerId, final Side side, final int limit, long quantity,
                       final ExecutionListener listener) {
        if (side == Side.BUY) {
            while (quantity > 0 && askTop <= limit) {
                quantity = fill(asks[askTop], takerId, side, quantity, listener);
                while (askTop <= maxPrice && asks[askTop].isEmpty()) {
                    askTop++;
                }
            }
        } else {
            while (quantity > 0 && bidTop >= limit) {
                quantity = fill(bids[bidTop], takerId, side, quantity, listener);
                while (bidTop > 0 && bids[bidTop].isEmpty()) {
                    bidTop--;
                }
            }
        }
        return quantity;
    }

    /** Trades with one level's orders, oldest first. */
    private long fill(final PriceLevel level, final long takerId, final Side side, long quantity,
                      final ExecutionListener listener) {
        OrderNode maker = level.head;
        while (maker != null && quantity > 0) {
            final long traded = Math.min(quantity, maker.remaining);
            maker.remaining -= traded;
            level.totalQuantity -= traded;
            quantity -= traded;
            listener.onTrade(takerId, maker.orderId, side, maker.price, traded);
            final OrderNode next = maker.next;
            if (maker.remaining == 0) {
                level.unlink(maker);
                index.remove(maker.orderId);
                release(maker);
            }
            maker = next;
        }
        return quantity;
    }

    private void rest(final long orderId, final Side side, final int price, final long quantity,
                      final ExecutionListener listener) {
        final OrderNode node = free;
        if (node == null) {
            listener.onRejected(orderId, ExecutionListener.REJECT_BOOK_FULL);
            return;
        }
        free = node.next;
        node.orderId = orderId;
        node.side = side;
        node.price = price;
        node.remaining = quantity;
        index.put(orderId, node);
        resting++;
        if (side == Side.BUY) {
            bids[price].append(node);
            bidTop = Math.max(bidTop, price);
        } else {
            asks[price].append(node);
            askTop = Math.min(askTop, price);
        }
    }

    private void remove(final OrderNode node) {
        final int price = (int) node.price;
        index.remove(node.orderId);
        if (node.side == Side.BUY) {
            bids[price].unlink(node);
            while (bidTop > 0 && bids[bidTop].isEmpty()) {
                bidTop--;
            }
        } else {
            asks[price].unlink(node);
            while (askTop <= maxPrice && asks[askTop].isEmpty()) {
                askTop++;
            }
        }
        release(node);
    }

    private void release(final OrderNode node) {
        node.side = null;
        node.next = free;
        free = node;
        resting--;
    }

    /**
     * The highest bid.
     *
     * @return its price, or {@link #NO_PRICE} if there are no bids
     */
    public long bestBid() {
        return bidTop == 0 ? NO_PRICE : bidTop;
    }

    /**
     * The lowest ask.
     *
     * @return its price, or {@link #NO_PRICE} if there are no asks
     */
    public long bestAsk() {
        return askTop > maxPrice ? NO_PRICE : askTop;
    }

    /**
     * The total open quantity at one price.
     *
     * @param side the side
     * @param price the price in ticks
     * @return the quantity, 0 if none or if the price is out of range
     */
    public long quantityAt(final Side side, final long price) {
        if (price < 1 || price > maxPrice) {
            return 0;
        }
        return (side == Side.BUY ? bids : asks)[(int) price].totalQuantity;
    }

    /**
     * The number of resting orders.
     *
     * @return the count
     */
    public int restingOrders() {
        return resting;
    }

    /**
     * Every resting order, bids first (highest price first), then asks (lowest price first);
     * at one price, oldest first. Allocates: for checks and tests, not for the hot path.
     *
     * @return the orders in priority order
     */
    @Override
    public List<RestingOrder> snapshot() {
        final List<RestingOrder> orders = new ArrayList<>(resting);
        for (int p = bidTop; p > 0; p--) {
            for (OrderNode n = bids[p].head; n != null; n = n.next) {
                orders.add(new RestingOrder(n.orderId, Side.BUY, n.price, n.remaining));
            }
        }
        for (int p = askTop; p <= maxPrice; p++) {
            for (OrderNode n = asks[p].head; n != null; n = n.next) {
                orders.add(new RestingOrder(n.orderId, Side.SELL, n.price, n.remaining));
            }
        }
        return orders;
    }
}
