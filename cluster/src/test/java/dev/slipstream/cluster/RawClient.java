package dev.slipstream.cluster;

import io.aeron.cluster.client.AeronCluster;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/** What a test that drives Aeron's own cluster client by hand must send before its commands. */
final class RawClient {
    private RawClient() {
    }

    /**
     * Says hello as {@code clientId} and waits for the welcome, which it takes off {@code egress}
     * (the copies of every egress message, as the test's listener keeps them).
     */
    static void hello(final AeronCluster raw, final long clientId, final List<byte[]> egress) {
        final UnsafeBuffer hello = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH]);
        hello.putLong(CommandWireFormat.CLIENT_ID_OFFSET, clientId);
        hello.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, CommandWireFormat.HELLO_CORRELATION_ID);
        Await.until("the hello to be offered", SingleMember.LIMIT, raw::pollEgress,
                () -> raw.offer(hello, 0, hello.capacity()) > 0);
        Await.until("the welcome", SingleMember.LIMIT, raw::pollEgress, () -> !egress.isEmpty());
        final UnsafeBuffer answer = new UnsafeBuffer(egress.remove(0));
        if (answer.getByte(CommandWireFormat.REPLY_STATUS_OFFSET) != CommandWireFormat.STATUS_WELCOME) {
            throw new AssertionError("hello of client " + clientId + " answered with status "
                    + answer.getByte(CommandWireFormat.REPLY_STATUS_OFFSET));
        }
    }
}
