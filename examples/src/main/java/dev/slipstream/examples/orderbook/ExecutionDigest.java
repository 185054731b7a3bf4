package dev.slipstream.examples.orderbook;

/**
 * An {@link ExecutionListener} that folds every report into counters and an order-sensitive
 * 64-bit digest, so that two runs can be compared without keeping millions of reports.
 * Allocation-free; single-threaded (the matching thread owns it).
 *
 * <pre>{@code
 * ExecutionDigest digest = new ExecutionDigest();
 * book.limit(1, Side.BUY, 100, 10, digest);
 * long fingerprint = digest.digest();
 * }</pre>
 */
public final class ExecutionDigest implements ExecutionListener {
    private long digest = 0x9E3779B97F4A7C15L;
    private long trades;
    private long tradedQuantity;
    private long cancels;
    private long rejects;

    @Override
    public void onTrade(final long takerId, final long makerId, final Side takerSide, final long price,
                        final long quantity) {
        trades++;
        tradedQuantity += quantity;
        mix(1, takerId, makerId, (price << 1) | takerSide.ordinal(), quantity);
    }

    @Override
    public void onCancelled(final long orderId, final long quantity) {
        cancels++;
        mix(2, orderId, quantity, 0, 0);
    }

    @Override
    public void onRejected(final long orderId, final int reason) {
        rejects++;
        mix(3, orderId, reason, 0, 0);
    }

    private void mix(final long kind, final long a, final long b, final long c, final long d) {
        long h = digest;
        h = (h ^ kind) * 0x100000001B3L;
        h = (h ^ a) * 0x100000001B3L;
        h = (h ^ b) * 0x100000001B3L;
        h = (h ^ c) * 0x100000001B3L;
        h = (h ^ d) * 0x100000001B3L;
        digest = h ^ (h >>> 29);
    }

    /**
     * The digest of every report so far, in order.
     *
     * @return the digest
     */
    public long digest() {
        return digest;
    }

    /**
     * How many trades were reported.
     *
     * @return the trade count
     */
    public long trades() {
        return trades;
    }

    /**
     * The total traded quantity.
     *
     * @return the quantity
     */
    public long tradedQuantity() {
        return tradedQuantity;
    }

    /**
     * How many cancellations were reported (cancel requests and market-order rests).
     *
     * @return the count
     */
    public long cancels() {
        return cancels;
    }

    /**
     * How many rejections were reported.
     *
     * @return the count
     */
    public long rejects() {
        return rejects;
    }

    @Override
    public String toString() {
        return String.format("trades=%d tradedQty=%d cancels=%d rejects=%d digest=%016x",
                trades, tradedQuantity, cancels, rejects, digest);
    }
}
