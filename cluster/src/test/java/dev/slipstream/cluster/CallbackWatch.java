package dev.slipstream.cluster;

import io.aeron.cluster.service.ClientSession;
import io.aeron.logbuffer.Header;
import java.util.function.LongConsumer;
import org.agrona.DirectBuffer;

/**
 * A clustered service that hands every callback to a {@link PipelineClusteredService} and lets a
 * test see the log callbacks: how many commands have entered and returned, how many timer events
 * came, and a hook run on the service thread before each command is handed on.
 */
final class CallbackWatch extends DelegatingService {
    private final LongConsumer beforeCommand;
    private volatile long entered;
    private volatile long returned;
    private volatile long timerEvents;

    /**
     * @param service the service every callback goes to
     * @param beforeCommand runs with the command's number (1, 2, ...) before it is handed on
     */
    CallbackWatch(final PipelineClusteredService<Amount> service, final LongConsumer beforeCommand) {
        super(service);
        this.beforeCommand = beforeCommand;
    }

    /** @return commands whose log callback has begun */
    long entered() {
        return entered;
    }

    /** @return commands whose log callback has returned */
    long returned() {
        return returned;
    }

    /** @return timer events seen, the reply timer's among them */
    long timerEvents() {
        return timerEvents;
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header) {
        if (length >= CommandWireFormat.COMMAND_HEADER_LENGTH && buffer.getLong(offset
                + CommandWireFormat.CORRELATION_ID_OFFSET) == CommandWireFormat.HELLO_CORRELATION_ID) {
            service.onSessionMessage(session, timestamp, buffer, offset, length, header);  // a hello, not a command
            return;
        }
        final long n = entered + 1;
        entered = n;  // single writer: the service thread
        beforeCommand.accept(n);
        service.onSessionMessage(session, timestamp, buffer, offset, length, header);
        returned = n;
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        timerEvents = timerEvents + 1;  // single writer: the service thread
        service.onTimerEvent(correlationId, timestamp);
    }
}
