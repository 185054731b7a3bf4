package dev.slipstream.examples.docs;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

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

    /** Writes id, price and quantity as three longs (the cluster page's command payload); returns the length. */
    int encode(final MutableDirectBuffer buffer, final int offset) {
        buffer.putLong(offset, id);
        buffer.putLong(offset + 8, price);
        buffer.putLong(offset + 16, quantity);
        return 3 * Long.BYTES;
    }

    /** Reads what {@link #encode} wrote. */
    void decode(final DirectBuffer buffer, final int offset) {
        set(buffer.getLong(offset), buffer.getLong(offset + 8), buffer.getLong(offset + 16));
    }

    Order copy() {
        final Order copy = new Order();
        copy.set(id, price, quantity);
        return copy;
    }
}
