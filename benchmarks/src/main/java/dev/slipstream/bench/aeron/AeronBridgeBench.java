package dev.slipstream.bench.aeron;

import dev.slipstream.aeron.AeronInbound;
import dev.slipstream.aeron.AeronOutbound;
import dev.slipstream.aeron.MessageDecoder;
import dev.slipstream.aeron.MessageEncoder;
import dev.slipstream.aeron.WireFormat;
import dev.slipstream.bench.support.CommandLine;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.EventTranslatorTwoArg;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.ControlledFragmentHandler;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * What the Aeron bridge costs: ring -> {@link AeronOutbound} -> Aeron -> {@link AeronInbound}
 * -> ring, against raw Aeron (a thread offering with {@code tryClaim}, a thread polling with
 * {@code controlledPoll}) with the same 8-byte {@link WireFormat} header and the same 24-byte
 * payload encoding, in the same JVM with the same embedded media driver, over the same channel:
 * {@code --channel ipc} (the default, {@code aeron:ipc}) or {@code --channel udp} (unicast over
 * the loopback interface, {@code aeron:udp?endpoint=localhost:PORT}, {@code --port} or else a
 * port found free at start).
 *
 * <ul>
 *   <li>{@code --mode throughput}: the sender sends {@code --messages} as fast as it can; the run
 *       reports messages per second from the first send to the last receipt.</li>
 *   <li>{@code --mode latency}: the sender is paced at {@code --rate} messages/s; each message
 *       carries its <em>intended</em> send time and the receiving end records
 *       {@code now - intended} (coordinated omission avoided by construction); the first
 *       {@code --warmup} messages are not recorded.</li>
 * </ul>
 * Both checksum every value at the receiving end and exit with 3 on a mismatch.
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *      dev.slipstream.bench.aeron.AeronBridgeBench --mode throughput --impl bridge --messages 20000000 --wait spin
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *      dev.slipstream.bench.aeron.AeronBridgeBench --mode latency --impl raw --rate 100000 --messages 3000000 --wait spin
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *      dev.slipstream.bench.aeron.AeronBridgeBench --mode latency --impl bridge --channel udp --rate 100000 --wait spin
 * </pre>
 * {@code --impl raw|bridge}, {@code --wait spin|yield} (ring wait strategies and Aeron idle
 * strategies alike), {@code --ring} (slots per ring, bridge only), {@code --term} (term length of
 * the IPC or UDP publication). Spinning needs a core per busy thread: raw uses 2 plus the driver's,
 * the bridge 4 plus the driver's (one driver thread, {@code SHARED}, over either channel). It
 * prints one line: {@code impl mode wait messages value unit [percentiles] channel}.
 */
public final class AeronBridgeBench {
    static final int PAYLOAD = 24;
    private static final int STREAM = 77;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    /** The event carried on both paths: the intended send time and a value to checksum. */
    static final class Msg {
        long intendedNanos;
        long value;
        long index;
    }

    static final MessageEncoder<Msg> ENCODER = new MessageEncoder<>() {
        @Override
        public int encodedLength(final Msg m) {
            return PAYLOAD;
        }

        @Override
        public int encode(final Msg m, final MutableDirectBuffer buffer, final int offset) {
            buffer.putLong(offset, m.intendedNanos, LE);
            buffer.putLong(offset + 8, m.value, LE);
            buffer.putLong(offset + 16, m.index, LE);
            return PAYLOAD;
        }
    };

    static final MessageDecoder<Msg> DECODER = (buffer, offset, length, m) -> {
        m.intendedNanos = buffer.getLong(offset, LE);
        m.value = buffer.getLong(offset + 8, LE);
        m.index = buffer.getLong(offset + 16, LE);
    };

    private static final EventTranslatorTwoArg<Msg, Long, Long> FILL = (m, seq, index, intended) -> {
        m.index = index;
        m.intendedNanos = intended;
        m.value = valueOf(index);
    };

    static long valueOf(final long i) {
        return i * 0x9E3779B97F4A7C15L ^ (i >>> 7);
    }

    /** The receiving end's work, the same for both paths: checksum, count, latency. */
    static final class Receiver {
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final long warmup;
        final boolean latency;
        long checksum;
        volatile long received;
        long lastNanos;

        Receiver(final long warmup, final boolean latency) {
            this.warmup = warmup;
            this.latency = latency;
        }

        void onMessage(final Msg m) {
            final long now = System.nanoTime();
            if (latency && m.index >= warmup) {
                histogram.recordValue(Math.min(histogram.getHighestTrackableValue(), Math.max(0, now - m.intendedNanos)));
            }
            checksum += m.value;
            lastNanos = now;
            // release store (volatile): the main thread polls it
            received = received + 1;
        }
    }

    private AeronBridgeBench() {
    }

