package dev.slipstream.cluster;

import org.agrona.DirectBuffer;

/**
 * Receives the answer to each command a {@link ClusterCommandClient} sent, once per command, on
 * the thread that calls {@link ClusterCommandClient#poll()}. The statuses a listener sees:
 *
 * <ul>
 *   <li>{@link CommandWireFormat#STATUS_APPLIED}: the command was applied; the payload is the
 *       reply a stage wrote.</li>
 *   <li>{@link CommandWireFormat#STATUS_DUPLICATE}: a re-send of a command the cluster had
 *       applied (or rejected) already, after a failover; it was not applied again. No payload.</li>
 *   <li>{@link CommandWireFormat#STATUS_REFUSED}: the service refused the command before the
 *       stages saw it (too long, too far ahead, a session that may not use the client id); the
 *       payload is the reason in ASCII. It was not applied and may be sent again.</li>
 *   <li>{@link CommandWireFormat#STATUS_REJECTED}: a stage threw for the command, on every member
 *       alike; the payload is the exception's type and message in UTF-8. It counts as applied.</li>
 *   <li>{@link CommandWireFormat#STATUS_OUTCOME_UNKNOWN}: the client gave up on the command, which
 *       may or may not have been applied: its {@code commandTimeout} passed with no answer, or the
 *       client stopped (a newer session took its client id over, or a reconnect was refused).
 *       No payload; a later answer to the command is dropped.</li>
 * </ul>
 *
 * <p>Session-level answers (a hello's welcome or refusal, a takeover) are the client's own and
 * never reach the listener. The buffer is valid only during the call: copy what is kept.
 *
 * <pre>{@code
 * ReplyListener listener = (correlationId, status, buffer, offset, length) -> {
 *     switch (status) {
 *         case CommandWireFormat.STATUS_APPLIED -> fills.add(buffer.getLong(offset));
 *         case CommandWireFormat.STATUS_OUTCOME_UNKNOWN -> reconcileLater.add(correlationId);
 *         default -> log(correlationId, status);
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ReplyListener {
    /**
     * @param correlationId the command's correlation id
     * @param status one of the statuses listed above
     * @param buffer the reply
     * @param offset where its payload starts
     * @param length the payload's length
     */
    void onReply(long correlationId, byte status, DirectBuffer buffer, int offset, int length);
}
