package dev.slipstream.cluster;

/**
 * When the leader asks for the next periodic snapshot: once the log has grown by the policy's
 * bytes since the latest snapshot, or the policy's interval has passed since it, and never while
 * the log holds nothing new or a request is still on its way. Time is the leader's own monotonic
 * clock: only the leader asks, and where the snapshot falls in the log is the consensus module's
 * choice, recorded in the log, so no member needs to agree on when the request was made.
 *
 * <pre>{@code
 * SnapshotSchedule schedule = new SnapshotSchedule(policy, commitPosition, System.nanoTime());
 * if (schedule.isDue(commitPosition, System.nanoTime()) && counters.toggleSnapshot()) {
 *     schedule.requested(System.nanoTime());
 * }
 * schedule.snapshotTaken(commitPosition, System.nanoTime());   // when the snapshot count moves
 * }</pre>
 */
final class SnapshotSchedule {
    /** How long a placed request may go unanswered before the leader asks again (a leader change drops it). */
    static final long REQUEST_TIMEOUT_NS = 30_000_000_000L;

    private final long logBytes;
    private final long intervalNs;
    private long basePosition;
    private long baseNs;
    private long requestedNs = -1;

    SnapshotSchedule(final RetentionPolicy policy, final long position, final long nowNs) {
        this.logBytes = policy.snapshotLogBytes();
        this.intervalNs = policy.snapshotInterval().toNanos();
        this.basePosition = position;
        this.baseNs = nowNs;
    }

    /** @return true if a snapshot should be asked for now */
    boolean isDue(final long position, final long nowNs) {
        if (requestedNs >= 0 && nowNs - requestedNs < REQUEST_TIMEOUT_NS) {
            return false;
        }
        if (position <= basePosition) {
            return false;
        }
        return (logBytes > 0 && position - basePosition >= logBytes) || (intervalNs > 0 && nowNs - baseNs >= intervalNs);
    }

    /** A request was placed. */
    void requested(final long nowNs) {
        requestedNs = nowNs;
    }

    /** A snapshot was taken (this member's snapshot count moved); the next is counted from here. */
    void snapshotTaken(final long position, final long nowNs) {
        basePosition = position;
        baseNs = nowNs;
        requestedNs = -1;
    }
}
