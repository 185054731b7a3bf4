package dev.slipstream.examples.orderbook;

/**
 * An order resting in the book, as reported by a snapshot: its id, side, limit price and the
 * quantity still open. Snapshots list orders best price first, then by time of arrival.
 *
 * @param orderId the order id
 * @param side the side
 * @param price the limit price, in ticks
 * @param remaining the open quantity
 */
public record RestingOrder(long orderId, Side side, long price, long remaining) {
}
