package dev.slipstream.bench.snapshot;

import dev.slipstream.cluster.MemberConfig;
import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.codecs.SourceLocation;
import io.aeron.archive.status.RecordingPos;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * Aeron's own cost for a snapshot's bytes, with nothing of Slipstream's: {@code --archives}
 * media drivers with an archive each (default 3), set up as a cluster member sets up its own
 * (shared threading, the same back-off idle strategy, the snapshot channel's 8 MiB IPC term, the
 * driver directories where {@code --aeron-dir} says), each record {@code --mib} MiB offered in
 * 16 KiB messages through an IPC publication at the same moment. Prints
 * {@code ARCHIVE mib=256 archives=3 ms=905.3}, from the first offer to the last archive having
 * recorded its last byte: what the members' archives take for a snapshot of that size when
 * nothing else in the member runs.
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar \
 *      dev.slipstream.bench.snapshot.ArchiveBaseline --dir /tmp/stall --mib 256 --archives 3 --aeron-dir /dev/shm/stall
 * </pre>
 */
public final class ArchiveBaseline {
    private static final String CHANNEL = "aeron:ipc?alias=snapshot|term-length=8m";
    private static final int STREAM_ID = 7;
    private static final int CHUNK = 16 * 1024;
    /** How a cluster member's agents wait by default: the archives here wait the same way. */
    private static final MemberConfig.AgentIdle MEMBER_IDLE = MemberConfig.AgentIdle.BACKOFF;

    private ArchiveBaseline() {
    }

    /**
     * @param args {@code --dir --mib --archives --aeron-dir}
     * @throws Exception if an archive cannot start or record
     */
    public static void main(final String[] args) throws Exception {
        final StallOptions o = StallOptions.parse(args, "dir", "mib", "archives", "aeron-dir");
        final long bytes = o.integer("mib", 16L) << 20;
        final int count = o.integer("archives", 3);
        final Path dir = Files.createDirectories(Path.of(o.text("dir", "/tmp/slipstream-stall")));
        final String aeronBase = o.text("aeron-dir", dir.resolve("archive-baseline-aeron").toString());
        final List<ArchivingMediaDriver> drivers = new ArrayList<>();
        final List<AeronArchive> clients = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                final String aeronDir = aeronBase + "-" + i;
                drivers.add(ArchivingMediaDriver.launch(new MediaDriver.Context()
                        .aeronDirectoryName(aeronDir)
                        .threadingMode(ThreadingMode.SHARED)
                        .sharedIdleStrategy(MEMBER_IDLE.newStrategy())
                        .termBufferSparseFile(true)
                        .dirDeleteOnStart(true)
                        .dirDeleteOnShutdown(true),
                        new Archive.Context()
                        .aeronDirectoryName(aeronDir)
                        .archiveDir(dir.resolve("archive-baseline-" + i).toFile())
                        .deleteArchiveOnStart(true)
                        .controlChannelEnabled(false)
                        .localControlChannel("aeron:ipc?term-length=64k")
                        .replicationChannel("aeron:udp?endpoint=localhost:0")
                        .archiveClientContext(new AeronArchive.Context()
                                .controlResponseChannel("aeron:udp?endpoint=localhost:0"))
                        .recordingEventsEnabled(false)
                        .threadingMode(ArchiveThreadingMode.SHARED)
                        .idleStrategySupplier(MEMBER_IDLE::newStrategy)));
                clients.add(AeronArchive.connect(new AeronArchive.Context()
                        .aeronDirectoryName(aeronDir)
                        .controlRequestChannel("aeron:ipc?term-length=64k")
                        .controlResponseChannel("aeron:ipc?term-length=64k")));
            }
            final CyclicBarrier start = new CyclicBarrier(count + 1);
            final CyclicBarrier done = new CyclicBarrier(count + 1);
            final Throwable[] failure = new Throwable[1];
            for (final AeronArchive client : clients) {
                final Thread thread = new Thread(() -> {
                    try {
                        record(client, bytes, start, done);
                    } catch (final Exception e) {
                        failure[0] = e;
                        start.reset();
                        done.reset();
                    }
                }, "recorder-client");
                thread.setDaemon(true);
                thread.start();
            }
            start.await(60, TimeUnit.SECONDS);
            final long began = System.nanoTime();
            done.await(600, TimeUnit.SECONDS);
            final long nanos = System.nanoTime() - began;
            if (failure[0] != null) {
                throw new IllegalStateException("a recording failed", failure[0]);
            }
            System.out.printf(Locale.ROOT, "ARCHIVE mib=%d archives=%d ms=%.1f%n", bytes >> 20, count, nanos / 1e6);
        } finally {
            CloseHelper.quietCloseAll(clients);
            CloseHelper.quietCloseAll(drivers);
        }
    }

    /** Records {@code bytes} through a fresh IPC publication once every recorder is ready. */
    private static void record(final AeronArchive client, final long bytes, final CyclicBarrier start,
            final CyclicBarrier done) throws Exception {
        final Aeron aeron = client.context().aeron();
        final UnsafeBuffer chunk = new UnsafeBuffer(new byte[CHUNK]);
        for (int i = 0; i < CHUNK; i++) {
            chunk.putByte(i, (byte) (i * 31 + 7));
        }
        try (ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, STREAM_ID)) {
            final String channel = ChannelUri.addSessionId(CHANNEL, publication.sessionId());
            final long subscriptionId = client.startRecording(channel, STREAM_ID, SourceLocation.LOCAL, true);
            final CountersReader counters = aeron.countersReader();
            int counterId;
            while ((counterId = RecordingPos.findCounterIdBySession(counters, publication.sessionId(),
                    client.archiveId())) == CountersReader.NULL_COUNTER_ID) {
                Thread.onSpinWait();
            }
            final IdleStrategy idle = MEMBER_IDLE.newStrategy();
            start.await(60, TimeUnit.SECONDS);
            for (long sent = 0; sent < bytes; sent += CHUNK) {
                idle.reset();
                long result;
                while ((result = publication.offer(chunk, 0, CHUNK)) <= 0) {
                    if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                        throw new IllegalStateException("publication refused: " + Publication.errorString(result));
                    }
                    idle.idle();
                }
            }
            final long end = publication.position();
            idle.reset();
            while (counters.getCounterValue(counterId) < end) {
                idle.idle();
            }
            done.await(600, TimeUnit.SECONDS);
            client.stopRecording(subscriptionId);
        }
    }
}
