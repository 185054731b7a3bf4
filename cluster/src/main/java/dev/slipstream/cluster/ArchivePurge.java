package dev.slipstream.cluster;

import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.client.ArchiveException;

/**
 * Carries out a {@link RetentionPlan} with Aeron Archive's own operations, through an archive
 * client of the member's own archive: {@code purgeRecording} for each old snapshot's recording
 * (stopped recordings, which nothing replays once the recording log no longer points at them),
 * and {@code purgeSegments} on the log's recording up to the start of the segment that holds the
 * oldest kept snapshot's log position (the archive deletes whole segments only, and refuses to
 * detach the segment being recorded).
 *
 * <pre>{@code
 * long logStart = new ArchivePurge(0, archive).apply(plan);   // where the log now starts
 * }</pre>
 */
final class ArchivePurge {
    private static final System.Logger LOG = System.getLogger(ArchivePurge.class.getName());

    private final int memberId;
    private final AeronArchive archive;

    ArchivePurge(final int memberId, final AeronArchive archive) {
        this.memberId = memberId;
        this.archive = archive;
    }

    /**
     * Deletes what the plan names.
     *
     * @param plan what may be deleted
     * @return the log recording's start position after the purge, or -1 if the plan names no log
     */
    long apply(final RetentionPlan plan) {
        for (final long recordingId : plan.snapshotRecordings()) {
            try {
                archive.purgeRecording(recordingId);
            } catch (final ArchiveException e) {
                if (e.errorCode() != ArchiveException.UNKNOWN_RECORDING) {
                    throw e;
                }
                // purged before, by a purge that stopped before the consensus module forgot it
            }
        }
        if (plan.logRecordingId() < 0) {
            return -1;
        }
        final long[] extent = new long[3];
        final int found = archive.listRecording(plan.logRecordingId(), (controlSessionId, correlationId,
                recordingId, startTimestamp, stopTimestamp, startPosition, stopPosition, initialTermId,
                segmentFileLength, termBufferLength, mtuLength, sessionId, streamId, strippedChannel,
                originalChannel, sourceIdentity) -> {
            extent[0] = startPosition;
            extent[1] = termBufferLength;
            extent[2] = segmentFileLength;
        });
        if (found == 0) {
            throw new IllegalStateException("member " + memberId + ": the log's recording " + plan.logRecordingId()
                    + " is not in the archive");
        }
        final long start = extent[0];
        if (plan.keepLogFrom() < 0) {
            return start;
        }
        final int termLength = (int) extent[1];
        final int segmentLength = (int) extent[2];
        final long newStart = AeronArchive.segmentFileBasePosition(start, plan.keepLogFrom(), termLength,
                segmentLength);
        // the archive keeps the start's own segment: a new start must be at least one segment past it
        final long lowest = AeronArchive.segmentFileBasePosition(start, start, termLength, segmentLength)
                + segmentLength;
        if (newStart < lowest) {
            return start;
        }
        final long segments = archive.purgeSegments(plan.logRecordingId(), newStart);
        LOG.log(System.Logger.Level.DEBUG, () -> "member " + memberId + ": purged " + segments
                + " log segments below " + newStart + " and " + plan.snapshotRecordings().size()
                + " snapshot recordings");
        return newStart;
    }
}
