package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.RecordingLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The retention policy's checks, the snapshot schedule's rule, and what a purge plan keeps: the
 * latest whole snapshots and the log from the oldest of them on, never a snapshot still needed.
 */
class RetentionPolicyTest {
    @Test
    void badSettingsAreRefusedNamingWhatWasExpected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.NONE.withSnapshotEvery(-1,
                Duration.ZERO)).getMessage().contains("snapshotLogBytes is -1; expected 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.NONE.withSnapshotEvery(0,
                Duration.ofSeconds(-1))).getMessage().contains("snapshotInterval is PT-1S; expected zero"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.NONE.keeping(-1))
                .getMessage().contains("snapshotsKept is -1; expected 0 (purge nothing)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.NONE.withSegmentLength(100_000))
                .getMessage().contains("segmentLength is 100000; expected a power of two from 64 KiB to 1 GiB"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.NONE.withSegmentLength(32 * 1024))
                .getMessage().contains("expected a power of two from 64 KiB"));
        assertThrows(NullPointerException.class, () -> RetentionPolicy.NONE.withSnapshotEvery(0, null));
    }

    @Test
    void noneTakesNoSnapshotAndPurgesNothing() {
        assertFalse(RetentionPolicy.NONE.snapshotsPeriodically());
        assertFalse(RetentionPolicy.NONE.purges());
        final RetentionPolicy policy = RetentionPolicy.NONE.withSnapshotEvery(1024, Duration.ZERO).keeping(2);
        assertTrue(policy.snapshotsPeriodically());
        assertTrue(policy.purges());
        assertEquals(RetentionPolicy.DEFAULT_SEGMENT_LENGTH, policy.segmentLength());
    }

    @Test
    void theScheduleAsksOnceTheLogGrewOrTheIntervalPassedAndNeverWithNothingNew() {
        final SnapshotSchedule schedule = new SnapshotSchedule(
                RetentionPolicy.NONE.withSnapshotEvery(1000, Duration.ofSeconds(1)), 500, 0);
        assertFalse(schedule.isDue(1499, 1), "999 bytes, 1 ns");
        assertTrue(schedule.isDue(1500, 1), "1000 bytes");
        assertFalse(schedule.isDue(500, 2_000_000_000L), "the interval passed, but nothing new in the log");
        assertTrue(schedule.isDue(532, 1_000_000_000L), "the interval passed");
        schedule.requested(1_000_000_000L);
        assertFalse(schedule.isDue(5000, 1_000_000_001L), "a request is on its way");
        schedule.snapshotTaken(5000, 2_000_000_000L);
        assertFalse(schedule.isDue(5999, 2_500_000_000L));
        assertTrue(schedule.isDue(6000, 2_500_000_000L));
    }


    private static void term(final List<RecordingLog.Entry> log, final long recordingId, final long term) {
        log.add(new RecordingLog.Entry(recordingId, term, 0, -1, 0, -1, RecordingLog.ENTRY_TYPE_TERM, null, true,
                -1, log.size()));
    }

    /** One snapshot at {@code position}: the service's entry, then the consensus module's. */
    private static void snapshot(final List<RecordingLog.Entry> log, final long firstRecordingId, final long position,
            final boolean valid) {
        log.add(new RecordingLog.Entry(firstRecordingId, 0, 0, position, 0, 0, RecordingLog.ENTRY_TYPE_SNAPSHOT, null,
                valid, -1, log.size()));
        log.add(new RecordingLog.Entry(firstRecordingId + 1, 0, 0, position, 0, -1, RecordingLog.ENTRY_TYPE_SNAPSHOT,
                null, valid, -1, log.size()));
    }

    @Test
    void aPlanKeepsTheLatestWholeSnapshotsAndTheLogFromTheOldestKept() {
        final List<RecordingLog.Entry> log = new ArrayList<>();
        term(log, 0, 0);
        snapshot(log, 1, 1000, true);
        snapshot(log, 3, 2000, false);  // forgotten already: not counted
        snapshot(log, 5, 3000, true);
        snapshot(log, 7, 4000, true);
        // a half-written snapshot (the consensus module's entry not there yet): neither kept nor purged
        log.add(new RecordingLog.Entry(9, 0, 0, 5000, 0, 0, RecordingLog.ENTRY_TYPE_SNAPSHOT, null, true, -1,
                log.size()));
        final RetentionPlan plan = RetentionPlan.of(log, 1, 2);
        assertEquals(0, plan.logRecordingId());
        assertEquals(3000, plan.keepLogFrom(), "the oldest kept snapshot's position");
        assertEquals(List.of(1L, 2L), plan.snapshotRecordings());

        final RetentionPlan keepAll = RetentionPlan.of(log, 1, 3);
        assertEquals(-1, keepAll.keepLogFrom());
        assertEquals(List.of(), keepAll.snapshotRecordings(), "three whole snapshots, three kept");
        assertEquals(0, keepAll.logRecordingId(), "still names the log, to read where it starts");
        assertThrows(IllegalArgumentException.class, () -> RetentionPlan.of(log, 1, 0));
    }

    @Test
    void noSnapshotMeansNothingToPurge() {
        final List<RecordingLog.Entry> log = new ArrayList<>();
        term(log, 4, 0);
        assertTrue(RetentionPlan.of(log, 1, 1).isEmpty());
        assertEquals(4, RetentionPlan.of(log, 1, 1).logRecordingId());
    }
}
