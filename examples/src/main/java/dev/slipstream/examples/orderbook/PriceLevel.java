package dev.slipstream.examples.orderbook;

/** All resting orders of one side at one price, oldest first (time priority). */
final class PriceLevel {
    OrderNode head;
    OrderNode tail;
    long totalQuantity;

    boolean isEmpty() {
        return head == null;
    }

    void append(final OrderNode node) {
        node.prev = tail;
        node.next = null;
        if (tail == null) {
            head = node;
        } else {
            tail.next = node;
        }
        tail = node;
        totalQuantity += node.remaining;
    }

    void unlink(final OrderNode node) {
        if (node.prev == null) {
            head = node.next;
        } else {
            node.prev.next = node.next;
        }
        if (node.next == null) {
            tail = node.prev;
        } else {
            node.next.prev = node.prev;
        }
        node.prev = null;
        node.next = null;
        totalQuantity -= node.remaining;
    }
}
