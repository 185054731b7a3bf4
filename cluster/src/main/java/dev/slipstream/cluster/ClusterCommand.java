package dev.slipstream.cluster;

import java.util.Objects;

/**
 * One slot of a clustered pipeline's ring: a committed command with the log's facts about it
 * (position, cluster time, session, client and correlation id) and the user's decoded payload.
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
 * }</pre>
 *
 * @param <T> the payload type, one preallocated instance per slot
 */
public final class ClusterCommand<T> {
    private final T payload;
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

    /** @return the log position just after this command's message */
    public long logPosition() {
        return logPosition;
    }

    /** @return the cluster time of the command, in the cluster's time unit */
    public long timestamp() {
        return timestamp;
    }

    /** @return the cluster session the command came in on, where its reply goes */
    public long clusterSessionId() {
        return clusterSessionId;
    }

    /** @return the sending client's id (chosen by the client, the same across its sessions) */
    public long clientId() {
        return clientId;
    }

    /** @return the client's correlation id of this command */
    public long correlationId() {
        return correlationId;
    }

    void set(final long logPosition, final long timestamp, final long clusterSessionId, final long clientId,
            final long correlationId) {
        this.logPosition = logPosition;
        this.timestamp = timestamp;
        this.clusterSessionId = clusterSessionId;
        this.clientId = clientId;
        this.correlationId = correlationId;
    }

    @Override
    public String toString() {
        return "ClusterCommand{position=" + logPosition + ", timestamp=" + timestamp + ", session="
                + clusterSessionId + ", client=" + clientId + ", correlation=" + correlationId + ", payload="
                + payload + '}';
    }
}
