package dev.slipstream.cluster;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * One slot of a clustered pipeline's ring: a committed command with the log's facts about it
 * (position, cluster time, session, client and correlation id) and the user's decoded payload,
 * or a timer event (see {@link TimerPolicy}): a timer whose deadline passed, at its place in the
 * log, with its {@link #timerId()} and the payload its {@link TimerPayload} filled. A timer
 * event has no client: its session, client and correlation ids are {@link #NONE}, and it cannot
 * be answered.
 *
 * <p>A command for which a stage (or the ingress decoder) threw an exception is <b>rejected</b>:
 * {@link #isRejected()} turns true, its client is answered
 * {@link CommandWireFormat#STATUS_REJECTED} with the exception, and a reply a later stage
 * queues for it is dropped. The stages gated behind the one that threw still receive it, with
 * {@link #isRejected()} true, and should skip it; since the exception is a function of the log,
 * every member rejects the same command alike. A stage running in parallel with the one that
 * threw (on the same barrier) may see it either way: check {@link #isRejected()} only behind.
 *
 * <p>Stages read the cluster time from {@link #timestamp()}, never from a clock of their own:
 * every member sees the same timestamp for the same command, so their stages compute the same
 * state. The service thread fills the slot; stages only read it.
 *
 * <pre>{@code
 * EventHandler<ClusterCommand<Order>> matcher = (command, sequence, endOfBatch) -> {
 *     Order order = command.payload();
 *     book.apply(order, command.timestamp());            // cluster time, the same on every member
 *     outbox.reply(command, Order::writeAck, order);
 * };
 * EventHandler<ClusterCommand<Order>> expiry = (event, sequence, endOfBatch) -> {
 *     if (event.isTimer()) {
 *         book.expire(event.timerId(), event.timestamp());  // the timer's cluster time
 *     }
 * };
 * }</pre>
 *
 * @param <T> the payload type, one preallocated instance per slot
 */
public final class ClusterCommand<T> {
    /** The session, client and correlation id of a timer event, which has no client. */
    public static final long NONE = -1;

    private static final VarHandle REJECTED;

    static {
        try {
            REJECTED = MethodHandles.lookup().findVarHandle(ClusterCommand.class, "rejected", boolean.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final T payload;
    /** Set once per command by the first stage that throws for it; see {@link #casRejected}. */
    private boolean rejected;
    /** Set by the stage that queued a reply for this command; read by a stage behind it (after its sequence). */
    private boolean answered;
    /** Written by the thread that marked {@code rejected}, before its stage's sequence moves on. */
    private String rejection;
    private boolean timer;
    private long timerId;
    private long logPosition;
    private long timestamp;
    private long clusterSessionId;
    private long clientId;
    private long correlationId;

    /**
     * Creates a slot around its preallocated payload.
     *
     * @param payload the slot's payload, reused for every command the slot carries
     * @throws NullPointerException if {@code payload} is null
     */
    public ClusterCommand(final T payload) {
        this.payload = Objects.requireNonNull(payload, "payload must not be null");
    }

    /** @return the decoded payload (the same instance for every command this slot carries) */
    public T payload() {
        return payload;
    }

    /** @return true for a timer event, false for a client's command */
    public boolean isTimer() {
        return timer;
    }

    /**
     * @return the id the timer was scheduled under (0 or more)
     * @throws IllegalStateException if this is a command, not a timer event
     */
    public long timerId() {
        if (!timer) {
            throw new IllegalStateException("timerId() of a command (client " + clientId + ", correlation id "
                    + correlationId + "): only a timer event has one; check isTimer() first");
        }
        return timerId;
    }

    /**
     * @return the log position just after this command's message; for a timer event, the log
     *         position the cluster had reached when the timer fired
     */
    public long logPosition() {
        return logPosition;
    }

    /**
     * @return the cluster time of the command, or of the timer event (at or after its
     *         deadline), in the cluster's time unit
     */
    public long timestamp() {
        return timestamp;
    }

    /** @return the cluster session the command came in on, where its reply goes; {@link #NONE} for a timer */
    public long clusterSessionId() {
        return clusterSessionId;
    }

    /**
     * @return the sending client's id (chosen by the client, 0 or more, the same across its
     *         sessions); {@link #NONE} for a timer event
     */
    public long clientId() {
        return clientId;
    }

    /** @return the client's correlation id of this command; {@link #NONE} for a timer event */
    public long correlationId() {
        return correlationId;
    }

    /**
     * @return true if a stage (or the ingress decoder) threw for this command: stages behind the
     *         one that threw should skip it (see the class comment)
     */
    public boolean isRejected() {
        // plain: a stage behind the rejecting one acquired that stage's sequence, which was
        // released after the mark; the service thread's reset happened before the publish
        return rejected;
    }

    /**
     * @return the rejection reason sent to the client (the exception's type and message), or null
     *         if the command is not rejected
     */
    public String rejection() {
        return rejected ? rejection : null;
    }

    /**
     * Marks the command rejected, if no stage did yet.
     *
     * @return true if this call marked it; false if another stage (in parallel) had already
     */
    boolean casRejected(final String reason) {
        // CAS: two stages in parallel may both throw; only the first marks it and answers the client
        if (!REJECTED.compareAndSet(this, false, true)) {
            return false;
        }
        // plain: a stage behind reads it after acquiring this stage's sequence, released later
        this.rejection = reason;
        return true;
    }

    /** @return true once a stage queued a reply for this command */
    boolean isAnswered() {
        return answered;
    }

    void markAnswered() {
        this.answered = true;
    }

    void set(final long logPosition, final long timestamp, final long clusterSessionId, final long clientId,
            final long correlationId) {
        this.answered = false;
        this.rejected = false;
        this.rejection = null;
        this.timer = false;
        this.timerId = NONE;
        this.logPosition = logPosition;
        this.timestamp = timestamp;
        this.clusterSessionId = clusterSessionId;
        this.clientId = clientId;
        this.correlationId = correlationId;
    }

    void setTimer(final long logPosition, final long timestamp, final long timerId) {
        this.answered = false;
        this.rejected = false;
        this.rejection = null;
        this.timer = true;
        this.timerId = timerId;
        this.logPosition = logPosition;
        this.timestamp = timestamp;
        this.clusterSessionId = NONE;
        this.clientId = NONE;
        this.correlationId = NONE;
    }

    @Override
    public String toString() {
        if (timer) {
            return "ClusterCommand{timer=" + timerId + ", position=" + logPosition + ", timestamp=" + timestamp
                    + ", payload=" + payload + '}';
        }
        return "ClusterCommand{" + (rejected ? "rejected, " : "") + "position=" + logPosition + ", timestamp=" + timestamp + ", session="
                + clusterSessionId + ", client=" + clientId + ", correlation=" + correlationId + ", payload="
                + payload + '}';
    }
}
