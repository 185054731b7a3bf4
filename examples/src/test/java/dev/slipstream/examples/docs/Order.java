package dev.slipstream.examples.docs;

/** The order event of the guide's samples. */
final class Order {
    long id;
    long price;
    long quantity;

    void set(final long id, final long price, final long quantity) {
        this.id = id;
        this.price = price;
        this.quantity = quantity;
    }

    void copyFrom(final OrderMessage message) {
        set(message.id, message.price, message.quantity);
    }

    Order copy() {
        final Order copy = new Order();
        copy.set(id, price, quantity);
        return copy;
    }
}
