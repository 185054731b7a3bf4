package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A snapshot this version writes loads in the versions after it. The file
 * {@code src/test/resources/snapshots/format-1.bin} holds the messages of a snapshot written in
 * format {@value SnapshotFormat#VERSION} (the dedup table with a bound client, a ledger's state):
 * this version must still load it, and must still write exactly those bytes from the same state,
 * so a change to the format that keeps the version number fails here. A snapshot of an unknown
 * format is refused naming both versions.
 *
 * <p>After a deliberate format change (with a new version number, and the old one still read),
 * keep the old file and add one for the new format: run this test with
 * {@code -Dslipstream.snapshot.write=<path of the new file>}.
 */
class SnapshotCompatibilityTest {
    private static final Path STORED = Path.of("src", "test", "resources", "snapshots",
            "format-" + SnapshotFormat.VERSION + ".bin");

    /** The state the stored snapshot holds. */
    private static byte[] writeSnapshot() {
        final DedupTable dedup = new DedupTable();
        dedup.bind(42, 7, 1_000);
        for (final long id : new long[] {1, 2, 3, 5}) {
            dedup.tryApply(42, id, 1_000 + id);
        }
        dedup.tryApply(8, 1, 900);
        final Ledger ledger = new Ledger();
        ledger.count = 5;
        ledger.sum = 150;
        ledger.checksum = 0x1234_5678_9ABCL;
        ledger.fingerprint = 0x0FED_CBA9L;
        final ByteArrayOutputStream messages = new ByteArrayOutputStream();
        final SnapshotFormat.Writer writer = new SnapshotFormat.Writer((buffer, offset, length) -> {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            messages.writeBytes(ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array());
            messages.writeBytes(bytes);
        }, 1024, 100);
        final ExpandableArrayBuffer section = new ExpandableArrayBuffer();
        writer.begin(2);
        writer.section(0, "dedup", section, dedup.write(section, 0));
        writer.section(1, "ledger", section, ledger.writeSnapshot(section, 0));
        writer.end(2);
        return messages.toByteArray();
    }

    /** Feeds the stored messages (each a 4-byte little-endian length and its bytes) to a reader. */
    private static SnapshotFormat.Reader read(final byte[] stored) {
        final SnapshotFormat.Reader reader = new SnapshotFormat.Reader();
        final ByteBuffer in = ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN);
        while (in.hasRemaining()) {
            final int length = in.getInt();
            final byte[] message = new byte[length];
            in.get(message);
            reader.onFragment(new UnsafeBuffer(message), 0, length, null);
        }
        return reader;
    }

    @Test
    void theStoredSnapshotOfThisFormatLoadsAndIsWhatThisVersionWrites() throws IOException {
        final String target = System.getProperty("slipstream.snapshot.write");
        if (target != null) {
            Files.write(Path.of(target), writeSnapshot());
        }
        final byte[] stored = Files.readAllBytes(STORED);
        final SnapshotFormat.Reader reader = read(stored);
        assertTrue(reader.isComplete());
        reader.check();
        assertEquals(List.of("dedup", "ledger"), reader.names());
        final DedupTable dedup = new DedupTable();
        dedup.read(reader.section(0), 0, reader.length(0));
        assertEquals(2, dedup.clientCount());
        assertEquals(5, dedup.highestApplied(42));
        assertEquals(7, dedup.owner(42), "the session bound to client 42");
        assertEquals(DedupTable.DUPLICATE, dedup.tryApply(42, 3, 2_000));
        assertEquals(DedupTable.APPLY, dedup.tryApply(42, 4, 2_000));
        final Ledger ledger = new Ledger();
        ledger.loadSnapshot(reader.section(1), 0, reader.length(1));
        assertEquals("5/150/123456789abc/fedcba9", ledger.digest());
        assertTrue(Arrays.equals(stored, writeSnapshot()), "this version writes other bytes from the same state "
                + "than the stored snapshot of format " + SnapshotFormat.VERSION + ": a format change needs a new "
                + "version number (SnapshotFormat.VERSION, or the section's own) with the old format still read, "
                + "and a stored file for the new format (see this test's class comment)");
    }

    @Test
    void aSnapshotOfAnUnknownFormatIsRefusedNamingBothVersions() throws IOException {
        final byte[] stored = Files.readAllBytes(STORED);
        // the first message is BEGIN: its length (4 bytes), then type, version, sections
        ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.BYTES + 4, SnapshotFormat.VERSION + 1);
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> read(stored));
        assertTrue(refused.getMessage().contains("format version " + (SnapshotFormat.VERSION + 1))
                && refused.getMessage().contains("reads format " + SnapshotFormat.VERSION), refused.getMessage());
    }
}
