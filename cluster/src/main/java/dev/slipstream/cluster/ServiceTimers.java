package dev.slipstream.cluster;

import io.aeron.cluster.service.Cluster;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.IdleStrategy;

/**
 * The {@link TimerScheduler} a {@link TimerPolicy} is given: passes the user's timers to the
 * cluster's timer API, on the service thread and inside the policy's call only, so that every
 * timer scheduled or cancelled is a function of the log.
 *
 * <pre>{@code
 * ServiceTimers timers = new ServiceTimers(cluster, Thread.currentThread());
 * timers.apply(policy, event);             // the policy schedules and cancels through timers
 * }</pre>
 */
final class ServiceTimers implements TimerScheduler {
    private final Cluster cluster;
    private final Thread serviceThread;
    private final IdleStrategy idle;
    /** True during a policy's call; service thread only (any other thread is refused first). */
    private boolean inPolicy;

    ServiceTimers(final Cluster cluster, final Thread serviceThread) {
        this.cluster = cluster;
        this.serviceThread = serviceThread;
        this.idle = cluster.idleStrategy();
    }

    /**
     * Runs {@code policy} for {@code event}; the scheduler is valid for the call only.
     *
     * <p>What the policy throws goes to the service, which treats it as a stage's exception (its
     * {@link CommandFailurePolicy}): with the default, the event is rejected on every member alike;
     * the timers the policy scheduled before it threw stay scheduled, on every member alike.
     */
    <T> void apply(final TimerPolicy<T> policy, final ClusterCommand<T> event) {
        inPolicy = true;
        try {
            policy.onEvent(event, this);
        } finally {
            inPolicy = false;
        }
    }

    @Override
    public TimeUnit timeUnit() {
        return cluster.timeUnit();
    }

    @Override
    public void schedule(final long timerId, final long deadline) {
        check(timerId, "schedule");
        idle.reset();
        // false while the consensus module's channel pushes back: retry, since a timer dropped
        // here and not on another member would part the replicas
        while (!cluster.scheduleTimer(timerId, deadline)) {
            idle.idle();
        }
    }

    @Override
    public void cancel(final long timerId) {
        check(timerId, "cancel");
        idle.reset();
        while (!cluster.cancelTimer(timerId)) {
            idle.idle();
        }
    }

    private void check(final long timerId, final String what) {
        final Thread caller = Thread.currentThread();
        if (caller != serviceThread) {
            throw new IllegalStateException(what + " timer " + timerId + " from thread '" + caller.getName()
                    + "': timers are scheduled only on the cluster's service thread ('" + serviceThread.getName()
                    + "'), from the TimerPolicy, so that they follow the log; a stage cannot schedule them");
        }
        if (timerId < 0) {
            throw new IllegalArgumentException(what + " timer " + timerId
                    + ": timer ids must be 0 or more (negative ids are the service's own)");
        }
        if (!inPolicy) {
            throw new IllegalStateException(what + " timer " + timerId + " outside the TimerPolicy's call: the "
                    + "scheduler it is given is valid only until the policy returns, so that timers follow the log");
        }
    }
}
