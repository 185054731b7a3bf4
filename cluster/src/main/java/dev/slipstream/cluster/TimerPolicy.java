package dev.slipstream.cluster;

/**
 * Decides, for each event that enters a clustered pipeline's ring, which timers to schedule or
 * cancel. It runs on the cluster's service thread, once per event on every member: for each
 * applied command after its payload is decoded, and for each timer event after its payload is
 * filled by the {@link TimerPayload}; always before any stage sees the event.
 *
 * <p>Its decisions must be a function of the event alone (its payload, {@link
 * ClusterCommand#timestamp()}, {@link ClusterCommand#isTimer()}, ids), never of the stages'
 * progress, of a clock or of state it keeps itself: Aeron Cluster matches the timer events in
 * the log against the timers each member schedules, by id, and a member that scheduled
 * differently (a replay after a restart, stages faster than the leader's) would have a later
 * timer swallowed as already fired. Pending timers are part of the cluster's own snapshot, so a
 * policy that keeps no state needs nothing in it; what a stage needs to know about its timers
 * belongs in its {@link StageState}. It must only read the event: the stages have not seen it yet.
 * A policy that throws (a negative timer id, say) is treated as a stage that throws: under the
 * default {@link CommandFailurePolicy#REJECT} the event reaches the ring rejected on every member
 * (a command's client is answered {@link CommandWireFormat#STATUS_REJECTED}), and the timers it
 * scheduled before it threw stay scheduled; under {@link CommandFailurePolicy#HALT} the member stops.
 *
 * <pre>{@code
 * PipelineClusteredService<Order> service = PipelineClusteredService.builder(Order::new)
 *         .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
 *         .timers((event, timers) -> {
 *             if (!event.isTimer()) {
 *                 timers.schedule(event.payload().id, event.timestamp() + 50);  // expires in 50 ms
 *             }
 *         }, (timerId, timestamp, order) -> order.expiry(timerId))
 *         .pipeline(wiring)
 *         .build();
 * }</pre>
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface TimerPolicy<T> {
    /**
     * Schedules or cancels timers for one event.
     *
     * @param event the event about to be published: a command or a timer event
     * @param timers valid during this call only, on this thread only
     */
    void onEvent(ClusterCommand<T> event, TimerScheduler timers);
}
