package dev.slipstream.examples.orderbook;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The slow, obviously correct matcher the engine is checked against: sorted maps of price to a
 * queue of orders, and a hash map for cancels. Same rules and the same reports as
 * {@link OrderBook}, written independently of it.
 *
 * <pre>{@code
 * ReferenceMatcher reference = new ReferenceMatcher(10_000, 1 << 16);
 * reference.limit(1, Side.SELL, 101, 50, listener);
 * }</pre>
 */
public final class ReferenceMatcher implements Matcher {
    private static final class Order {
        final long id;
        final Side side;
        final long price;
        long remaining;

        Order(final long id, final Side side, final long price, final long remaining) {
            this.id = id;
            this.side = side;
            this.price = price;
            this.remaining = remaining;
        }
    }

    private final long maxPrice;
    private final int capacity;
    private final TreeMap<Long, ArrayDeque<Order>> bids = new TreeMap<>(Comparator.reverseOrder());
    private final TreeMap<Long, ArrayDeque<Order>> asks = new TreeMap<>();
    private final Map<Long, Order> byId = new HashMap<>();

    /**
     * Creates an empty book with the same limits as {@link OrderBook#OrderBook(int, int)}.
     *
     * @param maxPrice the highest valid price
     * @param capacity the most resting orders
     */
    public ReferenceMatcher(final int maxPrice, final int capacity) {
        this.maxPrice = maxPrice;
        this.capacity = capacity;
    }

    @Override
    public void limit(final long orderId, final Side side, final long price, final long quantity,
                      final ExecutionListener listener) {
        if (quantity < 1) {
            listener.onRejected(orderId, ExecutionListener.REJECT_BAD_QUANTITY);
        } else if (byId.containsKey(orderId)) {
            listener.onRejected(orderId, ExecutionListener.REJECT_DUPLICATE_ID);
        } else if (price < 1 || price > maxPrice) {
            listener.onRejected(orderId, ExecutionListener.REJECT_BAD_PRICE);
        } else {
            final long left = trade(orderId, side, price, quantity, listener);
            if (left == 0) {
                return;
            }
            if (byId.size() == capacity) {
                listener.onRejected(orderId, ExecutionListener.REJECT_BOOK_FULL);
                return;
            }
            final Order order = new Order(orderId, side, price, left);
            byId.put(orderId, order);
            (side == Side.BUY ? bids : asks).computeIfAbsent(price, p -> new ArrayDeque<>()).addLast(order);
        }
    }

    @Override
    public void market(final long orderId, final Side side, final long quantity, final ExecutionListener listener) {
        if (quantity < 1) {
            listener.onRejected(orderId, ExecutionListener.REJECT_BAD_QUANTITY);
        } else if (byId.containsKey(orderId)) {
            listener.onRejected(orderId, ExecutionListener.REJECT_DUPLICATE_ID);
        } else {
            final long left = trade(orderId, side, side == Side.BUY ? Long.MAX_VALUE : Long.MIN_VALUE,
                    quantity, listener);
            if (left > 0) {
                listener.onCancelled(orderId, left);
            }
        }
    }

    @Override
    public void cancel(final long orderId, final ExecutionListener listener) {
        final Order order = byId.remove(orderId);
        if (order == null) {
            listener.onRejected(orderId, ExecutionListener.REJECT_UNKNOWN_ORDER);
            return;
        }
        final TreeMap<Long, ArrayDeque<Order>> book = order.side == Side.BUY ? bids : asks;
        final ArrayDeque<Order> queue = book.get(order.price);
        queue.remove(order);
        if (queue.isEmpty()) {
            book.remove(order.price);
        }
        listener.onCancelled(orderId, order.remaining);
    }

    private long trade(final long takerId, final Side side, final long limit, long quantity,
                       final ExecutionListener listener) {
        final TreeMap<Long, ArrayDeque<Order>> opposite = side == Side.BUY ? asks : bids;
        while (quantity > 0 && !opposite.isEmpty()) {
            final long best = opposite.firstKey();
            final boolean crosses = side == Side.BUY ? best <= limit : best >= limit;
            if (!crosses) {
                break;
            }
            final ArrayDeque<Order> queue = opposite.get(best);
            final Iterator<Order> it = queue.iterator();
            while (quantity > 0 && it.hasNext()) {
                final Order maker = it.next();
                final long traded = Math.min(quantity, maker.remaining);
                maker.remaining -= traded;
                quantity -= traded;
                listener.onTrade(takerId, maker.id, side, maker.price, traded);
                if (maker.remaining == 0) {
                    it.remove();
                    byId.remove(maker.id);
                }
            }
            if (queue.isEmpty()) {
                opposite.remove(best);
            }
        }
        return quantity;
    }

    @Override
    public List<RestingOrder> snapshot() {
        final List<RestingOrder> orders = new ArrayList<>(byId.size());
        for (final ArrayDeque<Order> queue : bids.values()) {
            for (final Order o : queue) {
                orders.add(new RestingOrder(o.id, o.side, o.price, o.remaining));
            }
        }
        for (final ArrayDeque<Order> queue : asks.values()) {
            for (final Order o : queue) {
                orders.add(new RestingOrder(o.id, o.side, o.price, o.remaining));
            }
        }
        return orders;
    }
}
