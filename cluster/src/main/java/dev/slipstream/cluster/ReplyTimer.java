package dev.slipstream.cluster;

import io.aeron.cluster.service.Cluster;
import java.util.concurrent.TimeUnit;

/**
 * The reply timer's schedule: after each command it keeps a cluster timer ticking (1 ms after the
 * command, then at growing intervals up to 100 ms, for 10 s), because Aeron lets the service
 * offer to client sessions only inside log callbacks, and the timer's event is one: replies a
 * stage makes after its command's callback returned leave on it.
 *
 * <p>Every decision to schedule the timer is a function of the log alone (command and timer
 * timestamps), never of how far the pipeline has got: the consensus module matches the timer
 * events in the log against the timers each member's service schedules, by correlation id, and
 * a member that scheduled differently from the leader (faster stages, or a replay after a
 * restart) would have a later timer swallowed as already fired, and its replies would wait for
 * the next command. So this class reads nothing but the timestamps it is given, and its state is
 * the same on every member at the same place in the log. Service thread only.
 *
 * <pre>{@code
 * ReplyTimer timer = new ReplyTimer(cluster, 1);
 * timer.arm(timestamp);              // after a command's callback: the first tick 1 ms later
 * // on the timer's event (correlation id ReplyTimer.ID):
 * timer.fired();
 * outbox.deliver(target);
 * timer.rearm(timestamp);            // the next tick, or none 10 s after the last command
 * }</pre>
 */
final class ReplyTimer {
    /** The timer's correlation id: negative, so it never meets a stage timer's id (0 up). */
    static final long ID = Long.MIN_VALUE + 1;
    private static final long NOT_ARMED = Long.MIN_VALUE;

    private final Cluster cluster;
    /** The first tick after a command, in ms; longer only in tests that must not see it fire. */
    private final long firstTickMs;
    /** When the scheduled tick fires, in cluster time; NOT_ARMED while none is scheduled. */
    private long deadline = NOT_ARMED;
    private long lastCommandTime;
    // in the cluster's time unit, 0 until the first command
    private long firstTick;
    private long longestTick;
    private long tickingFor;

    ReplyTimer(final Cluster cluster, final long firstTickMs) {
        this.cluster = cluster;
        this.firstTickMs = firstTickMs;
    }

    /**
     * After a command, makes sure the reply timer fires one tick (1 ms) after it: its event is a
     * log callback, where the service may offer to client sessions, so replies that become ready
     * after the last command still go out.
     */
    void arm(final long commandTime) {
        if (firstTick == 0) {
            // the cluster's time unit is known once the log is joined, not in onStart
            final TimeUnit unit = cluster.timeUnit();
            firstTick = Math.max(1, unit.convert(firstTickMs, TimeUnit.MILLISECONDS));
            longestTick = Math.max(1, unit.convert(100, TimeUnit.MILLISECONDS));
            tickingFor = Math.max(1, unit.convert(10, TimeUnit.SECONDS));
        }
        lastCommandTime = commandTime;
        final long wanted = commandTime + firstTick;
        if (deadline == NOT_ARMED || deadline > wanted) {
            schedule(wanted);
        }
    }

    /** The timer's event arrived: no tick is scheduled until {@link #arm} or {@link #rearm}. */
    void fired() {
        deadline = NOT_ARMED;
    }

    /**
     * After a reply timer event, schedules the next one: ticks grow with the time since the last
     * command (1, 2, 4, ... ms, at most 100 ms) and stop 10 s after it. A reply a stage makes
     * later than that goes out with the next command.
     */
    void rearm(final long now) {
        if (firstTick == 0) {
            return;  // a timer scheduled before a restart from a snapshot; the next command arms anew
        }
        final long sinceCommand = now - lastCommandTime;
        if (sinceCommand < tickingFor) {
            schedule(now + Math.min(longestTick, Math.max(firstTick, sinceCommand)));
        }
    }

    private void schedule(final long wanted) {
        // false only if the consensus module cannot be reached; the next command tries again
        if (cluster.scheduleTimer(ID, wanted)) {
            deadline = wanted;
        }
    }
}
