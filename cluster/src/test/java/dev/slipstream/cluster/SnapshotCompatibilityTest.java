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
import org.agrona.DirectBuffer;
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

    /** The state the stored snapshot holds, its ledger written as a StageState. */
    private static byte[] writeSnapshot() {
        return writeSnapshot(new Ledger());
    }

    /** The state the stored snapshot holds, its ledger written through {@code ledger}. */
    private static byte[] writeSnapshot(final Ledger ledger) {
        final DedupTable dedup = new DedupTable();
        dedup.bind(42, 7, 1_000);
        for (final long id : new long[] {1, 2, 3, 5}) {
            dedup.tryApply(42, id, 1_000 + id);
        }
        dedup.tryApply(8, 1, 900);
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
        final StageStates states = new StageStates();
        if (ledger instanceof StreamingStageState streaming) {
            states.registerStreaming("ledger", streaming);
        } else {
            states.register("ledger", (StageState) ledger);
        }
        new ServiceSnapshots(dedup, states, null, 100).write(writer);
        return messages.toByteArray();
    }

    /** The test ledger, its state streamed: the same bytes as {@link Ledger#writeSnapshot}. */
    static final class StreamedLedger extends Ledger implements StreamingStageState {
        @Override
        public long snapshotLength() {
            return 32;
        }

        @Override
        public void writeSnapshot(final SnapshotOutput output) {
            output.putLong(count);
            output.putLong(sum);
            output.putLong(checksum);
            output.putLong(fingerprint);
        }

        @Override
        public void loadSnapshot(final SnapshotInput input) {
            count = input.getLong();
            sum = input.getLong();
            checksum = input.getLong();
            fingerprint = input.getLong();
        }
    }

    /** The stored messages (each a 4-byte little-endian length and its bytes), one at a time. */
    static SnapshotFormat.MessageSource messages(final byte[] stored) {
        final ByteBuffer in = ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN);
        final UnsafeBuffer message = new UnsafeBuffer(stored);
        return new SnapshotFormat.MessageSource() {
            @Override
            public int next() {
                if (!in.hasRemaining()) {
                    return -1;
                }
                final int length = in.getInt();
                message.wrap(stored, in.position(), length);
                in.position(in.position() + length);
                return length;
            }

            @Override
            public DirectBuffer buffer() {
                return message;
            }
        };
    }

    /** Loads the stored messages into a dedup table and a ledger registered as {@code state}. */
    private static DedupTable read(final byte[] stored, final Object ledger) {
        final DedupTable dedup = new DedupTable();
        final StageStates states = new StageStates();
        if (ledger instanceof StreamingStageState streaming) {
            states.registerStreaming("ledger", streaming);
        } else {
            states.register("ledger", (StageState) ledger);
        }
        new ServiceSnapshots(dedup, states, null, 100).load(messages(stored));
        return dedup;
    }

    @Test
    void theStoredSnapshotOfThisFormatLoadsAndIsWhatThisVersionWrites() throws IOException {
        final String target = System.getProperty("slipstream.snapshot.write");
        if (target != null) {
            Files.write(Path.of(target), writeSnapshot());
        }
        final byte[] stored = Files.readAllBytes(STORED);
        final Ledger ledger = new Ledger();
        final DedupTable dedup = read(stored, ledger);
        assertEquals(2, dedup.clientCount());
        assertEquals(5, dedup.highestApplied(42));
        assertEquals(7, dedup.owner(42), "the session bound to client 42");
        assertEquals(DedupTable.DUPLICATE, dedup.tryApply(42, 3, 2_000));
        assertEquals(DedupTable.APPLY, dedup.tryApply(42, 4, 2_000));
        assertEquals("5/150/123456789abc/fedcba9", ledger.digest());
        assertTrue(Arrays.equals(stored, writeSnapshot()), "this version writes other bytes from the same state "
                + "than the stored snapshot of format " + SnapshotFormat.VERSION + ": a format change needs a new "
                + "version number (SnapshotFormat.VERSION, or the section's own) with the old format still read, "
                + "and a stored file for the new format (see this test's class comment)");
    }

    @Test
    void aStreamedStateWritesAndLoadsTheStoredBytes() throws IOException {
        final byte[] stored = Files.readAllBytes(STORED);
        assertTrue(Arrays.equals(stored, writeSnapshot(new StreamedLedger())), "a streamed state must give the same "
                + "messages as the same state written into a buffer");
        final StreamedLedger ledger = new StreamedLedger();
        read(stored, ledger);
        assertEquals("5/150/123456789abc/fedcba9", ledger.digest());
    }

    @Test
    void aSnapshotOfAnUnknownFormatIsRefusedNamingBothVersions() throws IOException {
        final byte[] stored = Files.readAllBytes(STORED);
        // the first message is BEGIN: its length (4 bytes), then type, version, sections
        ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.BYTES + 4, SnapshotFormat.VERSION + 1);
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> read(stored, new Ledger()));
        assertTrue(refused.getMessage().contains("format version " + (SnapshotFormat.VERSION + 1))
                && refused.getMessage().contains("reads format " + SnapshotFormat.VERSION), refused.getMessage());
    }
}
