package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.NavigableMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the journal refuses at write time, what it calls a torn tail and what damage, and what its messages say. */
class JournalEdgeCaseTest {
    private static final int SMALL_SEGMENT = JournalConfig.MIN_SEGMENT_SIZE;

    @TempDir
    Path dir;

    private JournalConfig config() {
        return JournalConfig.of(dir).segmentSize(SMALL_SEGMENT);
    }

    // ------------------------------------------------------------------ refused at write time

    @Test
    void aCodecThatWritesFewerBytesThanItDeclaredIsRefusedNamingCodecSequenceAndFile() throws Exception {
        final JournalCodec<Message> short2 = new Message.Codec() {
            @Override
            public int encodedLength(final Message m) {
                return m.sequence == 4 ? super.encodedLength(m) + 2 : super.encodedLength(m);
            }
        };
        try (Journal journal = Journal.open(config())) {
            final JournalStage<Message> stage = journal.stage(short2);
            JournalTest.append(stage, 0, 4, 2);
            final JournalException e = assertThrows(JournalException.class,
                    () -> stage.onEvent(new Message().fill(4), 4, true));
            assertEquals(4, e.sequence());
            assertEquals(journal.segments().get(0), e.file());
            assertTrue(e.getMessage().contains(short2.getClass().getName()), e.getMessage());
            assertTrue(e.getMessage().contains("wrote " + (Message.Codec.class.cast(short2).encodedLength(
                    new Message().fill(4)) - 2) + " of the "), e.getMessage());
            assertTrue(e.getMessage().contains(e.file().toString()), e.getMessage());
            assertEquals(3, stage.durableSequence(), "what was accepted before it is kept");
            assertThrows(JournalException.class, () -> stage.onEvent(new Message().fill(5), 5, true));
        }
        try (Journal journal = Journal.open(config())) {
            assertFalse(journal.recovery().truncated(), "nothing of the refused record is in the file: "
                    + journal.recovery());
            assertEquals(4, journal.nextSequence());
        }
        assertEquals(4, JournalTest.replayAndCheck(dir, 0));
    }

    @Test
    void aCodecThatWritesWithAbsolutePutsAndLeavesThePositionIsRefused() throws Exception {
        final JournalCodec<Message> absolute = new Message.Codec() {
            @Override
            public void encode(final Message m, final ByteBuffer out) {
                out.putLong(out.position(), m.sequence);   // the position stays where it was
            }
        };
        try (Journal journal = Journal.open(config())) {
            final JournalStage<Message> stage = journal.stage(absolute);
            final JournalException e = assertThrows(JournalException.class,
                    () -> stage.onEvent(new Message().fill(0), 0, true));
            assertTrue(e.getMessage().contains("wrote 0 of the"), e.getMessage());
            assertEquals(0, e.sequence());
        }
        assertEquals(0, JournalReader.open(dir).verify());
    }

    @Test
    void aNegativeLengthIsRefusedAndAZeroLengthRecordIsKeptAndReadBack() throws Exception {
        final JournalCodec<Message> empty = new JournalCodec<>() {
            @Override
            public int encodedLength(final Message m) {
                return m.sequence == 2 ? -1 : 0;
            }

            @Override
            public void encode(final Message m, final ByteBuffer out) {
                // nothing: the payload is empty
            }

            @Override
            public void decode(final ByteBuffer in, final Message m) {
                assertEquals(0, in.remaining());
            }
        };
        try (Journal journal = Journal.open(config())) {
            final JournalStage<Message> stage = journal.stage(empty);
            JournalTest.append(stage, 0, 2, 1);
            final JournalException e = assertThrows(JournalException.class,
                    () -> stage.onEvent(new Message().fill(2), 2, true));
            assertTrue(e.getMessage().contains("returned a negative length -1 from encodedLength"), e.getMessage());
            assertTrue(e.getMessage().contains(empty.getClass().getName()), e.getMessage());
            assertEquals(2, e.sequence());
            assertEquals(journal.segments().get(0), e.file());
        }
        final long[] seen = {0};
        assertEquals(2, JournalReader.open(dir).replay(0, Long.MAX_VALUE, empty, new Message(),
                (m, sequence, last) -> seen[0]++));
        assertEquals(2, seen[0]);
    }

