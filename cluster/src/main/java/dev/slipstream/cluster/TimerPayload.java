package dev.slipstream.cluster;

/**
 * Fills the ring slot's payload for a timer event, as the {@link IngressDecoder} does for a
 * command. Runs on the cluster's service thread, once per timer event on every member; it must
 * depend on its arguments only. A timer event's payload is always filled: the slot otherwise
 * still holds an earlier event's payload, which differs between a member that ran from the start
 * and one restarted from a snapshot.
 *
 * <pre>{@code
 * TimerPayload<Order> expiry = (timerId, timestamp, order) -> {
 *     order.type = Order.EXPIRE;
 *     order.id = timerId;                 // the policy scheduled the order's timer under its id
 *     order.quantity = 0;
 * };
 * }</pre>
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface TimerPayload<T> {
    /**
     * Fills {@code into} for a timer event.
     *
     * @param timerId the timer's id, as scheduled
     * @param timestamp the event's cluster time
     * @param into the slot's payload, holding an earlier event's values
     */
    void fill(long timerId, long timestamp, T into);
}
