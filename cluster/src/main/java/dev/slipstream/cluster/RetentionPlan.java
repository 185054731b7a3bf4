package dev.slipstream.cluster;

import io.aeron.Aeron;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.RecordingLog;
import java.util.ArrayList;
import java.util.List;

/**
 * What a purge may delete, worked out from a member's recording log alone: the recordings of every
 * snapshot older than the latest {@code kept} whole ones, and the log below the oldest kept
 * snapshot's log position. A snapshot is whole when the recording log holds an entry for the
 * consensus module and one for each service at the same log position and term.
 *
 * <p>Nothing is purged while the log holds {@code kept} whole snapshots or fewer, so a member
 * can always start from a snapshot it kept and replay its own log after it.
 *
 * <pre>{@code
 * RetentionPlan plan = RetentionPlan.of(recordingLog.entries(), 1, 2);
 * plan.snapshotRecordings();   // recordings of the snapshots older than the latest two
 * plan.keepLogFrom();          // the log position below which the log is no longer needed, or -1
 * }</pre>
 *
 * @param logRecordingId the recording of the log's latest term, or -1 if none (a plan that deletes
 *        nothing still names it, so that the caller can read where the log starts)
 * @param keepLogFrom the oldest kept snapshot's log position, or -1 when nothing may be purged
 * @param snapshotRecordings the recordings of the snapshots older than the kept ones
 */
record RetentionPlan(long logRecordingId, long keepLogFrom, List<Long> snapshotRecordings) {
    /** Nothing to purge. */
    static final RetentionPlan NOTHING = new RetentionPlan(-1, -1, List.of());

    RetentionPlan {
        snapshotRecordings = List.copyOf(snapshotRecordings);
    }

    /**
     * @param entries the recording log's entries, in the order they were appended
     * @param serviceCount the services the member runs (each snapshot has one entry per service)
     * @param kept the whole snapshots to keep, at least 1
     * @return what may be purged
     */
    static RetentionPlan of(final List<RecordingLog.Entry> entries, final int serviceCount, final int kept) {
        if (kept < 1) {
            throw new IllegalArgumentException("kept is " + kept + "; expected at least 1 snapshot to keep");
        }
        long logRecordingId = -1;
        final List<List<RecordingLog.Entry>> snapshots = new ArrayList<>();
        List<RecordingLog.Entry> current = null;
        for (final RecordingLog.Entry entry : entries) {
            if (!entry.isValid) {
                continue;
            }
            if (entry.type == RecordingLog.ENTRY_TYPE_TERM && entry.recordingId != Aeron.NULL_VALUE) {
                logRecordingId = entry.recordingId;
            } else if (entry.type == RecordingLog.ENTRY_TYPE_SNAPSHOT) {
                // a snapshot's entries are appended together: the services' first, the consensus module's last
                if (current == null || current.get(0).logPosition != entry.logPosition
                        || current.get(0).leadershipTermId != entry.leadershipTermId) {
                    current = new ArrayList<>();
                    snapshots.add(current);
                }
                current.add(entry);
            }
        }
        snapshots.removeIf(snapshot -> !isWhole(snapshot, serviceCount));
        if (snapshots.size() <= kept || logRecordingId == -1) {
            return new RetentionPlan(logRecordingId, -1, List.of());
        }
        final int firstKept = snapshots.size() - kept;
        final List<Long> purged = new ArrayList<>();
        for (int i = 0; i < firstKept; i++) {
            for (final RecordingLog.Entry entry : snapshots.get(i)) {
                purged.add(entry.recordingId);
            }
        }
        return new RetentionPlan(logRecordingId, snapshots.get(firstKept).get(0).logPosition, purged);
    }

    private static boolean isWhole(final List<RecordingLog.Entry> snapshot, final int serviceCount) {
        boolean consensusModule = false;
        final boolean[] services = new boolean[serviceCount];
        for (final RecordingLog.Entry entry : snapshot) {
            if (entry.serviceId == ConsensusModule.Configuration.SERVICE_ID) {
                consensusModule = true;
            } else if (entry.serviceId >= 0 && entry.serviceId < serviceCount) {
                services[entry.serviceId] = true;
            }
        }
        for (final boolean service : services) {
            if (!service) {
                return false;
            }
        }
        return consensusModule;
    }

    /** @return true if the plan deletes nothing */
    boolean isEmpty() {
        return keepLogFrom < 0 && snapshotRecordings.isEmpty();
    }
}
