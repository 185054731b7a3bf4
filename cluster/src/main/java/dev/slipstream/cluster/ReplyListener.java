package dev.slipstream.cluster;

import org.agrona.DirectBuffer;

/**
 * Receives the answer to each command a {@link ClusterCommandClient} sent, once per command, on
 * the thread that calls {@link ClusterCommandClient#poll()}.
 *
 * <pre>{@code
 * ReplyListener listener = (correlationId, status, buffer, offset, length) -> {
 *     if (status == CommandWireFormat.STATUS_APPLIED) {
 *         fills.add(buffer.getLong(offset));
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ReplyListener {
    /**
     * @param correlationId the command's correlation id
     * @param status one of {@link CommandWireFormat}'s statuses
     * @param buffer the reply
     * @param offset where its payload starts
     * @param length the payload's length
     */
    void onReply(long correlationId, byte status, DirectBuffer buffer, int offset, int length);
}
