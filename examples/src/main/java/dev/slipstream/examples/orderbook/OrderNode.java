package dev.slipstream.examples.orderbook;

/**
 * A resting order inside the book: a node of its price level's time-ordered list. Nodes are
 * preallocated and recycled through a free list, so matching allocates nothing.
 */
final class OrderNode {
    long orderId;
    Side side;
    long price;
    long remaining;
    OrderNode prev;
    OrderNode next;
}
