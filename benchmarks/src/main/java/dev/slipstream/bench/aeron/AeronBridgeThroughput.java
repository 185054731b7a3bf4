package dev.slipstream.bench.aeron;

import dev.slipstream.aeron.AeronInbound;
import dev.slipstream.aeron.AeronOutbound;
import dev.slipstream.aeron.WireFormat;
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
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
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
    private Slipstream<AeronBridgeBench.Msg> sending;
    private Slipstream<AeronBridgeBench.Msg> receiving;
    private AeronInbound<AeronBridgeBench.Msg> inbound;
    private Thread inboundThread;

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
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(Files.createTempDirectory("slipstream-aeron-jmh").resolve("aeron").toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(idle())
                .ipcTermBufferLength(16 << 20)
                .publicationTermBufferLength(16 << 20)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        receiver = new AeronBridgeBench.Receiver(0, false);
        idle = idle();
        if (impl.equals("bridge")) {
            receiving = Slipstream.builder(AeronBridgeBench.Msg::new).name("receiving").ringSize(ringSize)
                    .producers(ProducerType.SINGLE).waitStrategy(ringWait()).build();
            receiving.handleEventsWith((EventHandler<AeronBridgeBench.Msg>) (m, seq, end) -> receiver.onMessage(m));
            receiving.start();
            inbound = AeronInbound.builder(aeron, uri, STREAM, receiving.ringBuffer(), AeronBridgeBench.DECODER)
                    .idleStrategy(idle()).build();
            inboundThread = new Thread(inbound, "inbound");
            inboundThread.start();
            publication = aeron.addExclusivePublication(uri, STREAM);
            final AeronOutbound<AeronBridgeBench.Msg> outbound = AeronOutbound.builder(publication,
                    AeronBridgeBench.ENCODER).idleStrategy(idle()).build();
            sending = Slipstream.builder(AeronBridgeBench.Msg::new).name("sending").ringSize(ringSize)
                    .producers(ProducerType.SINGLE).waitStrategy(ringWait()).build();
            sending.handleEventsWith(outbound.stageSpec("to-aeron"));
            sending.start();
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
        return wait.equals("busyspin") ? new BusySpinIdleStrategy() : new YieldingIdleStrategy();
    }

    private WaitStrategy ringWait() {
        return wait.equals("busyspin") ? new BusySpinWaitStrategy() : new YieldingWaitStrategy();
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
            if (sending != null) {
                sending.shutdown(Duration.ofSeconds(10));
                inbound.close();
                inboundThread.join();
                receiving.shutdown(Duration.ofSeconds(10));
            } else {
                polling = false;
                poller.join();
                subscription.close();
            }
            publication.close();
        } finally {
            aeron.close();
            driver.close();
        }
        if (receiver.received != sent || receiver.checksum != sentChecksum) {
            throw new IllegalStateException("checksum mismatch: sent " + sent + ", received " + receiver.received);
        }
    }
}
