package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
    private static final int SMALL_SEGMENT = JournalConfig.MIN_SEGMENT_SIZE;

    @TempDir
    Path dir;

    /** Appends {@code count} messages through the stage, in batches of {@code batch}. */
    static void append(final JournalStage<Message> stage, final long firstRingSequence, final int count, final int batch) {
        final Message m = new Message();
        for (int i = 0; i < count; i++) {
            final long ringSequence = firstRingSequence + i;
            stage.onEvent(m.fill(ringSequence + stage.ringStart()), ringSequence, (i + 1) % batch == 0 || i == count - 1);
        }
    }

    /** Replays everything and checks every record against its expected content. */
    static long replayAndCheck(final Path dir, final long from) throws Exception {
        final long[] expected = {from};
        final long count = JournalReader.open(dir).replay(from, Long.MAX_VALUE, new Message.Codec(), new Message(),
                (m, sequence, last) -> {
                    assertEquals(expected[0], sequence, "replayed sequence");
                    assertNull(m.differenceFrom(sequence), "record " + sequence);
                    expected[0]++;
                });
        assertEquals(expected[0] - from, count);
        return count;
    }

    @Test
    void appendsAndReplaysEveryRecordByteForByte() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            assertFalse(journal.recovery().truncated());
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            append(stage, 0, 10_000, 100);
            assertEquals(9_999, journal.durableSequence());
            assertEquals(9_999, journal.writtenSequence());
            assertEquals(10_000, journal.nextSequence());
        }
        assertEquals(10_000, replayAndCheck(dir, 0));
        assertEquals(10, replayAndCheck(dir, 9_990));
        assertEquals(0, replayAndCheck(dir, 10_000));
    }

    @Test
    void reopensWhereItStoppedAndContinuesTheSequence() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            append(journal.stage(new Message.Codec()), 0, 3_000, 64);
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            assertFalse(journal.recovery().truncated(), journal.recovery().toString());
            assertEquals(3_000, journal.nextSequence());
            assertEquals(2_999, journal.durableSequence());
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            assertEquals(3_000, stage.ringStart());
            append(stage, 0, 2_000, 50);
            assertEquals(1_999, stage.durableRingSequence());
        }
        assertEquals(5_000, replayAndCheck(dir, 0));
    }

    @Test
    void rollsSegmentsNamedByTheirFirstSequenceAndLocatesWithoutScanning() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT).indexInterval(16))) {
            append(journal.stage(new Message.Codec()), 0, 20_000, 77);
            assertTrue(journal.segments().size() > 10, "segments: " + journal.segments().size());
        }
        final JournalReader reader = JournalReader.open(dir);
        final List<Path> segments = reader.segments();
        long previousFirst = -1;
        for (final Path segment : segments) {
            final long first = Segment.parseFileName(segment.getFileName().toString());
            assertTrue(first > previousFirst);
            previousFirst = first;
        }
        // every located position holds the record: checked against a full scan
        final List<JournalPosition> scanned = new ArrayList<>();
        final Segment[] current = {null};
        for (final Path file : segments) {
            final Segment segment = Segment.open(file, false);
            current[0] = segment;
            int offset = segment.dataStart;
            long sequence = segment.firstSequence;
            int size;
            while ((size = segment.check(offset, sequence, new java.util.zip.CRC32C(), segment.newView())) > 0) {
                scanned.add(new JournalPosition(sequence, file, offset));
                offset += size;
                sequence++;
            }
        }
        assertEquals(20_000, scanned.size());
        for (int s = 0; s < 20_000; s += 997) {
            assertEquals(scanned.get(s), reader.locate(s));
        }
        assertEquals(scanned.get(19_999), reader.locate(19_999));
        final JournalException past = assertThrows(JournalException.class, () -> reader.locate(20_001));
        assertTrue(past.getMessage().contains("after the end"), past.getMessage());
        assertEquals(20_000 - 12_345, replayAndCheck(dir, 12_345));
        assertEquals(20_000, reader.verify());
    }

    @Test
    void aLostOrWrongIndexEntryIsOnlyAHintAndLocatingStillFindsTheRecord() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT).indexInterval(16))) {
            append(journal.stage(new Message.Codec()), 0, 400, 10);
        }
        final JournalReader reader = JournalReader.open(dir);
        final JournalPosition expected = reader.locate(330);
        final Path file = reader.segments().get(0);
        // entry 20 (sequence 320) lost, entry 19 (sequence 304) pointing at the wrong record
        final ByteBuffer entries = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        entries.putInt(0, (int) reader.locate(100).offset()).putInt(4, 0);
        poke(file, Segment.HEADER_SIZE + 4 * 19, entries.array());
        assertEquals(expected, reader.locate(330));
        assertEquals(400 - 330, replayAndCheck(dir, 330));
    }

    @Test
    void retentionDeletesWholeSegmentsBelowASequenceButNeverTheCurrentOne() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            append(stage, 0, 10_000, 100);
            final List<Path> before = journal.segments();
            final long secondFirst = Segment.parseFileName(before.get(1).getFileName().toString());
            assertEquals(0, journal.deleteSegmentsBelow(secondFirst - 1));
            assertEquals(1, journal.deleteSegmentsBelow(secondFirst));
            assertFalse(Files.exists(before.get(0)));
            assertEquals(secondFirst, journal.firstSequence());
            assertEquals(before.size() - 2, journal.deleteSegmentsBelow(Long.MAX_VALUE));
            assertEquals(1, journal.segments().size());
            final long kept = journal.firstSequence();
            final JournalException gone = assertThrows(JournalException.class,
                    () -> JournalReader.open(dir).replay(0, 10, (s, p) -> { }));
            assertTrue(gone.getMessage().contains("retention"), gone.getMessage());
            append(stage, 10_000, 100, 10);
            assertEquals(10_100 - kept, replayAndCheck(dir, kept));
        }
    }

    @Test
    void replayIntoARingIsSkippedByTheStageAndLiveEventsContinueTheJournal() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            append(journal.stage(new Message.Codec()), 0, 500, 10);
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            // a ring refilled from sequence 200: ring sequence 0 is journal sequence 200
            final JournalStage<Message> stage = journal.stage(new Message.Codec(), 200);
            final Message m = new Message();
            for (long ring = 0; ring < 400; ring++) {
                stage.onEvent(m.fill(ring + 200), ring, ring % 7 == 6 || ring == 399);
            }
            assertEquals(600, journal.nextSequence());
            final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
                    () -> journal.stage(new Message.Codec(), 601));
            assertTrue(beyond.getMessage().contains("601"));
        }
        assertEquals(600, replayAndCheck(dir, 0));
    }

    @Test
    void aSecondStageOnOneJournalIsRefused() {
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            journal.stage(new Message.Codec());
            assertThrows(IllegalStateException.class, () -> journal.stage(new Message.Codec()));
        }
    }

    @Test
    void aGapInRingSequencesIsRefusedAndNothingIsLost() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            append(stage, 0, 10, 5);
            final JournalException gap = assertThrows(JournalException.class,
                    () -> stage.onEvent(new Message().fill(12), 12, true));
            assertEquals(12, gap.sequence());
            assertTrue(gap.getMessage().contains("next sequence is 10"), gap.getMessage());
        }
        assertEquals(10, replayAndCheck(dir, 0));
    }

    // ------------------------------------------------------------------ sync policies

    @Test
    void neverPolicyWritesButNeverReportsDurable() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).syncPolicy(SyncPolicy.never()))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            append(stage, 0, 1_000, 10);
            assertEquals(999, stage.writtenSequence());
            assertEquals(-1, stage.durableSequence());
        }
        assertEquals(1_000, replayAndCheck(dir, 0));
    }

    @Test
    void intervalPolicyForcesAtMostOncePerIntervalAndAtShutdown() {
        try (Journal journal = Journal.open(JournalConfig.of(dir).syncPolicy(SyncPolicy.atMostEvery(Duration.ofHours(1))))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            append(stage, 0, 100, 10);
            assertEquals(99, stage.writtenSequence());
            assertEquals(-1, stage.durableSequence(), "no force within the interval");
            stage.onTimeout(99);
            assertEquals(99, stage.durableSequence(), "a wait-strategy timeout forces what is pending");
            append(stage, 100, 10, 10);
            assertEquals(99, stage.durableSequence());
            stage.onShutdown();
            assertEquals(109, stage.durableSequence());
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir).syncPolicy(SyncPolicy.atMostEvery(Duration.ofNanos(1))))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            append(stage, 0, 10, 10);
            assertEquals(119, stage.durableSequence(), "an elapsed interval forces at the end of the batch");
        }
        assertThrows(IllegalArgumentException.class, () -> SyncPolicy.atMostEvery(Duration.ZERO));
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void aRecordLargerThanASegmentIsRefusedNamingFileOffsetAndSequence() throws Exception {
        final JournalCodec<Message> huge = new Message.Codec() {
            @Override
            public int encodedLength(final Message m) {
                return m.sequence == 5 ? SMALL_SEGMENT : super.encodedLength(m);
            }
        };
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            final JournalStage<Message> stage = journal.stage(huge);
            final Message m = new Message();
            for (long s = 0; s < 5; s++) {
                stage.onEvent(m.fill(s), s, false);
            }
            final JournalException tooBig = assertThrows(JournalException.class, () -> stage.onEvent(m.fill(5), 5, false));
            assertEquals(5, tooBig.sequence());
            assertTrue(tooBig.offset() > 0);
            assertTrue(tooBig.file().getFileName().toString().endsWith(".segment"));
            assertTrue(tooBig.getMessage().contains("raise JournalConfig.segmentSize"), tooBig.getMessage());
            assertEquals(4, stage.durableSequence(), "the events before it in the batch were made durable");
            final JournalException refused = assertThrows(JournalException.class, () -> stage.onEvent(m.fill(6), 6, true));
            assertTrue(refused.getMessage().contains("journals nothing more"), refused.getMessage());
        }
        assertEquals(5, replayAndCheck(dir, 0));
    }

    @Test
    void aCodecThatWritesPastItsDeclaredLengthIsRefusedAndLeavesNothingBehind() throws Exception {
        final JournalCodec<Message> liar = new Message.Codec() {
            @Override
            public int encodedLength(final Message m) {
                return m.sequence == 3 ? 4 : super.encodedLength(m);
            }
        };
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            final JournalStage<Message> stage = journal.stage(liar);
            append(stage, 0, 3, 10);
            final JournalException overflow = assertThrows(JournalException.class,
                    () -> stage.onEvent(new Message().fill(3), 3, true));
            assertEquals(3, overflow.sequence());
            assertTrue(overflow.getMessage().contains("wrote past the 4 bytes it declared"), overflow.getMessage());
            assertTrue(overflow.getMessage().contains(overflow.file().toString()));
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            assertFalse(journal.recovery().truncated(), "nothing of the refused record is in the file: "
                    + journal.recovery());
            assertEquals(3, journal.nextSequence());
        }
        assertEquals(3, replayAndCheck(dir, 0));
    }

    @Test
    void aCodecThatThrowsIsReportedAndLeavesNothingBehind() throws Exception {
        final JournalCodec<Message> failing = new Message.Codec() {
            @Override
            public void encode(final Message m, final ByteBuffer out) {
                out.putLong(-1L);   // a partial write, then the failure
                if (m.sequence == 7) {
                    throw new IllegalStateException("cannot encode");
                }
                out.position(out.position() - 8);
                super.encode(m, out);
            }
        };
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            final JournalStage<Message> stage = journal.stage(failing);
            append(stage, 0, 7, 3);
            final JournalException thrown = assertThrows(JournalException.class,
                    () -> stage.onEvent(new Message().fill(7), 7, false));
            assertEquals(7, thrown.sequence());
            assertTrue(thrown.getCause() instanceof IllegalStateException);
            assertTrue(thrown.getMessage().contains("threw while encoding"), thrown.getMessage());
            assertEquals(6, stage.durableSequence());
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            assertFalse(journal.recovery().truncated(), journal.recovery().toString());
        }
        assertEquals(7, replayAndCheck(dir, 0));
    }

    @Test
    void aMissingDirectoryIsRefused() {
        final Path missing = dir.resolve("nope");
        final JournalException e = assertThrows(JournalException.class, () -> Journal.open(JournalConfig.of(missing)));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertEquals(missing, e.file());
    }

    @Test
    void aReadOnlyDirectoryIsRefused() throws IOException {
        final Path readOnly = Files.createDirectory(dir.resolve("ro"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            final JournalException e = assertThrows(JournalException.class, () -> Journal.open(JournalConfig.of(readOnly)));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aSecondWriterIsRefusedUntilTheFirstCloses() throws Exception {
        try (Journal first = Journal.open(JournalConfig.of(dir))) {
            append(first.stage(new Message.Codec()), 0, 10, 10);
            final JournalException second = assertThrows(JournalException.class, () -> Journal.open(JournalConfig.of(dir)));
            assertTrue(second.getMessage().contains("already open for writing"), second.getMessage());
            assertEquals(10, replayAndCheck(dir, 0), "a reader needs no lock");
        }
        try (Journal again = Journal.open(JournalConfig.of(dir))) {
            assertEquals(10, again.nextSequence());
        }
    }

    // ------------------------------------------------------------------ recovery

    /** Writes {@code count} records in one segment, closes, and returns the last record's offset. */
    private int writeAndFindLastOffset(final int count) throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            append(journal.stage(new Message.Codec()), 0, count, 8);
            assertEquals(1, journal.segments().size());
        }
        return (int) JournalReader.open(dir).locate(count - 1).offset();
    }

    private Path onlySegment() {
        return JournalReader.open(dir).segments().get(0);
    }

    private static void poke(final Path file, final int offset, final byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private static byte[] read(final Path file, final int offset, final int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            final ByteBuffer b = ByteBuffer.allocate(length);
            channel.read(b, offset);
            return b.array();
        }
    }

    @Test
    void everyTornStateOfTheLastRecordIsCutOffAndReported() throws Exception {
        final int last = writeAndFindLastOffset(40);
        final Path file = onlySegment();
        final int length = ByteBuffer.wrap(read(file, last + 4, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
        final byte[] complete = read(file, last, Segment.aligned(length));
        // the writer's order is payload, sequence, length, CRC: every prefix of that order is a state a kill can leave
        final List<byte[]> torn = new ArrayList<>();
        for (int payloadBytes = 1; payloadBytes <= length - 16; payloadBytes += 5) {
            final byte[] state = new byte[complete.length];
            System.arraycopy(complete, 16, state, 16, payloadBytes);
            torn.add(state);
        }
        final byte[] withSequence = new byte[complete.length];
        System.arraycopy(complete, 8, withSequence, 8, length - 8);
        torn.add(withSequence);
        final byte[] withLength = withSequence.clone();
        System.arraycopy(complete, 4, withLength, 4, 4);
        torn.add(withLength);
        for (final byte[] state : torn) {
            poke(file, last, state);
            try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
                final RecoveryReport report = journal.recovery();
                assertTrue(report.truncated(), "torn state not detected: " + report);
                assertEquals(file, report.file());
                assertEquals(last, report.offset());
                assertEquals(39, report.sequence());
                assertEquals(39, journal.nextSequence());
            }
            assertEquals(39, replayAndCheck(dir, 0));
            assertEquals(0, nonZeroBytes(read(file, last, complete.length)), "the torn bytes are cleared");
            poke(file, last, complete);   // back to 40 records for the next state
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            assertFalse(journal.recovery().truncated());
            assertEquals(40, journal.nextSequence());
        }
    }

    private static int nonZeroBytes(final byte[] bytes) {
        int n = 0;
        for (final byte b : bytes) {
            n += b != 0 ? 1 : 0;
        }
        return n;
    }

    @Test
    void aCorruptRecordFollowedByIntactOnesIsRefusedAndNothingIsTruncated() throws Exception {
        writeAndFindLastOffset(100);
        final Path file = onlySegment();
        final JournalPosition victim = JournalReader.open(dir).locate(50);
        final byte[] flipped = read(file, (int) victim.offset() + 20, 1);
        flipped[0] ^= 0x40;
        poke(file, (int) victim.offset() + 20, flipped);
        final byte[] before = Files.readAllBytes(file);

        final JournalCorruptException open = assertThrows(JournalCorruptException.class,
                () -> Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT)));
        assertEquals(file, open.file());
        assertEquals(victim.offset(), open.offset());
        assertEquals(50, open.sequence());
        assertTrue(open.getMessage().contains("CRC32C mismatch"), open.getMessage());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file)), "the file is untouched");

        final JournalCorruptException read = assertThrows(JournalCorruptException.class,
                () -> JournalReader.open(dir).verify());
        assertEquals(50, read.sequence());

        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT).truncateAtCorruption(true))) {
            assertTrue(journal.recovery().truncated());
            assertEquals(50, journal.nextSequence());
            assertTrue(journal.recovery().reason().contains("cut off too (truncateAtCorruption)"), journal.recovery().reason());
        }
        assertEquals(50, replayAndCheck(dir, 0));
    }

    @Test
    void aCorruptRecordInAnOlderSegmentIsFoundByTheReader() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            append(journal.stage(new Message.Codec()), 0, 5_000, 50);
        }
        final JournalReader reader = JournalReader.open(dir);
        final JournalPosition victim = reader.locate(100);
        poke(victim.file(), (int) victim.offset() + 30, new byte[] {0x55, 0x55});
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            assertEquals(5_000, journal.nextSequence(), "opening verifies the last segment only");
        }
        final JournalCorruptException e = assertThrows(JournalCorruptException.class, reader::verify);
        assertEquals(victim.file(), e.file());
        assertEquals(victim.offset(), e.offset());
        assertEquals(100, e.sequence());
        final long[] delivered = {0};
        assertThrows(JournalCorruptException.class, () -> reader.replay(0, Long.MAX_VALUE, (s, p) -> delivered[0]++));
        assertEquals(100, delivered[0], "the records before the damaged one are delivered, none after it");
    }

    @Test
    void aDamagedSegmentHeaderIsReported() throws Exception {
        writeAndFindLastOffset(10);
        final Path file = onlySegment();
        poke(file, 16, new byte[] {9});
        final JournalCorruptException e = assertThrows(JournalCorruptException.class,
                () -> Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT)));
        assertTrue(e.getMessage().contains("damaged header"), e.getMessage());
        assertEquals(file, e.file());
    }

    @Test
    void leftoversOfACrashWhileCreatingASegmentAreRemoved() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            append(journal.stage(new Message.Codec()), 0, 100, 10);
        }
        Files.write(dir.resolve(String.format("%020d%s", 100, Segment.TEMP_SUFFIX)), new byte[100]);
        final Segment empty = Segment.create(dir, 100, SMALL_SEGMENT, 64, false);
        Unmapper.unmap(empty.mapping);
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT))) {
            assertEquals(100, journal.nextSequence());
            assertEquals(1, journal.segments().size(), "the empty last segment and the temp file are gone");
            append(journal.stage(new Message.Codec()), 0, 10, 10);
        }
        assertEquals(110, replayAndCheck(dir, 0));
    }

    @Test
    void configurationRejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> JournalConfig.of(dir).segmentSize(1000));
        assertThrows(IllegalArgumentException.class, () -> JournalConfig.of(dir).segmentSize(JournalConfig.MIN_SEGMENT_SIZE + 1));
        assertThrows(IllegalArgumentException.class, () -> JournalConfig.of(dir).indexInterval(0));
        assertThrows(NullPointerException.class, () -> JournalConfig.of(dir).syncPolicy(null));
        assertThrows(NullPointerException.class, () -> JournalConfig.of(null));
    }
}
