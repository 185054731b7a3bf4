package dev.slipstream.cluster;

import java.util.HashMap;
import java.util.Map;
import org.agrona.DirectBuffer;

/** Collects a client's replies: status and payload count per correlation id, and duplicates seen. */
final class Replies implements ReplyListener {
    final Map<Long, Byte> status = new HashMap<>();
    final Map<Long, Long> count = new HashMap<>();
    int repeated;
    /** The highest correlation id answered so far. */
    long highest;

    @Override
    public void onReply(final long correlationId, final byte replyStatus, final DirectBuffer buffer, final int offset,
            final int length) {
        highest = Math.max(highest, correlationId);
        if (status.put(correlationId, replyStatus) != null) {
            repeated++;
        }
        if (replyStatus == CommandWireFormat.STATUS_APPLIED && length >= Long.BYTES) {
            count.put(correlationId, buffer.getLong(offset));
        }
    }
}
