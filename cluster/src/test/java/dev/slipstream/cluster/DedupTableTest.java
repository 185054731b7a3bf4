package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

/** At most once per (client, correlation id), in any order within the window, kept through a snapshot. */
class DedupTableTest {
    @Test
    void eachIdIsAppliedOnceInAnyOrderWithinTheWindow() {
        final DedupTable table = new DedupTable();
        for (final long id : new long[] {3, 1, 2, 5}) {
            assertEquals(DedupTable.APPLY, table.tryApply(7, id), "first time " + id);
        }
        for (final long id : new long[] {1, 2, 3, 5}) {
            assertEquals(DedupTable.DUPLICATE, table.tryApply(7, id), "again " + id);
        }
        assertEquals(DedupTable.APPLY, table.tryApply(7, 4));
        assertEquals(DedupTable.APPLY, table.tryApply(8, 1), "another client's id 1");
    }

    @Test
    void anIdBeyondTheWindowIsRefusedAndNotMarked() {
        final DedupTable table = new DedupTable();
        assertEquals(DedupTable.TOO_FAR_AHEAD, table.tryApply(7, DedupTable.WINDOW + 1));
        assertEquals(DedupTable.APPLY, table.tryApply(7, DedupTable.WINDOW));
        for (long id = 1; id < DedupTable.WINDOW; id++) {
            assertEquals(DedupTable.APPLY, table.tryApply(7, id));
        }
        assertEquals(DedupTable.APPLY, table.tryApply(7, DedupTable.WINDOW + 1), "the window moved on");
        assertEquals(DedupTable.DUPLICATE, table.tryApply(7, 17));
    }

    @Test
    void theTableSurvivesASnapshot() {
        final DedupTable table = new DedupTable();
        table.tryApply(9, 1);
        table.tryApply(9, 3);
        table.tryApply(2, 1);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        final int length = table.write(buffer, 0);
        assertEquals(table.encodedLength(), length);
        final DedupTable restored = new DedupTable();
        restored.read(buffer, 0, length);
        assertEquals(2, restored.clientCount());
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(9, 1));
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(9, 3));
        assertEquals(DedupTable.APPLY, restored.tryApply(9, 2));
        assertEquals(DedupTable.DUPLICATE, restored.tryApply(2, 1));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> restored.read(buffer, 0, length - 1));
        assertEquals(true, e.getMessage().contains("per client"), e.getMessage());
    }
}
