package dev.slipstream.examples.docs;

/** An order as it arrives from outside, before it is copied into a ring slot. */
final class OrderMessage {
    final long id;
    final long price;
    final long quantity;

    OrderMessage(final long id, final long price, final long quantity) {
        this.id = id;
        this.price = price;
        this.quantity = quantity;
    }
}
