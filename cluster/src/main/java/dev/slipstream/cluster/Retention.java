package dev.slipstream.cluster;

import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.RecordingLog;
import io.aeron.cluster.service.Cluster;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A member's retention thread: asks for periodic snapshots while the member leads
 * ({@link SnapshotSchedule}), and after each snapshot this member takes purges what the latest
 * kept snapshots make unnecessary ({@link RetentionPlan}, {@link ArchivePurge}), then has the
 * consensus module forget the purged snapshots. It also measures the archive for the member's
 * status.
 *
 * <p>Why a thread beside the consensus module and not inside it: Aeron 1.51.0's consensus module
 * owns the recording log (it caches its entries and appends at its own index), so this thread
 * only reads the file, never writes it; the entries of purged snapshots are marked invalid by the
 * consensus module itself, on its own thread, when the node control toggle asks it to validate
 * the recording log. The purge keeps the latest snapshots and the log from the oldest of them on,
 * which is all a restart reads (the consensus module's recovery plan starts at the latest
 * snapshot), so it never races the consensus module for what it uses.
 *
 * <pre>{@code
 * Retention retention = Retention.start(0, policy, counters, baseDir, aeronDir, localControlChannel, 1);
 * long bytes = retention.archiveBytes();
 * retention.close();                      // before the archive and the driver close
 * }</pre>
 */
final class Retention implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Retention.class.getName());
    static final long TICK_MS = 20;
    private static final long MEASURE_NS = TimeUnit.SECONDS.toNanos(1);

    private final int memberId;
    private final RetentionPolicy policy;
    private final MemberCounters counters;
    private final Path archiveDir;
    private final Path clusterDir;
    private final Supplier<AeronArchive> archiveClient;
    private final int serviceCount;
    private final RetentionPlanner planner;
    private final Thread thread;
    private volatile boolean closed;
    /** Written by the retention thread, read by any: the recording segments' bytes on disk. */
    private volatile long archiveBytes = -1;
    /** Written by the retention thread, read by any: where the log's recording starts, -1 before it is known. */
    private volatile long logStartPosition = -1;
    /** Written by the retention thread, read by any: purges that deleted something. */
    private volatile long purges;
    // the retention thread's own
    private AeronArchive archive;
    private SnapshotSchedule schedule;
    private long snapshotCount = -1;
    private long measuredNs;

    /** Works out what to purge: {@link RetentionPlan#of}, or a test's seeded bug. */
    interface RetentionPlanner {
        RetentionPlan plan(java.util.List<RecordingLog.Entry> entries, int serviceCount, int kept);
    }

    private Retention(final int memberId, final RetentionPolicy policy, final MemberCounters counters,
            final Path baseDir, final Supplier<AeronArchive> archiveClient, final int serviceCount,
            final RetentionPlanner planner) {
        this.memberId = memberId;
        this.policy = policy;
        this.counters = counters;
        this.archiveDir = baseDir.resolve("archive");
        this.clusterDir = baseDir.resolve("cluster");
        this.archiveClient = archiveClient;
        this.serviceCount = serviceCount;
        this.planner = planner;
        this.thread = new Thread(this::run, "member-" + memberId + "-retention");
        thread.setDaemon(true);
    }

    /**
     * Starts the retention thread of a member.
     *
     * @param archiveClient connects a client to the member's own archive, when a purge first needs one
     */
    static Retention start(final int memberId, final RetentionPolicy policy, final MemberCounters counters,
            final Path baseDir, final Supplier<AeronArchive> archiveClient, final int serviceCount,
            final RetentionPlanner planner) {
        final Retention retention = new Retention(memberId, policy, counters, baseDir, archiveClient, serviceCount,
                planner);
        retention.thread.start();
        return retention;
    }

    /** @return the bytes of the archive's recording segment files, -1 before the first measure */
    long archiveBytes() {
        return archiveBytes;
    }

    /** @return where the log's recording starts (its lowest position still on disk), -1 before the first purge */
    long logStartPosition() {
        return logStartPosition;
    }

    /** @return purges that deleted something since the member started */
    long purges() {
        return purges;
    }

    private void run() {
        while (!closed) {
            try {
                tick();
            } catch (final RuntimeException e) {
                // a purge that failed is tried again after the next snapshot; the member goes on
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "member " + memberId + ": retention: " + e, e);
                }
            }
            try {
                Thread.sleep(TICK_MS);
            } catch (final InterruptedException closing) {
                return;
            }
        }
    }

    private void tick() {
        final long nowNs = System.nanoTime();
        if (nowNs - measuredNs >= MEASURE_NS || archiveBytes < 0) {
            measure();
            measuredNs = nowNs;
        }
        final MemberCounters.Readings readings;
        try {
            readings = counters.readings();
        } catch (final IllegalStateException memberClosed) {
            return;
        }
        if (!readings.allAllocated()) {
            return;
        }
        if (schedule == null) {
            schedule = new SnapshotSchedule(policy, readings.commitPosition(), nowNs);
        }
        if (readings.snapshotCount() != snapshotCount) {
            final boolean first = snapshotCount < 0;
            snapshotCount = readings.snapshotCount();
            if (!first) {
                schedule.snapshotTaken(readings.commitPosition(), nowNs);
            }
            // also at start: a member may have been stopped before it could purge
            if (policy.purges()) {
                purge();
                measure();
            }
        }
        if (policy.snapshotsPeriodically() && readings.role() == Cluster.Role.LEADER
                && schedule.isDue(readings.commitPosition(), nowNs)) {
            try {
                if (counters.toggleSnapshot()) {
                    schedule.requested(nowNs);
                }
            } catch (final IllegalStateException stopped) {
                // the member stopped between the read and the toggle
            }
        }
    }

    private void purge() {
        final RetentionPlan plan;
        try (RecordingLog recordingLog = new RecordingLog(clusterDir.toFile(), false)) {
            plan = planner.plan(recordingLog.entries(), serviceCount, policy.snapshotsKept());
        }
        if (plan.logRecordingId() < 0 && plan.snapshotRecordings().isEmpty()) {
            return;
        }
        if (archive == null) {
            archive = archiveClient.get();
        }
        logStartPosition = new ArchivePurge(memberId, archive).apply(plan);
        if (!plan.snapshotRecordings().isEmpty()) {
            // the consensus module marks the purged snapshots invalid in its own recording log; if
            // another node action holds the toggle, the next purge asks again
            counters.toggleRecordingLogValidation();
            purges = purges + 1;
        }
    }

    private void measure() {
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(archiveDir, "*.rec")) {
            for (final Path file : files) {
                try {
                    bytes += Files.size(file);
                } catch (final NoSuchFileException deletedMeanwhile) {
                    // a purge deleted it after the listing
                }
            }
        } catch (final NoSuchFileException notYet) {
            bytes = 0;
        } catch (final IOException e) {
            return;
        }
        archiveBytes = bytes;
    }

    /** Stops the thread and closes its archive client; call before the archive closes. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        final AeronArchive client = archive;
        if (client != null) {
            org.agrona.CloseHelper.quietClose(client);
        }
    }
}
