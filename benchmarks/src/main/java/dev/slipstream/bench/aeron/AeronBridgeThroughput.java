package dev.slipstream.bench.aeron;

import dev.slipstream.aeron.AeronInbound;
import dev.slipstream.aeron.AeronOutbound;
import dev.slipstream.aeron.WireFormat;
import dev.slipstream.ring.EventTranslatorTwoArg;
import dev.slipstream.topology.Slipstream;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.ControlledFragmentHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Throughput of ring -> {@link AeronOutbound} -> Aeron -> {@link AeronInbound} -> ring
 * ({@code impl=bridge}) against raw Aeron ({@code impl=raw}: the benchmark thread claims and
 * encodes each message itself, a poller thread decodes it), same header and payload as
 * {@link AeronBridgeBench}, over the channel {@code channel} names: {@code ipc} (the default) or
 * {@code udp} (unicast over the loopback interface to a port found free at setup; one driver
 * thread, {@code SHARED}, on both channels). The benchmark thread is the producer; the receiving end is in the
 * background, and back-pressure makes the producer's rate the end-to-end rate once the rings and
 * the term are full. At the end of each trial every message sent must have arrived with its
 * checksum, or the trial throws. The first messages of a trial fill the rings and the term at the
 * producer's own speed (up to {@code ringSize} plus half a 16 MiB term, twice for the bridge), so
 * give it warm-up iterations long enough to pass that.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar AeronBridgeThroughput -p wait=busyspin -f 5
 * java -jar benchmarks/target/benchmarks.jar AeronBridgeThroughput -p wait=busyspin -p channel=ipc,udp
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 3, jvmArgsPrepend = {"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class AeronBridgeThroughput {
    private static final int STREAM = 78;
    private static final EventTranslatorTwoArg<AeronBridgeBench.Msg, Long, Long> FILL = (m, seq, index, unused) -> {
        m.index = index;
        m.intendedNanos = 0;
        m.value = AeronBridgeBench.valueOf(index);
    };

    /** {@code bridge} or {@code raw}. */
    @Param({"bridge", "raw"})
    public String impl;

    /** {@code yielding} or {@code busyspin}: ring wait strategies and Aeron idle strategies alike. */
    @Param({"yielding", "busyspin"})
    public String wait;

    /** {@code ipc} ({@code aeron:ipc}) or {@code udp} ({@code aeron:udp?endpoint=localhost:PORT}). */
    @Param({"ipc"})
    public String channel;

    /** Slots per ring (bridge only). */
    @Param({"65536"})
    public int ringSize;

    private MediaDriver driver;
    private Aeron aeron;
    private ExclusivePublication publication;
    private AeronBridgeBench.Receiver receiver;
    private long sent;
    private long sentChecksum;

    // bridge
    private AeronBridgeBench.Bridge bridge;
    private Slipstream<AeronBridgeBench.Msg> sending;

    // raw
    private Subscription subscription;
    private Thread poller;
    private volatile boolean polling;
    private final BufferClaim claim = new BufferClaim();
    private final AeronBridgeBench.Msg msg = new AeronBridgeBench.Msg();
    private IdleStrategy idle;

    /** Starts a driver, the receiving end and the sending end. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        final String uri = AeronBridgeBench.channelUri(channel, 0); // refuses an unknown channel first
        driver = AeronBridgeBench.launchDriver(wait.equals("busyspin"), 16 << 20);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        receiver = new AeronBridgeBench.Receiver(0, false);
        idle = idle();
        if (impl.equals("bridge")) {
            bridge = AeronBridgeBench.Bridge.start(aeron, uri, STREAM, receiver, wait.equals("busyspin"), ringSize);
            publication = bridge.publication();
            sending = bridge.sending();
        } else if (impl.equals("raw")) {
            subscription = aeron.addSubscription(uri, STREAM);
            publication = aeron.addExclusivePublication(uri, STREAM);
            polling = true;
            poller = new Thread(() -> {
                final AeronBridgeBench.Msg m = new AeronBridgeBench.Msg();
                final IdleStrategy pollIdle = idle();
                final ControlledFragmentHandler handler = (buffer, offset, length, header) -> {
                    AeronBridgeBench.DECODER.decode(buffer, offset + WireFormat.HEADER_LENGTH,
                            length - WireFormat.HEADER_LENGTH, m);
                    receiver.onMessage(m);
                    return ControlledFragmentHandler.Action.CONTINUE;
                };
                while (polling) {
                    pollIdle.idle(subscription.controlledPoll(handler, 256));
                }
            }, "raw-poller");
            poller.start();
        } else {
            throw new IllegalArgumentException("impl must be bridge or raw, got " + impl);
        }
        while (!publication.isConnected()) {
            Thread.yield();
        }
    }

    private IdleStrategy idle() {
        return AeronBridgeBench.idle(wait.equals("busyspin"));
    }

    /** One message from the producer: into the sending ring (bridge), or claimed and encoded (raw). */
    @Benchmark
    public void send() {
        final long i = sent++;
        sentChecksum += AeronBridgeBench.valueOf(i);
        if (sending != null) {
            sending.publishEvent(FILL, i, 0L);
            return;
        }
        final int length = WireFormat.HEADER_LENGTH + AeronBridgeBench.PAYLOAD;
        while (publication.tryClaim(length, claim) < 0) {
            idle.idle();
        }
        idle.reset();
        FILL.translateTo(msg, i, i, 0L);
        WireFormat.putSequence(claim.buffer(), claim.offset(), i);
        AeronBridgeBench.ENCODER.encode(msg, claim.buffer(), claim.offset() + WireFormat.HEADER_LENGTH);
        claim.commit();
    }

    /** Waits for everything sent to arrive, checks it, and stops. */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (receiver.received < sent && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        try {
            if (bridge != null) {
                bridge.close();
            } else {
                polling = false;
                poller.join();
                subscription.close();
                publication.close();
            }
        } finally {
            aeron.close();
            driver.close();
        }
        if (receiver.received != sent || receiver.checksum != sentChecksum) {
            throw new IllegalStateException("checksum mismatch: sent " + sent + ", received " + receiver.received);
        }
    }
}
