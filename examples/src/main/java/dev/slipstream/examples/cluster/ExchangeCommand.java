package dev.slipstream.examples.cluster;

import dev.slipstream.examples.orderbook.Side;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * An order-entry command as it travels through the cluster: a limit order, a market order or a
 * cancel. 26 bytes on the wire: kind (1), order id (8), side (1), price (8), quantity (8).
 *
 * <pre>{@code
 * ExchangeCommand order = new ExchangeCommand().limit(42, Side.BUY, 100, 5);
 * int length = order.encode(buffer, 0);
 * }</pre>
 */
public final class ExchangeCommand {
    /** The encoded length. */
    public static final int LENGTH = 26;
    /** A limit order. */
    public static final byte LIMIT = 1;
    /** A market order. */
    public static final byte MARKET = 2;
    /** A cancel of a resting order. */
    public static final byte CANCEL = 3;

    byte kind;
    long orderId;
    Side side = Side.BUY;
    long price;
    long quantity;

    /**
     * @param id the order id
     * @param orderSide the side
     * @param limitPrice the limit
     * @param qty the quantity
     * @return this, a limit order
     */
    public ExchangeCommand limit(final long id, final Side orderSide, final long limitPrice, final long qty) {
        return set(LIMIT, id, orderSide, limitPrice, qty);
    }

    /**
     * @param id the order id
     * @param orderSide the side
     * @param qty the quantity
     * @return this, a market order
     */
    public ExchangeCommand market(final long id, final Side orderSide, final long qty) {
        return set(MARKET, id, orderSide, 0, qty);
    }

    /**
     * @param id the resting order to cancel
     * @return this, a cancel
     */
    public ExchangeCommand cancel(final long id) {
        return set(CANCEL, id, Side.BUY, 0, 0);
    }

    private ExchangeCommand set(final byte k, final long id, final Side s, final long p, final long q) {
        kind = k;
        orderId = id;
        side = s;
        price = p;
        quantity = q;
        return this;
    }

    /**
     * @param buffer where to write
     * @param offset at which offset
     * @return {@link #LENGTH}
     */
    public int encode(final MutableDirectBuffer buffer, final int offset) {
        buffer.putByte(offset, kind);
        buffer.putLong(offset + 1, orderId);
        buffer.putByte(offset + 9, (byte) side.ordinal());
        buffer.putLong(offset + 10, price);
        buffer.putLong(offset + 18, quantity);
        return LENGTH;
    }

    /**
     * Reads a command {@link #encode} wrote.
     *
     * @param buffer the bytes
     * @param offset where they start
     * @param length their length
     * @throws IllegalArgumentException if {@code length} is not {@link #LENGTH}
     */
    public void decode(final DirectBuffer buffer, final int offset, final int length) {
        if (length != LENGTH) {
            throw new IllegalArgumentException("exchange command of " + length + " bytes; expected " + LENGTH);
        }
        kind = buffer.getByte(offset);
        orderId = buffer.getLong(offset + 1);
        side = buffer.getByte(offset + 9) == 0 ? Side.BUY : Side.SELL;
        price = buffer.getLong(offset + 10);
        quantity = buffer.getLong(offset + 18);
    }

    /**
     * Applies the command to a matcher.
     *
     * @param matcher the book
     * @param listener told about the executions
     */
    public void applyTo(final dev.slipstream.examples.orderbook.Matcher matcher,
            final dev.slipstream.examples.orderbook.ExecutionListener listener) {
        switch (kind) {
            case LIMIT -> matcher.limit(orderId, side, price, quantity, listener);
            case MARKET -> matcher.market(orderId, side, quantity, listener);
            case CANCEL -> matcher.cancel(orderId, listener);
            default -> throw new IllegalStateException("unknown command kind " + kind);
        }
    }

    /** @return a copy */
    public ExchangeCommand copy() {
        return new ExchangeCommand().set(kind, orderId, side, price, quantity);
    }
}
