package dev.slipstream.examples.topology;

/**
 * The event of the topology examples: a trade, preallocated in every ring slot and reused, so
 * publishing allocates nothing. Stages write their results into fields of their own.
 */
public final class Trade {
    /** Sequence number given by the producer. */
    public long id;
    /** Price in ticks. */
    public long price;
    /** Quantity. */
    public long quantity;
    /** Which producer published it (fan-in example). */
    public int producer;
    /** Notional (price * quantity), written by the pricing stage. */
    public long notional;
    /** Risk score, written by the risk stage. */
    public long risk;

    /**
     * Fills a claimed slot: the translator the examples publish with.
     *
     * @param trade the slot's event
     * @param sequence its sequence
     * @param id the trade number
     */
    public static void fill(final Trade trade, final long sequence, final long id) {
        trade.id = id;
        trade.price = 100 + (id & 63);
        trade.quantity = 1 + (id & 7);
        trade.producer = 0;
        trade.notional = 0;
        trade.risk = 0;
    }
}
