package dev.slipstream.journal;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.EventSink;
import dev.slipstream.ring.EventTranslatorOneArg;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Reads a journal back: replay from a sequence into a handler, into a ring (before live traffic
 * starts), or as raw records; find where a sequence is; check every record. It takes no lock and
 * maps segments read-only, so it also reads a journal another process is writing, up to what that
 * writer has written (bound {@code to} by {@link Journal#writtenSequence()} to read a consistent
 * prefix).
 *
 * <p>Every record is checked (length, sequence, CRC32C) before it is handed over. A torn last
 * record (see {@link Journal} for what counts as torn) that no recovery has cut off yet is not
 * returned: the replay ends before it. A damaged record (one that intact records follow, or a
 * complete last record that fails its check), a gap between segments, or a segment file shorter
 * than its header says throws a {@link JournalCorruptException} naming the file, offset and
 * sequence. A codec whose {@code decode} throws is reported as a {@link JournalException} naming
 * the codec, file, offset and sequence, with the codec's exception as its cause.
 *
 * <p>Finding a sequence does not scan: the segment is found by name (a segment file is named by its
 * first sequence), then the segment's index gives the offset of a record at most
 * {@link JournalConfig#indexInterval()} - 1 records before it. The reader lists the directory
 * once and keeps the segment map; it lists again only when it reaches the last segment it knew
 * of (a writer may have added more), or when a segment it knew of is gone (retention). Replay,
 * {@link #locate} and {@link #verify()} therefore cost the same per record and per segment from
 * 2 segments or 10,000. {@link #segments()} and {@link #firstSequence()} list the directory.
 *
 * <pre>{@code
 * JournalReader reader = JournalReader.open(dir);
 * long replayed = reader.replayInto(pipeline, 0, Long.MAX_VALUE, new OrderCodec());   // rebuild, then go live
 * reader.replay(from, to, new OrderCodec(), new Order(), (order, sequence, last) -> audit(order));
 * }</pre>
 */
public final class JournalReader {
    private final SegmentDirectory segmentFiles;
    private final Path directory;
    /**
     * The segment map this reader last listed, by first sequence; replaced by a new listing, never
     * changed. Segments are only added after the last one and deleted from the first one, so it
     * stays right for every segment in it that still exists: it is listed again only when a
     * reader reaches its last segment, or finds a segment gone or a sequence before its first.
     */
    private volatile NavigableMap<Long, Path> known;

    JournalReader(final SegmentDirectory segmentFiles) {
        this.segmentFiles = segmentFiles;
        this.directory = segmentFiles.path();
    }

    /**
     * A reader of the journal in {@code directory}.
     *
     * @param directory the journal's directory
     * @return the reader
     * @throws JournalException if the directory does not exist
     * @throws NullPointerException if {@code directory} is null
     */
    public static JournalReader open(final Path directory) {
        Objects.requireNonNull(directory, "directory must not be null");
        if (!Files.isDirectory(directory)) {
            throw new JournalException("journal directory " + directory + " does not exist or is not a directory",
                    directory, -1, -1, null);
        }
        return new JournalReader(SegmentDirectory.of(directory));
    }

    /**
     * The segment files, oldest first.
     *
     * @return the files found now
     */
    public List<Path> segments() {
        return new ArrayList<>(segmentFiles.list().values());
    }

    /**
     * The first sequence in the journal.
     *
     * @return the oldest segment's first sequence, or -1 if there is no segment
     */
    public long firstSequence() {
        final NavigableMap<Long, Path> segments = segmentFiles.list();
        return segments.isEmpty() ? -1L : segments.firstKey();
    }

    /**
     * Finds a record by its sequence, without scanning the journal.
     *
     * @param sequence the record's sequence
     * @return its file and offset
     * @throws JournalException if no record has that sequence
     * @throws JournalCorruptException if a damaged record is in the way
     */
    public JournalPosition locate(final long sequence) {
        final Cursor cursor = seek(sequence);
        if (!cursor.load()) {
            throw new JournalException("sequence " + sequence + " is after the end of journal " + directory
                    + " (its next sequence is " + cursor.sequence + ")", cursor.segment.file, cursor.offset,
                    sequence, null);
        }
        return new JournalPosition(sequence, cursor.segment.file, cursor.offset);
    }

    /**
     * Replays raw records.
     *
     * @param from the first sequence to replay
     * @param to the last sequence to replay, inclusive ({@code Long.MAX_VALUE}: to the end)
     * @param handler receives each record
     * @return how many records were replayed
     * @throws JournalException if {@code from} is not in the journal (before its first record, or
     *     more than one after its last)
     * @throws JournalCorruptException if a damaged record is found
     * @throws Exception whatever the handler throws, which ends the replay
     */
    public long replay(final long from, final long to, final RecordHandler handler) throws Exception {
        Objects.requireNonNull(handler, "handler must not be null");
        final Cursor cursor = seek(from);
        long count = 0;
        while (cursor.sequence <= to && cursor.load()) {
            handler.onRecord(cursor.sequence, cursor.payload);
            cursor.skip();
            count++;
        }
        return count;
    }

    /**
     * Replays records decoded into one reused event, as a stage would see them: the last record
     * replayed has {@code endOfBatch} true. Use it to rebuild a stage's state before the pipeline
     * starts (then create the journal stage with {@link Journal#stage(JournalCodec)}).
     *
     * @param from the first sequence to replay
     * @param to the last sequence to replay, inclusive
     * @param codec decodes each payload
     * @param scratch the event each record is decoded into
     * @param handler receives each event with its journal sequence
     * @param <E> the event type
     * @return how many records were replayed
     * @throws JournalException if {@code from} is not in the journal
     * @throws JournalCorruptException if a damaged record is found
     * @throws Exception whatever the handler throws
     */
    public <E> long replay(final long from, final long to, final JournalCodec<E> codec, final E scratch,
                           final EventHandler<? super E> handler) throws Exception {
        Objects.requireNonNull(codec, "codec must not be null");
        Objects.requireNonNull(handler, "handler must not be null");
        final Cursor cursor = seek(from);
        if (!(cursor.sequence <= to && cursor.load())) {
            return 0;
        }
        long count = 0;
        while (true) {
            cursor.decode(codec, scratch);
            final long sequence = cursor.sequence;
            cursor.skip();
            count++;
            // look ahead, so that the last event is marked as the end of the batch
            final boolean more = cursor.sequence <= to && cursor.load();
            handler.onEvent(scratch, sequence, !more);
            if (!more) {
                return count;
            }
        }
    }

    /**
     * Replays records into a ring (or a pipeline: it is an {@link EventSink}), each decoded
     * straight into its slot: the stages see them as they saw them before. Call it after the
     * pipeline has started (a replay longer than the ring waits for the stages) and before live
     * traffic, with the journal stage created by {@link Journal#stage(JournalCodec, long)} with
     * the same {@code from}.
     *
     * @param sink the ring or pipeline
     * @param from the first sequence to replay; it becomes the ring's next sequence
     * @param to the last sequence to replay, inclusive
     * @param codec decodes each payload
     * @param <E> the event type
     * @return how many records were published
     * @throws JournalException if {@code from} is not in the journal
     * @throws JournalCorruptException if a damaged record is found
     */
    public <E> long replayInto(final EventSink<E> sink, final long from, final long to, final JournalCodec<E> codec) {
        Objects.requireNonNull(sink, "sink must not be null");
        Objects.requireNonNull(codec, "codec must not be null");
        final Cursor cursor = seek(from);
        final EventTranslatorOneArg<E, Cursor> decode = (event, ringSequence, at) -> at.decode(codec, event);
        long count = 0;
        while (cursor.sequence <= to && cursor.load()) {
            sink.publishEvent(decode, cursor);
            cursor.skip();
            count++;
        }
        return count;
    }

    /**
     * Checks every record of every segment (length, sequence, CRC32C, no gap between segments).
     *
     * @return how many records the journal holds
     * @throws JournalCorruptException at the first damaged record
     */
    public long verify() {
        final long first = firstSequence();
        if (first < 0) {
            return 0;
        }
        final Cursor cursor = seek(first);
        long count = 0;
        while (cursor.load()) {
            cursor.skip();
            count++;
        }
        return count;
    }

    private NavigableMap<Long, Path> known() {
        final NavigableMap<Long, Path> segments = known;
        return segments != null ? segments : relist();
    }

    private NavigableMap<Long, Path> relist() {
        final NavigableMap<Long, Path> segments = segmentFiles.list();
        known = segments;
        return segments;
    }

    /** A cursor at {@code sequence}, found through the segment's name and index. */
    private Cursor seek(final long sequence) {
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence " + sequence + " is negative: journal sequences start at 0"
                    + " (the first record ever written is sequence 0; firstSequence() gives the oldest one kept)");
        }
        NavigableMap<Long, Path> segments = known();
        Cursor cursor = null;
        for (int attempt = 0; cursor == null; attempt++) {
            Map.Entry<Long, Path> holder = segments.floorEntry(sequence);
            if (holder == null && attempt == 0) {
                segments = relist();
                holder = segments.floorEntry(sequence);
            }
            if (segments.isEmpty()) {
                throw new JournalException("journal " + directory + " has no segment", directory, -1, sequence, null);
            }
            if (holder == null) {
                throw new JournalException("sequence " + sequence + " is before the first sequence "
                        + segments.firstKey() + " of journal " + directory + " (retention deleted older segments)",
                        segments.firstEntry().getValue(), -1, sequence, null);
            }
            try {
                cursor = new Cursor(Segment.open(holder.getValue(), false), segments);
            } catch (JournalException e) {
                if (attempt > 0 || !(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
                segments = relist();   // retention deleted it since the last listing
            }
        }
        final Segment segment = cursor.segment;
        final long relative = sequence - segment.firstSequence;
        for (long k = Math.min(relative / segment.indexInterval, segment.indexEntries - 1L); k >= 0; k--) {
            final int offset = segment.indexEntry((int) k);
            final long indexed = segment.firstSequence + k * segment.indexInterval;
            // an index entry is a hint: used only if an intact record with its sequence is there
            if (offset >= segment.dataStart && offset < segment.size
                    && segment.check(offset, indexed, cursor.crc, cursor.crcView) > 0) {
                cursor.offset = offset;
                cursor.sequence = indexed;
                break;
            }
        }
        while (cursor.sequence < sequence) {
            if (!cursor.load()) {
                throw new JournalException("sequence " + sequence + " is after the end of journal " + directory
                        + " (its next sequence is " + cursor.sequence + ")", cursor.segment.file, cursor.offset,
                        sequence, null);
            }
            cursor.skip();
        }
        return cursor;
    }

    /**
     * A position in the journal: a segment, an offset and the sequence expected there. It keeps
     * the segment map it was found with, and lists the directory again only when it reaches the
     * last segment that map knew of (a writer may have added segments since).
     */
    private final class Cursor {
        final CRC32C crc = new CRC32C();
        /** The segments known, by first sequence; refreshed only at what it knew as the end. */
        NavigableMap<Long, Path> known;
        Segment segment;
        ByteBuffer crcView;
        ByteBuffer payload;
        int offset;
        long sequence;
        int recordSize;

        Cursor(final Segment first, final NavigableMap<Long, Path> known) {
            this.known = known;
            enter(first);
        }

        private void enter(final Segment next) {
            segment = next;
            crcView = next.newView();
            payload = next.newView();
            offset = next.dataStart;
            sequence = next.firstSequence;
        }

        /** Whether an intact record with the expected sequence is at the cursor (moving to the next segment if needed). */
        boolean load() {
            while (true) {
                final int size = segment.check(offset, sequence, crc, crcView);
                if (size > 0) {
                    recordSize = size;
                    final int length = segment.mapping.getInt(offset + 4);
                    payload.order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    payload.limit(offset + length).position(offset + Segment.RECORD_HEADER);
                    return true;
                }
                final Map.Entry<Long, Path> next = nextSegment();
                if (size == Segment.BAD) {
                    checkTornTail(next);
                    return false;
                }
                if (next == null) {
                    return false;
                }
                if (next.getKey() != sequence) {
                    throw new JournalCorruptException("journal " + directory + " has a gap: " + segment.file
                            + " ends before sequence " + sequence + " but the next segment starts at "
                            + next.getKey(), segment.file, offset, sequence);
                }
                enter(Segment.open(next.getValue(), false));
            }
        }

        void skip() {
            offset += recordSize;
            sequence++;
        }

        /** Decodes the loaded record; a decoder's failure names the codec, file, offset and sequence. */
        <E> void decode(final JournalCodec<E> codec, final E event) {
            try {
                codec.decode(payload, event);
            } catch (RuntimeException e) {
                final int length = segment.mapping.getInt(offset + 4) - Segment.RECORD_HEADER;
                throw new JournalException("codec " + codec.getClass().getName() + " failed to decode sequence "
                        + sequence + " (" + segment.file + " offset " + offset + ", a payload of " + length
                        + " bytes whose CRC32C checks): " + e + "; its decode does not read what its encode wrote",
                        segment.file, offset, sequence, e);
            }
        }

        /** The segment after the current one, listing the directory again only if the known map ends here. */
        private Map.Entry<Long, Path> nextSegment() {
            Map.Entry<Long, Path> next = known.higherEntry(segment.firstSequence);
            if (next == null) {
                known = relist();
                next = known.higherEntry(segment.firstSequence);
            }
            return next;
        }

        /**
         * A failing record ends the replay quietly only if it is a torn write (see
         * {@link Journal}) in the last segment with nothing intact after it; otherwise it is damage.
         */
        private void checkTornTail(final Map.Entry<Long, Path> later) {
            final String reason = segment.describeProblem(offset, sequence);
            if (later != null) {
                throw new JournalCorruptException("segment " + segment.file + ": the record at offset " + offset
                        + " (sequence " + sequence + ") is corrupt: " + reason + "; later segments exist (from "
                        + later.getKey() + "), so this is damage, not a torn write", segment.file, offset, sequence);
            }
            final int end = segment.endOfNonZero(offset);
            for (int q = offset + 8; q < end; q += 8) {
                if (segment.isIntactRecord(q, sequence, crc, crcView)) {
                    throw new JournalCorruptException("segment " + segment.file + ": the record at offset " + offset
                            + " (sequence " + sequence + ") is corrupt: " + reason + "; an intact record (sequence "
                            + segment.mapping.getLong(q + 8) + ") follows at offset " + q, segment.file, offset,
                            sequence);
                }
            }
            if (segment.tornReason(offset) == null) {
                throw new JournalCorruptException("segment " + segment.file + ": the last record, at offset " + offset
                        + " (sequence " + sequence + "), is corrupt: " + reason + "; it was complete (its CRC32C is"
                        + " written and every page of it holds data), so it was damaged, not torn by a crash."
                        + " Journal.open with JournalConfig.truncateAtCorruption(true) cuts the journal there",
                        segment.file, offset, sequence);
            }
        }
    }
}
