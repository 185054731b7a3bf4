package dev.slipstream.cluster;

import java.util.concurrent.TimeUnit;

/**
 * Schedules and cancels cluster timers for a clustered pipeline's stages. Given to a
 * {@link TimerPolicy} on the cluster's service thread, for one event at a time; it refuses
 * every other thread (a stage's included) and any call after the policy has returned, since a
 * timer scheduled at any other point would depend on how far the pipeline has got, not on the
 * log, and the replicas would part.
 *
 * <p>Timer ids are the user's, from 0 up; negative ids are the service's own. Scheduling an id
 * that is pending moves its deadline. When the deadline passes, the cluster writes the timer's
 * event into the log, and every member's stages see it in the ring as a
 * {@link ClusterCommand#isTimer() timer event}, at the same point among the commands.
 *
 * <pre>{@code
 * TimerPolicy<Order> expiry = (event, timers) -> {
 *     if (!event.isTimer() && event.payload().type == Order.LIMIT) {
 *         long timeToLive = timers.timeUnit().convert(event.payload().timeToLiveMs, TimeUnit.MILLISECONDS);
 *         timers.schedule(event.payload().id, event.timestamp() + timeToLive);
 *     } else if (!event.isTimer() && event.payload().type == Order.CANCEL) {
 *         timers.cancel(event.payload().id);
 *     }
 * };
 * }</pre>
 */
public interface TimerScheduler {
    /**
     * @return the unit of the cluster's time, of deadlines and of {@link ClusterCommand#timestamp()}
     *         (milliseconds unless the cluster is set up otherwise)
     */
    TimeUnit timeUnit();

    /**
     * Schedules timer {@code timerId} to fire at {@code deadline}, or moves it there if it is
     * pending. A deadline already past fires on the cluster's next timer tick.
     *
     * @param timerId the timer's id, 0 or more
     * @param deadline the cluster time it fires at, in the cluster's time unit (the unit of
     *        {@link ClusterCommand#timestamp()})
     * @throws IllegalArgumentException if {@code timerId} is negative
     * @throws IllegalStateException if called from another thread than the service thread, or
     *         outside the {@link TimerPolicy} call it was given to
     */
    void schedule(long timerId, long deadline);

    /**
     * Cancels timer {@code timerId}; nothing happens if it is not pending.
     *
     * @param timerId the timer's id, 0 or more
     * @throws IllegalArgumentException if {@code timerId} is negative
     * @throws IllegalStateException if called from another thread than the service thread, or
     *         outside the {@link TimerPolicy} call it was given to
     */
    void cancel(long timerId);
}
