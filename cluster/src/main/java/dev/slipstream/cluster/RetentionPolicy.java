package dev.slipstream.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * When a {@link ClusterMember} asks for snapshots on its own, and how much of its archive it keeps:
 * the settings of a member's retention.
 *
 * <ul>
 *   <li><b>Periodic snapshots.</b> While the member leads, it asks for a snapshot (as
 *       {@link ClusterMember#requestSnapshot()} does) once the log has grown by
 *       {@link #snapshotLogBytes()} since the latest snapshot, or once {@link #snapshotInterval()}
 *       has passed since it, whichever comes first; never while nothing new is in the log.
 *       Followers never ask: Aeron Cluster acts only on the leader's request, and every member
 *       then takes its snapshot at the same log position.</li>
 *   <li><b>Purging.</b> After each snapshot the member keeps its latest {@link #snapshotsKept()}
 *       snapshots and deletes the older ones from its archive, with the log below the segment
 *       that holds the oldest kept snapshot's log position. 0 keeps everything.</li>
 *   <li><b>Segments.</b> The archive stores each recording in segment files of
 *       {@link #segmentLength()} bytes (at least the recording's term: 8 MiB for the log), and
 *       deletes the log a whole segment at a time.</li>
 * </ul>
 *
 * <pre>{@code
 * RetentionPolicy retention = RetentionPolicy.NONE
 *         .withSnapshotEvery(256L << 20, Duration.ofMinutes(10))   // 256 MiB of log or 10 minutes
 *         .keeping(2);
 * ClusterMember member = ClusterMember.start(config, service, authenticator, retention);
 * }</pre>
 *
 * @param snapshotLogBytes log bytes after the latest snapshot that make the leader ask for the
 *        next one; 0 for no such rule
 * @param snapshotInterval time after the latest snapshot (or the member's start) that makes the
 *        leader ask for the next one; {@link Duration#ZERO} for no such rule
 * @param snapshotsKept snapshots kept in the archive, with the log from the oldest of them on; 0
 *        to purge nothing
 * @param segmentLength the archive's segment file length in bytes: a power of two from 64 KiB to
 *        1 GiB (Aeron's default: 128 MiB)
 */
public record RetentionPolicy(long snapshotLogBytes, Duration snapshotInterval, int snapshotsKept,
        int segmentLength) {
    /** Aeron Archive's default segment file length: 128 MiB. */
    public static final int DEFAULT_SEGMENT_LENGTH = 128 * 1024 * 1024;
    /** The shortest segment Aeron Archive takes: 64 KiB. */
    public static final int MIN_SEGMENT_LENGTH = 64 * 1024;
    /** The longest segment Aeron Archive takes: 1 GiB. */
    public static final int MAX_SEGMENT_LENGTH = 1024 * 1024 * 1024;
    /** No periodic snapshots, nothing purged, Aeron's segment length: a member as Aeron runs it. */
    public static final RetentionPolicy NONE = new RetentionPolicy(0, Duration.ZERO, 0, DEFAULT_SEGMENT_LENGTH);

    /**
     * Checks the policy.
     *
     * @param snapshotLogBytes log bytes between periodic snapshots, or 0
     * @param snapshotInterval time between periodic snapshots, or zero
     * @param snapshotsKept snapshots kept, or 0 to purge nothing
     * @param segmentLength the archive's segment file length
     * @throws IllegalArgumentException naming the setting, its value and what was expected
     * @throws NullPointerException if {@code snapshotInterval} is null
     */
    public RetentionPolicy {
        Objects.requireNonNull(snapshotInterval, "snapshotInterval must not be null");
        if (snapshotLogBytes < 0) {
            throw new IllegalArgumentException("snapshotLogBytes is " + snapshotLogBytes
                    + "; expected 0 (no rule) or the log bytes between two periodic snapshots");
        }
        if (snapshotInterval.isNegative()) {
            throw new IllegalArgumentException("snapshotInterval is " + snapshotInterval
                    + "; expected zero (no rule) or the time between two periodic snapshots");
        }
        if (snapshotsKept < 0) {
            throw new IllegalArgumentException("snapshotsKept is " + snapshotsKept
                    + "; expected 0 (purge nothing) or the number of snapshots to keep, such as 2");
        }
        if (segmentLength < MIN_SEGMENT_LENGTH || segmentLength > MAX_SEGMENT_LENGTH
                || Integer.bitCount(segmentLength) != 1) {
            throw new IllegalArgumentException("segmentLength is " + segmentLength
                    + "; expected a power of two from 64 KiB to 1 GiB (Aeron Archive's limits), such as "
                    + DEFAULT_SEGMENT_LENGTH);
        }
    }

    /**
     * @param logBytes log bytes between periodic snapshots, or 0 for no such rule
     * @param interval time between periodic snapshots, or zero for no such rule
     * @return a copy whose leader asks for snapshots by these rules
     * @throws IllegalArgumentException if either is negative
     */
    public RetentionPolicy withSnapshotEvery(final long logBytes, final Duration interval) {
        return new RetentionPolicy(logBytes, interval, snapshotsKept, segmentLength);
    }

    /**
     * @param snapshots snapshots to keep after each purge (2 leaves one to fall back on), or 0 to
     *        purge nothing
     * @return a copy that keeps this many
     * @throws IllegalArgumentException if {@code snapshots} is negative
     */
    public RetentionPolicy keeping(final int snapshots) {
        return new RetentionPolicy(snapshotLogBytes, snapshotInterval, snapshots, segmentLength);
    }

    /**
     * @param length the archive's segment file length, a power of two from 64 KiB to 1 GiB
     * @return a copy with this segment length
     * @throws IllegalArgumentException if {@code length} is out of range or not a power of two
     */
    public RetentionPolicy withSegmentLength(final int length) {
        return new RetentionPolicy(snapshotLogBytes, snapshotInterval, snapshotsKept, length);
    }

    /** @return true if the leader asks for snapshots on its own */
    public boolean snapshotsPeriodically() {
        return snapshotLogBytes > 0 || !snapshotInterval.isZero();
    }

    /** @return true if the member purges its archive after each snapshot */
    public boolean purges() {
        return snapshotsKept > 0;
    }
}