    @Test
    void aDecoderThatFailsOnReplayIsNamedWithFileOffsetAndSequence() throws Exception {
        final JournalCodec<Message> nothing = new Message.Codec() {
            @Override
            public int encodedLength(final Message m) {
                return 0;
            }

            @Override
            public void encode(final Message m, final ByteBuffer out) {
                // a codec whose encodedLength says 0 and whose decode reads a message
            }
        };
        try (Journal journal = Journal.open(config())) {
            JournalTest.append(journal.stage(nothing), 0, 3, 3);
        }
        final JournalReader reader = JournalReader.open(dir);
        final JournalPosition first = reader.locate(0);
        final JournalException e = assertThrows(JournalException.class,
                () -> reader.replay(0, Long.MAX_VALUE, nothing, new Message(), (m, sequence, last) -> { }));
        assertInstanceOf(BufferUnderflowException.class, e.getCause());
        assertEquals(0, e.sequence());
        assertEquals(first.file(), e.file());
        assertEquals(first.offset(), e.offset());
        assertTrue(e.getMessage().contains(nothing.getClass().getName()), e.getMessage());
        assertTrue(e.getMessage().contains("a payload of 0 bytes"), e.getMessage());
    }

    @Test
    void aDecoderThatFailsWhileReplayingIntoARingIsNamedToo() throws Exception {
        try (Journal journal = Journal.open(config())) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 10, 10);
        }
        final JournalCodec<Message> broken = new Message.Codec() {
            @Override
            public void decode(final ByteBuffer in, final Message m) {
                if (in.getLong(in.position()) == 4) {
                    in.position(in.limit()).getInt();   // reads past the payload
                }
                super.decode(in, m);
            }
        };
        final dev.slipstream.ring.RingBuffer<Message> ring = dev.slipstream.ring.RingBuffer.createSingleProducer(
                Message::new, 16, new dev.slipstream.wait.BlockingWaitStrategy());
        final JournalException e = assertThrows(JournalException.class,
                () -> JournalReader.open(dir).replayInto(ring, 0, Long.MAX_VALUE, broken));
        assertEquals(4, e.sequence());
        assertInstanceOf(BufferUnderflowException.class, e.getCause());
        assertTrue(e.getMessage().contains(broken.getClass().getName()), e.getMessage());
        assertEquals(4, ring.getCursor(), "the slot is published, as every claimed slot is");
    }

    // ------------------------------------------------------------------ torn tail or damage

    /** Appends one record per batch until the last one crosses a page boundary with data after it; its position. */
    private JournalPosition writeUntilTheLastRecordCrossesAPage() throws Exception {
        try (Journal journal = Journal.open(config())) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            final Message m = new Message();
            final JournalReader reader = journal.newReader();
            for (long s = 0; ; s++) {
                stage.onEvent(m.fill(s), s, true);
                final JournalPosition at = reader.locate(s);
                final int end = (int) at.offset() + Segment.RECORD_HEADER + 12 + Message.bodyLength(s);
                final int boundary = ((int) at.offset() + Segment.PAGE) & -Segment.PAGE;
                if (boundary < end && nonZero(read(at.file(), boundary, end - boundary)) > 0
                        && boundary - (int) at.offset() > Segment.RECORD_HEADER) {
                    return at;
                }
            }
        }
    }

    @Test
    void aLastRecordCutShortAtAPageBoundaryIsATornWriteAndIsCutOff() throws Exception {
        final JournalPosition last = writeUntilTheLastRecordCrossesAPage();
        final int boundary = ((int) last.offset() + Segment.PAGE) & -Segment.PAGE;
        final int length = ByteBuffer.wrap(read(last.file(), (int) last.offset() + 4, 4)).order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        // the record's later page never reached the disk
        poke(last.file(), boundary, new byte[(int) last.offset() + Segment.aligned(length) - boundary]);
        try (Journal journal = Journal.open(config())) {
            final RecoveryReport report = journal.recovery();
            assertTrue(report.truncated(), report.toString());
            assertEquals(last.sequence(), report.sequence());
            assertEquals(last.offset(), report.offset());
            assertTrue(report.reason().contains("torn write: the record is cut short"), report.reason());
            assertEquals(last.sequence(), journal.nextSequence());
        }
        assertEquals(last.sequence(), JournalTest.replayAndCheck(dir, 0));
    }

    @Test
    void aByteFlippedInACompleteLastRecordIsDamageRefusedOnOpenAndByTheReader() throws Exception {
        final JournalPosition last = writeUntilTheLastRecordCrossesAPage();
        final int at = (int) last.offset() + Segment.RECORD_HEADER + 3;
        final byte[] flipped = read(last.file(), at, 1);
        flipped[0] ^= 0x10;
        poke(last.file(), at, flipped);
        final byte[] before = Files.readAllBytes(last.file());

        final JournalCorruptException open = assertThrows(JournalCorruptException.class, () -> Journal.open(config()));
        assertEquals(last.file(), open.file());
        assertEquals(last.offset(), open.offset());
        assertEquals(last.sequence(), open.sequence());
        assertTrue(open.getMessage().contains("CRC32C mismatch"), open.getMessage());
        assertTrue(open.getMessage().contains("not a write torn by a crash")
                || open.getMessage().contains("not torn by a crash"), open.getMessage());
        assertTrue(open.getMessage().contains("truncateAtCorruption(true)"), open.getMessage());
        assertArrayEquals(before, Files.readAllBytes(last.file()), "nothing was truncated");

        final long[] delivered = {0};
        final JournalCorruptException read = assertThrows(JournalCorruptException.class,
                () -> JournalReader.open(dir).replay(0, Long.MAX_VALUE, (s, p) -> delivered[0]++));
        assertEquals(last.sequence(), read.sequence());
        assertEquals(last.sequence(), delivered[0], "every record before the damaged one is delivered");

        try (Journal journal = Journal.open(config().truncateAtCorruption(true))) {
            assertTrue(journal.recovery().truncated());
            assertTrue(journal.recovery().reason().contains("truncateAtCorruption"), journal.recovery().reason());
            assertEquals(last.sequence(), journal.nextSequence());
        }
        assertEquals(last.sequence(), JournalTest.replayAndCheck(dir, 0));
    }

    @Test
    void aLastSegmentTruncatedByHandIsRefusedWithTheOptionNamedAndRecoveredWithIt() throws Exception {
        try (Journal journal = Journal.open(config())) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 100, 10);
        }
        final JournalPosition sixty = JournalReader.open(dir).locate(60);
        final int cut = (int) sixty.offset() + Segment.RECORD_HEADER + 5;
        try (FileChannel channel = FileChannel.open(sixty.file(), StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }
        final JournalCorruptException refused = assertThrows(JournalCorruptException.class,
                () -> Journal.open(config()));
        assertTrue(refused.getMessage().contains("cut short"), refused.getMessage());
        assertTrue(refused.getMessage().contains("truncateAtCorruption(true)"), refused.getMessage());
        assertEquals(cut, Files.size(sixty.file()), "refusing changes nothing");

        try (Journal journal = Journal.open(config().truncateAtCorruption(true))) {
            final RecoveryReport report = journal.recovery();
            assertTrue(report.truncated(), report.toString());
            assertEquals(60, report.sequence());
            assertTrue(report.reason().contains("bytes short of its segment size"), report.reason());
            assertEquals(60, journal.nextSequence());
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            JournalTest.append(stage, 0, 40, 10);
        }
        assertEquals(SMALL_SEGMENT, Files.size(sixty.file()));
        assertEquals(100, JournalTest.replayAndCheck(dir, 0));
    }

    // ------------------------------------------------------------------ messages that fit the case

    @Test
    void aDirectoryThatIsAFileIsCalledAFile() throws IOException {
        final Path file = Files.createFile(dir.resolve("journal"));
        final JournalException e = assertThrows(JournalException.class, () -> Journal.open(JournalConfig.of(file)));
        assertTrue(e.getMessage().contains("is a file, not a directory"), e.getMessage());
        assertFalse(e.getMessage().contains("create it first"), e.getMessage());
    }

    @Test
    void aNegativeSequenceIsAnIllegalArgumentSayingWhereSequencesStart() throws Exception {
        try (Journal journal = Journal.open(config())) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 10, 10);
        }
        final JournalReader reader = JournalReader.open(dir);
        final IllegalArgumentException replay = assertThrows(IllegalArgumentException.class,
                () -> reader.replay(-5, Long.MAX_VALUE, (s, p) -> { }));
        assertTrue(replay.getMessage().contains("sequences start at 0"), replay.getMessage());
        assertFalse(replay.getMessage().contains("retention"), replay.getMessage());
        assertThrows(IllegalArgumentException.class, () -> reader.locate(-1));
    }

    // ------------------------------------------------------------------ directory listings

    /** Lists the real directory and counts how often. */
    private static final class CountingDirectory implements SegmentDirectory {
        final SegmentDirectory listed;
        final AtomicInteger listings = new AtomicInteger();

        CountingDirectory(final Path directory) {
            this.listed = SegmentDirectory.of(directory);
        }

        @Override
        public Path path() {
            return listed.path();
        }

        @Override
        public NavigableMap<Long, Path> list() {
            listings.incrementAndGet();
            return listed.list();
        }
    }

    @Test
    void replayVerifyAndLocateListTheDirectoryAConstantNumberOfTimesWhateverTheSegmentCount() throws Exception {
        try (Journal journal = Journal.open(config())) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 40_000, 100);
            assertTrue(journal.segments().size() >= 40, "segments: " + journal.segments().size());
        }
        final CountingDirectory counting = new CountingDirectory(dir);
        final JournalReader reader = new JournalReader(counting);
        assertEquals(40_000, reader.replay(0, Long.MAX_VALUE, (s, p) -> { }));
        assertEquals(2, counting.listings.get(), "one listing to start, one at what it knew as the end");
        counting.listings.set(0);
        assertEquals(40_000, reader.replay(0, Long.MAX_VALUE, new Message.Codec(), new Message(), (m, s, last) -> { }));
        assertEquals(1, counting.listings.get(), "the map is kept: one listing, at the end");
        counting.listings.set(0);
        final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < 200; i++) {
            final long sequence = random.nextLong(40_000);
            assertEquals(sequence, JournalReader.open(dir).locate(sequence).sequence());
            reader.locate(sequence);
        }
        assertEquals(0, counting.listings.get(), "locating within known segments lists nothing");
        counting.listings.set(0);
        assertEquals(40_000, reader.verify());
        assertEquals(2, counting.listings.get(), "firstSequence, then one at the end");
    }

    @Test
    void aReaderWhoseSegmentMapIsStaleAfterRetentionListsAgain() throws Exception {
        try (Journal journal = Journal.open(config())) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 5_000, 100);
            final JournalReader reader = journal.newReader();
            assertEquals(0, reader.locate(0).sequence());   // the reader now knows every segment
            assertTrue(journal.segments().size() > 2, "segments: " + journal.segments().size());
            assertTrue(journal.deleteSegmentsBelow(2_000) > 0);
            final long first = journal.firstSequence();
            assertEquals(first, reader.locate(first).sequence(), "the deleted first segment is listed again");
            final JournalException before = assertThrows(JournalException.class, () -> reader.locate(first - 1));
            assertTrue(before.getMessage().contains("retention"), before.getMessage());
            assertEquals(5_000 - first, reader.replay(first, Long.MAX_VALUE, (s, p) -> { }));
        }
    }

    @Test
    void aReaderSeesSegmentsAddedAfterItStarted() throws Exception {
        try (Journal journal = Journal.open(config())) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            JournalTest.append(stage, 0, 1_000, 100);
            final JournalReader reader = journal.newReader();
            final long[] count = {0};
            final int before = journal.segments().size();
            reader.replay(0, Long.MAX_VALUE, (s, p) -> {
                if (s == 0) {
                    JournalTest.append(stage, 1_000, 2_000, 100);   // rolls to new segments during the replay
                }
                count[0]++;
            });
            assertTrue(journal.segments().size() > before);
            assertEquals(3_000, count[0]);
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void poke(final Path file, final int offset, final byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private static byte[] read(final Path file, final int offset, final int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            final ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(b, offset);
            return b.array();
        }
    }

    private static int nonZero(final byte[] bytes) {
        int n = 0;
        for (final byte b : bytes) {
            n += b != 0 ? 1 : 0;
        }
        return n;
    }
}
