package dev.slipstream.cluster;

import io.aeron.driver.DataPacketDispatcher;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ReceiveChannelEndpointSupplier;
import io.aeron.driver.SendChannelEndpointSupplier;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.DebugSendChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import io.aeron.driver.media.ReceiveChannelEndpoint;
import io.aeron.driver.media.SendChannelEndpoint;
import io.aeron.driver.media.UdpChannel;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A network partition around one member process: while {@link #isolate isolated}, its media
 * driver drops every UDP frame it sends or receives (data and control, to and from the other
 * members and the clients), as a cut cable would; its own IPC keeps working. Installed through
 * the driver's endpoint-supplier properties ({@link #install()}), which name these classes.
 */
public final class Partition {
    private static volatile boolean isolated;
    private static final LossGenerator DROP_WHILE_ISOLATED = (address, buffer, length) -> isolated;

    private Partition() {
    }

    /** Makes media drivers created after this call in this process use the partitionable endpoints. */
    static void install() {
        System.setProperty("aeron.SendChannelEndpoint.supplier", Send.class.getName());
        System.setProperty("aeron.ReceiveChannelEndpoint.supplier", Receive.class.getName());
    }

    /** Cuts ({@code true}) or heals ({@code false}) this process's network. */
    static void isolate(final boolean cut) {
        isolated = cut;
    }

    /** Send endpoints that drop while isolated. */
    public static final class Send implements SendChannelEndpointSupplier {
        @Override
        public SendChannelEndpoint newInstance(final UdpChannel channel, final AtomicCounter statusIndicator,
                final MediaDriver.Context context) {
            return new DebugSendChannelEndpoint(channel, statusIndicator, context, DROP_WHILE_ISOLATED,
                    DROP_WHILE_ISOLATED);
        }
    }

    /** Receive endpoints that drop while isolated. */
    public static final class Receive implements ReceiveChannelEndpointSupplier {
        @Override
        public ReceiveChannelEndpoint newInstance(final UdpChannel channel, final DataPacketDispatcher dispatcher,
                final AtomicCounter statusIndicator, final MediaDriver.Context context) {
            return new DebugReceiveChannelEndpoint(channel, dispatcher, statusIndicator, context,
                    DROP_WHILE_ISOLATED, DROP_WHILE_ISOLATED);
        }
    }
}
