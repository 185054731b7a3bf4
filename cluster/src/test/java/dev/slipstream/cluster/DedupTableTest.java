package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

/**
 * At most once per (client, correlation id), in any order within the window, kept through a
 * snapshot; bounded, forgetting the client heard from longest ago that no session speaks for.
 */
class DedupTableTest {
    @Test
    void eachIdIsAppliedOnceInAnyOrderWithinTheWindow() {
        final DedupTable table = new DedupTable();
        for (final long id : new long[] {3, 1, 2, 5}) {
            assertEquals(DedupTable.APPLY, table.tryApply(7, id, 0), "first time " + id);
        }
        for (final long id : new long[] {1, 2, 3, 5}) {
            assertEquals(DedupTable.DUPLICATE, table.tryApply(7, id, 0), "again " + id);
        }
        assertEquals(DedupTable.APPLY, table.tryApply(7, 4, 0));
        assertEquals(DedupTable.APPLY, table.tryApply(8, 1, 0), "another client's id 1");
        assertEquals(5, table.highestApplied(7));
    }

    @Test
    void anIdBeyondTheWindowIsRefusedAndNotMarked() {
        final DedupTable table = new DedupTable();
        assertEquals(DedupTable.TOO_FAR_AHEAD, table.tryApply(7, DedupTable.WINDOW + 1, 0));
        assertEquals(DedupTable.APPLY, table.tryApply(7, DedupTable.WINDOW, 0));
        for (long id = 1; id < DedupTable.WINDOW; id++) {
            assertEquals(DedupTable.APPLY, table.tryApply(7, id, 0));
        }
        assertEquals(DedupTable.APPLY, table.tryApply(7, DedupTable.WINDOW + 1, 0), "the window moved on");
        assertEquals(DedupTable.DUPLICATE, table.tryApply(7, 17, 0));
    }

    @Test
    void theTableSurvivesASnapshotWithItsOwners() {
        final DedupTable table = new DedupTable();
        table.tryApply(9, 1, 10);
        table.tryApply(9, 3, 11);
        table.tryApply(2, 1, 12);
        table.bind(2, 500, 13);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        final int length = table.write(buffer, 0);
        assertEquals(table.encodedLength(), length);
        final DedupTable restored = new DedupTable();
        restored.read(buffer, 0, length);
        assertEquals(2, restored.clientCount());
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(9, 1, 20));
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(9, 3, 20));
        assertEquals(3, restored.highestApplied(9));
        assertEquals(DedupTable.APPLY, restored.tryApply(9, 2, 20));
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(2, 1, 20));
        assertEquals(500, restored.owner(2));
        assertEquals(DedupTable.NO_SESSION, restored.owner(9));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> restored.read(buffer, 0, length - 1));
        assertTrue(e.getMessage().contains("per client"), e.getMessage());
    }

    @Test
    void aSectionOfTheFirstFormatStillLoads() {
        // count | id, watermark, window: what the service wrote before owners and times were kept
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
        buffer.putInt(0, 1);
        buffer.putLong(4, 9);
        buffer.putLong(12, 2);  // ids 1 and 2 applied
        buffer.putLong(20 + (4 / 64) * 8, 1L << 4);  // and 4, in the window
        final DedupTable restored = new DedupTable();
        restored.read(buffer, 0, 4 + DedupTable.ENTRY_LENGTH_1);
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(9, 2, 0));
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(9, 4, 0));
        assertEquals(DedupTable.APPLY, restored.tryApply(9, 3, 0));
        assertEquals(4, restored.highestApplied(9));
        buffer.putInt(0, -7);
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> restored.read(buffer, 0, 64));
        assertTrue(unknown.getMessage().contains("format 7 is not one this version reads"), unknown.getMessage());
    }

    @Test
    void aFullTableForgetsTheClientHeardFromLongestAgoWithoutASession() {
        final DedupTable table = new DedupTable(3);
        table.bind(1, 100, 50);   // has a live session: never forgotten
        table.tryApply(2, 1, 20);
        table.tryApply(3, 1, 20);  // the same time as client 2: the lower id goes first
        assertEquals(DedupTable.NO_SESSION, table.bind(4, 400, 60));
        assertEquals(3, table.clientCount());
        assertEquals(0, table.highestApplied(2), "client 2 forgotten");
        assertEquals(1, table.highestApplied(3), "client 3 kept");
        table.bind(3, 300, 61);
        assertEquals(DedupTable.FULL, table.bind(5, 500, 70), "every client kept has a live session");
        assertEquals(DedupTable.NO_ROOM, table.tryApply(5, 1, 70));
        table.release(3, 300);
        assertEquals(DedupTable.NO_SESSION, table.bind(5, 500, 71), "client 3's session closed: room");
    }
}
