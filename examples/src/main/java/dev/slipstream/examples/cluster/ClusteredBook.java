package dev.slipstream.examples.cluster;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.StageState;
import dev.slipstream.examples.orderbook.ExecutionListener;
import dev.slipstream.examples.orderbook.Matcher;
import dev.slipstream.examples.orderbook.OrderBook;
import dev.slipstream.examples.orderbook.RestingOrder;
import dev.slipstream.examples.orderbook.Side;
import dev.slipstream.processor.EventHandler;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The clustered exchange's matching stage: applies each command to an {@link OrderBook}, folds
 * the executions into a digest and keeps the order in which it applied the commands (their
 * correlation ids). Its snapshot is that order, the counters and the resting orders, best price
 * first and in time priority within a price, so that adding them back rebuilds the same book.
 *
 * <pre>{@code
 * ClusteredBook book = new ClusteredBook();
 * states.register("book", book);
 * pipeline.handleEventsWith(book);
 * }</pre>
 */
public final class ClusteredBook implements EventHandler<ClusterCommand<ExchangeCommand>>, StageState {
    /** Prices run from 1 to this. */
    public static final int MAX_PRICE = 1_000;
    /** Resting orders at most. */
    public static final int CAPACITY = 100_000;

    private OrderBook book = new OrderBook(MAX_PRICE, CAPACITY);
    private final Digest executions = new Digest();
    private long applied;
    /** The correlation ids of the applied commands, in the order applied (part of the state). */
    private final org.agrona.collections.LongArrayList appliedOrder = new org.agrona.collections.LongArrayList();
    /** The last command's number, for readers on other threads once the stream is idle. */
    private volatile long appliedRelease;

    @Override
    public void onEvent(final ClusterCommand<ExchangeCommand> command, final long sequence, final boolean endOfBatch) {
        command.payload().applyTo(book, executions);
        applied++;
        appliedOrder.addLong(command.correlationId());
        appliedRelease = applied;
    }

    /**
     * @return the correlation ids of the applied commands, in the order applied, comma-separated
     *         (call once the stream is idle)
     */
    public String appliedOrder() {
        final long count = appliedRelease;  // acquire: the stage's writes up to this command
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : ",").append(appliedOrder.getLong(i));
        }
        return sb.toString();
    }

    /** @return how many commands the book applied (volatile read: call once the stream is idle) */
    public long applied() {
        return appliedRelease;
    }

    /**
     * @return the book's state in one line: commands applied, execution counts and digest,
     *         resting orders' hash; equal on two members only if their books and executions agree
     */
    public String digest() {
        final long count = appliedRelease;  // acquire: the stage's writes up to this command
        return count + " commands, " + executions.describe() + ", resting " + restingHash(book.snapshot());
    }

    /**
     * The same line for a reference matcher fed the same commands.
     *
     * @param commands how many commands it applied
     * @param matcher the reference
     * @param digest its executions
     * @return the line
     */
    static String digest(final long commands, final Matcher matcher, final Digest digest) {
        return commands + " commands, " + digest.describe() + ", resting " + restingHash(matcher.snapshot());
    }

    private static String restingHash(final List<RestingOrder> orders) {
        // the orders sorted by id, so that the two books' different walk orders give one hash
        final long[][] rows = new long[orders.size()][];
        for (int i = 0; i < rows.length; i++) {
            final RestingOrder o = orders.get(i);
            rows[i] = new long[] {o.orderId(), o.side().ordinal(), o.price(), o.remaining()};
        }
        java.util.Arrays.sort(rows, (a, b) -> Long.compare(a[0], b[0]));
        long h = 17;
        for (final long[] row : rows) {
            for (final long v : row) {
                h = h * 31 + v;
            }
        }
        return rows.length + "/" + Long.toHexString(h);
    }

    @Override
    public int writeSnapshot(final MutableDirectBuffer buffer, final int offset) {
        int at = offset;
        buffer.putLong(at, applied);
        at += 8;
        for (int i = 0; i < applied; i++) {
            buffer.putLong(at, appliedOrder.getLong(i));
            at += 8;
        }
        at += executions.write(buffer, at);
        final List<RestingOrder> resting = book.snapshot();
        buffer.putInt(at, resting.size());
        at += 4;
        for (final RestingOrder o : resting) {
            buffer.putLong(at, o.orderId());
            buffer.putByte(at + 8, (byte) o.side().ordinal());
            buffer.putLong(at + 9, o.price());
            buffer.putLong(at + 17, o.remaining());
            at += 25;
        }
        return at - offset;
    }

    @Override
    public void loadSnapshot(final DirectBuffer buffer, final int offset, final int length) {
        int at = offset;
        applied = buffer.getLong(at);
        at += 8;
        appliedOrder.clear();
        for (int i = 0; i < applied; i++) {
            appliedOrder.addLong(buffer.getLong(at));
            at += 8;
        }
        at += executions.read(buffer, at);
        final int n = buffer.getInt(at);
        at += 4;
        book = new OrderBook(MAX_PRICE, CAPACITY);
        final ExecutionListener none = new Digest();
        for (int i = 0; i < n; i++) {
            final Side side = buffer.getByte(at + 8) == 0 ? Side.BUY : Side.SELL;
            // best price first, time priority within a price: resting again, nothing crosses
            book.limit(buffer.getLong(at), side, buffer.getLong(at + 9), buffer.getLong(at + 17), none);
            at += 25;
        }
        appliedRelease = applied;
    }

    /** Counts and an order-sensitive digest of execution reports, with its own snapshot bytes. */
    static final class Digest implements ExecutionListener {
        private long trades;
        private long quantity;
        private long cancels;
        private long rejects;
        private long hash = 0x9E3779B97F4A7C15L;

        @Override
        public void onTrade(final long takerId, final long makerId, final Side takerSide, final long price,
                final long qty) {
            trades++;
            quantity += qty;
            mix(1, takerId, makerId, price * 2 + takerSide.ordinal(), qty);
        }

        @Override
        public void onCancelled(final long orderId, final long qty) {
            cancels++;
            mix(2, orderId, qty, 0, 0);
        }

        @Override
        public void onRejected(final long orderId, final int reason) {
            rejects++;
            mix(3, orderId, reason, 0, 0);
        }

        private void mix(final long kind, final long a, final long b, final long c, final long d) {
            long h = hash;
            h = (h ^ kind) * 0x100000001B3L;
            h = (h ^ a) * 0x100000001B3L;
            h = (h ^ b) * 0x100000001B3L;
            h = (h ^ c) * 0x100000001B3L;
            h = (h ^ d) * 0x100000001B3L;
            hash = h ^ (h >>> 29);
        }

        String describe() {
            return trades + " trades of " + quantity + ", " + cancels + " cancels, " + rejects + " rejects, executions "
                    + Long.toHexString(hash);
        }

        int write(final MutableDirectBuffer buffer, final int offset) {
            buffer.putLong(offset, trades);
            buffer.putLong(offset + 8, quantity);
            buffer.putLong(offset + 16, cancels);
            buffer.putLong(offset + 24, rejects);
            buffer.putLong(offset + 32, hash);
            return 40;
        }

        int read(final DirectBuffer buffer, final int offset) {
            trades = buffer.getLong(offset);
            quantity = buffer.getLong(offset + 8);
            cancels = buffer.getLong(offset + 16);
            rejects = buffer.getLong(offset + 24);
            hash = buffer.getLong(offset + 32);
            return 40;
        }
    }
}
