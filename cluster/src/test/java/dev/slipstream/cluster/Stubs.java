package dev.slipstream.cluster;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.logbuffer.Header;
import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/** Stubs of Aeron's interfaces ({@code Cluster}, {@code ClientSession}) whose methods answer by name. */
final class Stubs {
    private Stubs() {
    }

    /** A stub of an interface whose methods answer by name. */
    @SuppressWarnings("unchecked")
    static <I> I proxy(final Class<I> type, final Answer answer) {
        return (I) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> switch (method.getName()) {
                    case "toString" -> "stub " + type.getSimpleName();
                    case "hashCode" -> System.identityHashCode(self);
                    case "equals" -> self == args[0];
                    default -> answer.answer(method.getName(), args);
                });
    }

    /** A client session, id 1, that takes every reply. */
    static ClientSession session() {
        return proxy(ClientSession.class, (method, args) -> switch (method) {
            case "id" -> 1L;
            case "isClosing" -> false;
            case "offer" -> 1L;
            default -> null;
        });
    }

    /**
     * A one-member cluster in milliseconds that knows {@code session}; every other method goes to
     * {@code more}, which names what a test records or controls (time, timers, log position).
     */
    static Cluster cluster(final ClientSession session, final Answer more) {
        return proxy(Cluster.class, (method, args) -> switch (method) {
            case "idleStrategy" -> new SleepingMillisIdleStrategy(1);
            case "timeUnit" -> TimeUnit.MILLISECONDS;
            case "memberId" -> 0;
            case "getClientSession" -> session;
            default -> more.answer(method, args);
        });
    }

    /**
     * Delivers a session's hello (correlation id 0) for {@code clientId} to a started service, as
     * the log would: every session says hello before its first command.
     */
    static void hello(final PipelineClusteredService<?> service, final ClientSession session, final long clientId,
            final long time) {
        final UnsafeBuffer hello = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH]);
        hello.putLong(CommandWireFormat.CLIENT_ID_OFFSET, clientId);
        hello.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, CommandWireFormat.HELLO_CORRELATION_ID);
        service.onSessionMessage(session, time, hello, 0, hello.capacity(), header());
    }

    /** A log fragment's header over a zeroed frame: enough for {@code header.position()}. */
    static Header header() {
        final Header header = new Header(0, 16);
        header.buffer(new UnsafeBuffer(new byte[64]));
        return header;
    }

    @FunctionalInterface
    interface Answer {
        Object answer(String method, Object[] args);
    }
}
