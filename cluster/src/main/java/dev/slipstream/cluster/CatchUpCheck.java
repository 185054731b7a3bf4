package dev.slipstream.cluster;

import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ConsensusModule;
import java.nio.file.Path;

/**
 * Tells a member that can never catch up from one that is slow: a follower whose log ends below
 * where every other member's archive now starts (their retention purged what it misses, so no
 * leader among them can send it). Aeron
 * Cluster's open-source edition cannot send such a member a snapshot; its election keeps asking
 * the leader for the missing log and timing out, forever. This check reads where each other
 * member's log recording starts, through its archive, and words the way out.
 *
 * <pre>{@code
 * CatchUpCheck check = new CatchUpCheck(1, members, config.aeronDir());
 * String stuck = check.stuck(ownLogEnd);   // null unless the leader no longer holds what this member misses
 * }</pre>
 */
final class CatchUpCheck {
    private static final long QUERY_TIMEOUT_NS = 2_000_000_000L;

    private final int memberId;
    private final ClusterMembers members;
    /** The member's media driver directory: the archive clients connect through its driver. */
    private final Path aeronDir;

    CatchUpCheck(final int memberId, final ClusterMembers members, final Path aeronDir) {
        this.memberId = memberId;
        this.members = members;
        this.aeronDir = aeronDir;
    }

    /**
     * @param logEnd where this member's log ends (its commit position while it waits)
     * @return why the member cannot catch up, naming the procedure, or null if it may (or if no
     *         other member's archive answered)
     */
    String stuck(final long logEnd) {
        long lowestStart = Long.MAX_VALUE;
        for (int other = 0; other < members.size(); other++) {
            if (other == memberId) {
                continue;
            }
            final long start;
            try {
                start = logStart(other);
            } catch (final RuntimeException unreachable) {
                continue;  // a member that is down tells nothing
            }
            if (start < 0) {
                return null;
            }
            lowestStart = Math.min(lowestStart, start);
        }
        if (lowestStart == Long.MAX_VALUE || lowestStart <= logEnd) {
            return null;
        }
        return "cluster member " + memberId + " cannot catch up: its log ends at position " + logEnd
                + ", but the other members keep their logs only from position " + lowestStart
                + " on (their retention purged the rest), and Aeron Cluster sends no snapshot to a follower. Seed"
                + " this member from a peer: stop it, stop one follower that runs, copy that follower's archive/ and"
                + " cluster/ directories over this member's, then start both (see \"Restart a member\" in"
                + " docs/guide/cluster-operations.md)";
    }

    /** @return the start of a member's latest log recording, or -1 if none is found */
    private long logStart(final int other) {
        final int logStreamId = ConsensusModule.Configuration.logStreamId();
        final long[] latest = {-1, -1};
        try (AeronArchive archive = AeronArchive.connect(new AeronArchive.Context()
                .aeronDirectoryName(aeronDir.toAbsolutePath().toString())
                .controlRequestChannel("aeron:udp?endpoint=" + members.endpoint(other, ClusterMembers.ARCHIVE))
                .controlResponseChannel("aeron:udp?endpoint=" + members.host(memberId) + ":0")
                .messageTimeoutNs(QUERY_TIMEOUT_NS))) {
            archive.listRecordings(0, Integer.MAX_VALUE, (controlSessionId, correlationId, recordingId,
                    startTimestamp, stopTimestamp, startPosition, stopPosition, initialTermId, segmentFileLength,
                    termBufferLength, mtuLength, sessionId, streamId, strippedChannel, originalChannel,
                    sourceIdentity) -> {
                if (streamId == logStreamId && recordingId > latest[0]) {
                    latest[0] = recordingId;
                    latest[1] = startPosition;
                }
            });
        }
        return latest[1];
    }
}
