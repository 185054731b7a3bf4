package dev.slipstream.cluster;

import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusterMembership;
import io.aeron.cluster.ClusterTool;
import io.aeron.cluster.RecordingLog;
import io.aeron.cluster.service.Cluster;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A member's retention thread: asks for periodic snapshots while the member leads
 * ({@link SnapshotSchedule}), and after each snapshot this member takes purges what the latest
 * kept snapshots make unnecessary ({@link RetentionPlan}, {@link ArchivePurge}), then has the
 * consensus module forget the purged snapshots. It also measures the archive for the member's
 * status, and stops a member that can never catch up ({@link CatchUpCheck}). The thread ties
 * these together; each decision is its own class's.
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
 * Retention retention = Retention.start(0, policy, counters, baseDir, archiveClient, 1, RetentionPlan::of,
 *         heartbeatTimeoutNs, new CatchUpCheck(0, members, aeronDir), reason -> failures.stop(reason));
 * long bytes = retention.archiveBytes();
 * retention.close();                      // before the archive and the driver close
 * }</pre>
 */
final class Retention implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Retention.class.getName());
    static final long TICK_MS = 20;
    private static final long MEASURE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long MEMBERS_QUERY_TIMEOUT_MS = 2_000;
    /** Turned off only by a test that seeds the bug of a leader that purges what live followers still need. */
    static volatile boolean spareLiveMembers = true;

    private final int memberId;
    private final RetentionPolicy policy;
    private final MemberCounters counters;
    private final Path archiveDir;
    private final Path clusterDir;
    private final Supplier<AeronArchive> archiveClient;
    private final int serviceCount;
    private final RetentionPlanner planner;
    private final long liveWithinNs;
    private final CatchUpCheck catchUp;
    private final Consumer<String> stop;
    private final Thread thread;
    private volatile boolean closed;
    /** Written by the retention thread, read by any: the recording segments' bytes on disk. */
    private volatile long archiveBytes = -1;
    /** Written by the retention thread, read by any: where the log's recording starts, -1 before it is known. */
    private volatile long logStartPosition = -1;
    // the retention thread's own
    private AeronArchive archive;
    private SnapshotSchedule schedule;
    private long snapshotCount = -1;
    private long measuredNs;
    private long lastCommitPosition = -1;
    private long commitMovedNs;

    /** Works out what to purge: {@link RetentionPlan#of}, or a test's seeded bug. */
    interface RetentionPlanner {
        RetentionPlan plan(java.util.List<RecordingLog.Entry> entries, int serviceCount, int kept);
    }

    private Retention(final int memberId, final RetentionPolicy policy, final MemberCounters counters,
            final Path baseDir, final Supplier<AeronArchive> archiveClient, final int serviceCount,
            final RetentionPlanner planner, final long liveWithinNs, final CatchUpCheck catchUp,
            final Consumer<String> stop) {
        this.memberId = memberId;
        this.liveWithinNs = liveWithinNs;
        this.catchUp = catchUp;
        this.stop = stop;
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
     * @param liveWithinNs how recently another member must have reported its log position for its
     *        needs to hold the purge back (the leader heartbeat timeout); a follower whose commit
     *        position has not moved for twice as long is checked with {@code catchUp}
     * @param stop stops the member with the reason, when {@code catchUp} finds it can never catch up
     */
    static Retention start(final int memberId, final RetentionPolicy policy, final MemberCounters counters,
            final Path baseDir, final Supplier<AeronArchive> archiveClient, final int serviceCount,
            final RetentionPlanner planner, final long liveWithinNs, final CatchUpCheck catchUp,
            final Consumer<String> stop) {
        final Retention retention = new Retention(memberId, policy, counters, baseDir, archiveClient, serviceCount,
                planner, liveWithinNs, catchUp, stop);
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
        if (policy.purges()) {
            // only a cluster that purges can leave a member behind for good
            watchCatchUp(readings, nowNs);
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
        logStartPosition = new ArchivePurge(memberId, archive).apply(sparingLiveMembers(plan));
        if (!plan.snapshotRecordings().isEmpty()) {
            // the consensus module marks the purged snapshots invalid in its own recording log; if
            // another node action holds the toggle, the next purge asks again
            counters.toggleRecordingLogValidation();
        }
    }

    /**
     * A member that is not leading and whose commit position has not moved for twice the leader
     * heartbeat timeout is either waiting in a quiet cluster or stuck behind a purged leader:
     * {@link CatchUpCheck} tells which, and a stuck one is stopped with the procedure that seeds it.
     */
    private void watchCatchUp(final MemberCounters.Readings readings, final long nowNs) {
        if (readings.commitPosition() != lastCommitPosition || readings.role() == Cluster.Role.LEADER) {
            lastCommitPosition = readings.commitPosition();
            commitMovedNs = nowNs;
            return;
        }
        if (nowNs - commitMovedNs < 2 * liveWithinNs) {
            return;
        }
        commitMovedNs = nowNs;  // checked at most once per two timeouts
        final String reason = catchUp.stuck(readings.commitPosition());
        if (reason != null) {
            stop.accept(reason);
        }
    }

    /**
     * The plan, with the log kept from the lowest position any other live member has appended, if
     * that is below the plan's: a member that lags (or lost the live log and must catch up) can
     * then still replicate the log it misses from this member's archive. A member counts as live
     * while it has reported its position within the leader heartbeat timeout; only the leader
     * hears the others' positions, so a follower's plan stays as it is. A member down longer than
     * that is not waited for: the disk must not fill while it is down, and it comes back by the
     * restart procedure of the operations guide.
     */
    private RetentionPlan sparingLiveMembers(final RetentionPlan plan) {
        if (plan.keepLogFrom() < 0 || !spareLiveMembers) {
            return plan;
        }
        final ClusterMembership membership = new ClusterMembership();
        if (!ClusterTool.listMembers(membership, clusterDir.toFile(), MEMBERS_QUERY_TIMEOUT_MS)
                || membership.activeMembers == null) {
            // nothing known of the others: keep the log this time, and try again after the next snapshot
            return new RetentionPlan(plan.logRecordingId(), -1, plan.snapshotRecordings());
        }
        if (membership.leaderMemberId != membership.memberId) {
            return plan;  // a follower's view of the others' positions is not kept up to date
        }
        long keepFrom = plan.keepLogFrom();
        for (final io.aeron.cluster.ClusterMember other : membership.activeMembers) {
            final boolean heardRecently = other.timeOfLastAppendPositionNs() > 0
                    && membership.currentTimeNs - other.timeOfLastAppendPositionNs() < liveWithinNs;
            if (other.id() != membership.memberId && heardRecently && other.logPosition() >= 0) {
                keepFrom = Math.min(keepFrom, other.logPosition());
            }
        }
        return keepFrom == plan.keepLogFrom() ? plan
                : new RetentionPlan(plan.logRecordingId(), keepFrom, plan.snapshotRecordings());
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
