package dev.slipstream.examples.orderbook;

import java.util.SplittableRandom;

/**
 * The reproducible order stream of one client: the same seed and client id give the same
 * orders. Limit orders are placed a few ticks from a mid price that every client moves along
 * the same slow triangle wave (one in five crosses the spread); 5% are market orders; 10% cancel
 * the client's oldest order still on its books, and a client never has more than
 * {@value #MAX_LIVE} orders it has not cancelled, so the book stays bounded however long the
 * run. Cancels of orders that have traded in the meantime are rejected, as in real life.
 *
 * <p>Order ids are {@code (clientId + 1) << 40 | n}: unique across clients without coordination.
 * {@link #advance()} computes the next order into this object's fields, which the gateway then
 * copies into a ring slot; nothing is allocated per order.
 */
final class OrderFlow {
    static final int MID_PRICE = 10_000;
    static final int MID_SWING = 50;
    static final int MAX_LIVE = 512;
    private static final int CANCEL_PERCENT = 10;
    private static final int MARKET_PERCENT = 5;
    private static final int CROSSING_ONE_IN = 5;

    private final SplittableRandom random;
    private final int clientId;
    /** Ids of this client's limit orders, oldest first, from {@code cancelled} to {@code placed}. */
    private final long[] live = new long[MAX_LIVE];
    private long placed;
    private long cancelled;
    private long sequence;

    byte type;
    Side side;
    long orderId;
    long price;
    long quantity;

    OrderFlow(final long seed, final int clientId) {
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + clientId);
        this.clientId = clientId;
    }

    void advance() {
        side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final int kind = random.nextInt(100);
        final long liveOrders = placed - cancelled;
        if (liveOrders == MAX_LIVE || liveOrders > 0 && kind < CANCEL_PERCENT) {
            type = OrderEvent.CANCEL;
            orderId = live[(int) (cancelled++ & (MAX_LIVE - 1))];
            price = 0;
            quantity = 0;
            return;
        }
        orderId = ((long) (clientId + 1) << 40) | ++sequence;
        if (kind < CANCEL_PERCENT + MARKET_PERCENT) {
            type = OrderEvent.MARKET;
            price = 0;
            quantity = 1 + random.nextInt(100);
            return;
        }
        // every client follows the same slow triangle wave around MID_PRICE, so their prices meet
        final long phase = sequence / 64 % (4 * MID_SWING);
        final long mid = MID_PRICE + (phase < 2 * MID_SWING ? phase - MID_SWING : 3 * MID_SWING - phase);
        type = OrderEvent.LIMIT;
        quantity = 1 + random.nextInt(100);
        final long offset = random.nextInt(CROSSING_ONE_IN) == 0 ? -random.nextInt(3) : 1 + random.nextInt(10);
        price = side == Side.BUY ? mid - offset : mid + offset;
        live[(int) (placed++ & (MAX_LIVE - 1))] = orderId;
    }
}