    /**
     * Runs one configuration and prints one result line.
     *
     * @param args see the class comment
     * @throws Exception if it cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        final Map<String, String> o = CommandLine.parse(args, Set.of("mode", "impl", "wait", "messages", "rate", "warmup",
                "ring", "term", "channel", "port"));
        final String mode = o.getOrDefault("mode", "throughput");
        final String impl = o.getOrDefault("impl", "bridge");
        final String wait = o.getOrDefault("wait", "spin");
        final long messages = Long.parseLong(o.getOrDefault("messages", "1000000"));
        final long rate = Long.parseLong(o.getOrDefault("rate", "100000"));
        final long warmup = Long.parseLong(o.getOrDefault("warmup", Long.toString(messages / 5)));
        final int ring = Integer.parseInt(o.getOrDefault("ring", "65536"));
        final int term = Integer.parseInt(o.getOrDefault("term", Integer.toString(16 << 20)));
        final String channel = o.getOrDefault("channel", "ipc");
        final String uri = channelUri(channel, Integer.parseInt(o.getOrDefault("port", "0")));
        if (!mode.equals("throughput") && !mode.equals("latency")) {
            throw new IllegalArgumentException("--mode must be throughput or latency, got " + mode);
        }
        if (!impl.equals("raw") && !impl.equals("bridge")) {
            throw new IllegalArgumentException("--impl must be raw or bridge, got " + impl);
        }
        if (!wait.equals("spin") && !wait.equals("yield")) {
            throw new IllegalArgumentException("--wait must be spin or yield, got " + wait);
        }
        final boolean latency = mode.equals("latency");
        final long intervalNanos = latency ? 1_000_000_000L / rate : 0;

        final MediaDriver driver = launchDriver(wait.equals("spin"), term);
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        final Receiver receiver = new Receiver(warmup, latency);
        final long start;
        try {
            start = impl.equals("raw")
                    ? runRaw(aeron, uri, receiver, messages, intervalNanos, wait)
                    : runBridge(aeron, uri, receiver, messages, intervalNanos, wait, ring);
        } finally {
            aeron.close();
            driver.close();
        }

        long expected = 0;
        for (long i = 0; i < messages; i++) {
            expected += valueOf(i);
        }
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %s %s %d", impl, mode, wait,
                messages));
        if (latency) {
            final Histogram h = receiver.histogram;
            line.append(String.format(Locale.ROOT, " rate %d/s one-way us: p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f"
                            + " p99.99 %.2f max %.2f", rate, h.getValueAtPercentile(50) / 1e3,
                    h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
                    h.getValueAtPercentile(99.9) / 1e3, h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3));
        } else {
            final double seconds = (receiver.lastNanos - start) / 1e9;
            line.append(String.format(Locale.ROOT, " %.0f msgs/s", messages / seconds));
        }
        line.append(" channel ").append(channel);
        System.out.println(line);
        if (receiver.received != messages || receiver.checksum != expected) {
            System.out.println("FAILED: received " + receiver.received + " of " + messages + ", checksum "
                    + (receiver.checksum == expected ? "ok" : "wrong"));
            System.exit(3);
        }
    }

    private static IdleStrategy idle(final String wait) {
        return idle(wait.equals("spin"));
    }

    static IdleStrategy idle(final boolean spin) {
        return spin ? new BusySpinIdleStrategy() : new YieldingIdleStrategy();
    }

    /** An embedded driver, one thread ({@code SHARED}) over either channel, in a fresh directory. */
    static MediaDriver launchDriver(final boolean spin, final int term) throws IOException {
        return MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(Files.createTempDirectory("slipstream-aeron-bench").resolve("aeron").toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(idle(spin))
                .ipcTermBufferLength(term)
                .publicationTermBufferLength(term)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
    }

    /**
     * The channel URI: {@code ipc}, or {@code udp} unicast to {@code localhost} on {@code port}
     * (0: a port that was free on the loopback address a moment ago).
     */
    static String channelUri(final String channel, final int port) throws IOException {
        return switch (channel) {
            case "ipc" -> "aeron:ipc";
            case "udp" -> "aeron:udp?endpoint=localhost:" + (port != 0 ? port : freeUdpPort());
            default -> throw new IllegalArgumentException("--channel must be ipc or udp, got " + channel);
        };
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Returns the start time; when it returns, every message has been received. */
    private static long runRaw(final Aeron aeron, final String uri, final Receiver receiver, final long messages,
                               final long intervalNanos, final String wait) throws InterruptedException {
        final ExclusivePublication publication = aeron.addExclusivePublication(uri, STREAM);
        final Subscription subscription = aeron.addSubscription(uri, STREAM);
        while (!publication.isConnected()) {
            Thread.yield();
        }
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread poller = new Thread(() -> {
            final Msg m = new Msg();
            final IdleStrategy idle = idle(wait);
            final ControlledFragmentHandler handler = (buffer, offset, length, header) -> {
                WireFormat.sequence(buffer, offset);
                DECODER.decode(buffer, offset + WireFormat.HEADER_LENGTH, length - WireFormat.HEADER_LENGTH, m);
                receiver.onMessage(m);
                return ControlledFragmentHandler.Action.CONTINUE;
            };
            while (running.get()) {
                idle.idle(subscription.controlledPoll(handler, 256));
            }
        }, "raw-poller");
        poller.start();
        final Msg m = new Msg();
        final BufferClaim claim = new BufferClaim();
        final IdleStrategy idle = idle(wait);
        final int length = WireFormat.HEADER_LENGTH + PAYLOAD;
        final long start = startSoon();
        for (long i = 0; i < messages; i++) {
            final long intended = pace(start, i, intervalNanos);
            FILL.translateTo(m, i, i, intended);
            while (publication.tryClaim(length, claim) < 0) {
                idle.idle();
            }
            idle.reset();
            final MutableDirectBuffer buffer = claim.buffer();
            WireFormat.putSequence(buffer, claim.offset(), i);
            ENCODER.encode(m, buffer, claim.offset() + WireFormat.HEADER_LENGTH);
            claim.commit();
        }
        awaitReceived(receiver, messages);
        running.set(false);
        poller.join();
        publication.close();
        subscription.close();
        return start;
    }

    private static long runBridge(final Aeron aeron, final String uri, final Receiver receiver, final long messages,
                                  final long intervalNanos, final String wait, final int ring)
            throws InterruptedException {
        final Bridge bridge = Bridge.start(aeron, uri, STREAM, receiver, wait.equals("spin"), ring);
        final Slipstream<Msg> sending = bridge.sending();
        final long start = startSoon();
        for (long i = 0; i < messages; i++) {
            final long intended = pace(start, i, intervalNanos);
            sending.publishEvent(FILL, i, intended);
        }
        awaitReceived(receiver, messages);
        bridge.close();
        return start;
    }

    /** ring -> {@link AeronOutbound} -> Aeron -> {@link AeronInbound} -> ring, into {@code receiver}. */
    record Bridge(Slipstream<Msg> receiving, AeronInbound<Msg> inbound, Thread inboundThread,
                  ExclusivePublication publication, Slipstream<Msg> sending) {
        /** Starts both ends; returns once the publication is connected. */
        static Bridge start(final Aeron aeron, final String uri, final int stream, final Receiver receiver,
                            final boolean spin, final int ring) {
            final Slipstream<Msg> receiving = Slipstream.builder(Msg::new).name("receiving").ringSize(ring)
                    .producers(ProducerType.SINGLE).waitStrategy(ringWait(spin)).build();
            receiving.handleEventsWith((EventHandler<Msg>) (m, seq, end) -> receiver.onMessage(m));
            receiving.start();
            final AeronInbound<Msg> inbound = AeronInbound.builder(aeron, uri, stream, receiving.ringBuffer(),
                    DECODER).idleStrategy(idle(spin)).build();
            final Thread inboundThread = new Thread(inbound, "inbound");
            inboundThread.start();
            final ExclusivePublication publication = aeron.addExclusivePublication(uri, stream);
            final AeronOutbound<Msg> outbound = AeronOutbound.builder(publication, ENCODER).idleStrategy(idle(spin))
                    .build();
            final Slipstream<Msg> sending = Slipstream.builder(Msg::new).name("sending").ringSize(ring)
                    .producers(ProducerType.SINGLE).waitStrategy(ringWait(spin)).build();
            sending.handleEventsWith(outbound.stageSpec("to-aeron"));
            sending.start();
            while (!publication.isConnected()) {
                Thread.yield();
            }
            return new Bridge(receiving, inbound, inboundThread, publication, sending);
        }

        private static WaitStrategy ringWait(final boolean spin) {
            return spin ? new BusySpinWaitStrategy() : new YieldingWaitStrategy();
        }

        /** Stops the sending end, then the receiving end. */
        void close() throws InterruptedException {
            sending.shutdown(Duration.ofSeconds(10));
            inbound.close();
            inboundThread.join();
            receiving.shutdown(Duration.ofSeconds(10));
            publication.close();
        }
    }

    /** @return a start time 50 ms from now, once it has come (the receivers are running by then) */
    private static long startSoon() {
        final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        long now;
        while ((now = System.nanoTime()) < start) {
            LockSupport.parkNanos(start - now);
        }
        return start;
    }

    /**
     * Paced (latency) runs: spins until message {@code i}'s intended send time and returns it;
     * unpaced (throughput) runs, {@code intervalNanos == 0}: returns 0 at once.
     */
    private static long pace(final long start, final long i, final long intervalNanos) {
        if (intervalNanos == 0) {
            return 0;
        }
        final long intended = start + i * intervalNanos;
        while (System.nanoTime() < intended) {
            Thread.onSpinWait();
        }
        return intended;
    }

    private static void awaitReceived(final Receiver receiver, final long messages) {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (receiver.received < messages) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + receiver.received + " of " + messages + " arrived in 5 minutes");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }
}
