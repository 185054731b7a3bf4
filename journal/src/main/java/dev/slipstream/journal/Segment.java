package dev.slipstream.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.zip.CRC32C;

/**
 * One segment file, mapped whole: a header, an index of every {@code indexInterval}-th record's
 * offset, then records back to back. Everything is little-endian.
 *
 * <pre>
 * header (64 bytes): magic (8) version (4) dataStart (4) firstSequence (8) segmentSize (4)
 *                    indexInterval (4) indexEntries (4) CRC32C of the 36 bytes before (4) zero (24)
 * index:             indexEntries x int offset (0: not written), padded to 64 bytes
 * record:            CRC32C (4) length (4) sequence (8) payload, padded to 8 bytes
 * </pre>
 *
 * A record's CRC32C covers its length, sequence and payload; its length counts the 16-byte
 * header and the payload, so a zero length marks the end of the data (a new file is all zeros,
 * and the writer keeps every byte after its position zero). Records are written payload first and
 * CRC last. The name of the file is its first sequence, so segments sort and are found by name.
 */
final class Segment {
    static final long MAGIC = 0x314C4E524A50534CL;   // "LSPJRNL1" read as little-endian bytes
    static final int VERSION = 1;
    static final int HEADER_SIZE = 64;
    static final int RECORD_HEADER = 16;
    static final String SUFFIX = ".segment";
    static final String TEMP_SUFFIX = ".segment.tmp";
    /** The smallest page a crash keeps or loses whole: the unit of a torn write. */
    static final int PAGE = 4096;

    /** {@link #check} found no record here: zeros, or no room for a record header. */
    static final int END = 0;
    /** {@link #check} found a record that fails its check. */
    static final int BAD = -1;

    /** An int of the mapping, compare-and-set by {@link #casPageWord} (a write that never changes a byte). */
    private static final VarHandle PAGE_WORD = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** A record's CRC32C field, read and written with an explicit access mode. */
    private static final VarHandle CRC_FIELD = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int OFF_MAGIC = 0;
    private static final int OFF_VERSION = 8;
    private static final int OFF_DATA_START = 12;
    private static final int OFF_FIRST_SEQUENCE = 16;
    private static final int OFF_SEGMENT_SIZE = 24;
    private static final int OFF_INDEX_INTERVAL = 28;
    private static final int OFF_INDEX_ENTRIES = 32;
    private static final int OFF_HEADER_CRC = 36;

    final Path file;
    final long firstSequence;
    final int size;
    final int dataStart;
    final int indexInterval;
    final int indexEntries;
    /** The whole file, little-endian; absolute gets and puts only, so its position never matters. */
    final MappedByteBuffer mapping;

    private Segment(final Path file, final MappedByteBuffer mapping) {
        this.file = file;
        this.mapping = mapping;
        this.firstSequence = mapping.getLong(OFF_FIRST_SEQUENCE);
        this.size = mapping.getInt(OFF_SEGMENT_SIZE);
        this.dataStart = mapping.getInt(OFF_DATA_START);
        this.indexInterval = mapping.getInt(OFF_INDEX_INTERVAL);
        this.indexEntries = mapping.getInt(OFF_INDEX_ENTRIES);
    }

    static String fileName(final long firstSequence) {
        return String.format("%020d%s", firstSequence, SUFFIX);
    }

    /** The first sequence a segment file name stands for, or -1 if it is not a segment's name. */
    static long parseFileName(final String name) {
        if (name.length() != 20 + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return -1L;
        }
        for (int i = 0; i < 20; i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1L;
            }
        }
        return Long.parseLong(name.substring(0, 20));
    }

    static int aligned(final int length) {
        return (length + 7) & ~7;
    }

    /** The largest payload a segment of this size and index interval holds. */
    static int maxPayload(final int segmentSize, final int indexInterval) {
        return segmentSize - dataStart(segmentSize, indexInterval) - RECORD_HEADER;
    }

    private static int indexEntries(final int segmentSize, final int indexInterval) {
        final int maxRecords = segmentSize / RECORD_HEADER;
        return (maxRecords + indexInterval - 1) / indexInterval;
    }

    private static int dataStart(final int segmentSize, final int indexInterval) {
        return (HEADER_SIZE + 4 * indexEntries(segmentSize, indexInterval) + 63) & ~63;
    }

    /**
     * Creates a segment: written under a temporary name, forced if {@code durable}, then renamed,
     * so that a segment file under its real name always has a complete header.
     */
    static Segment create(final Path directory, final long firstSequence, final int segmentSize,
                          final int indexInterval, final boolean durable) {
        final Path file = directory.resolve(fileName(firstSequence));
        final Path temp = directory.resolve(String.format("%020d%s", firstSequence, TEMP_SUFFIX));
        if (Files.exists(file)) {
            throw new JournalException("cannot create segment " + file + " for sequence " + firstSequence
                    + ": the file exists already", file, 0, firstSequence, null);
        }
        final MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            // mapping past the end grows the file (sparse: blocks are allocated as pages are written)
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentSize);
        } catch (IOException e) {
            throw new JournalException("cannot create segment file " + temp + " (" + segmentSize + " bytes): " + e,
                    temp, 0, firstSequence, e);
        }
        writeHeader(mapping, firstSequence, segmentSize, indexInterval);
        if (durable) {
            mapping.force();
        }
        name(temp, file, directory, firstSequence, durable);
        return new Segment(file, mapping);
    }

    /**
     * Makes a {@link SpareSegment} the segment that starts at {@code firstSequence}: writes its
     * header, forces it if {@code durable}, and gives the file its real name, as {@link #create}
     * does. The spare's other pages are zero already; only the header page is forced (forcing the
     * whole file would write every touched page of zeros back on the writer's thread).
     */
    static Segment adopt(final SpareSegment spare, final Path directory, final long firstSequence,
                         final int indexInterval, final boolean durable) {
        final Path file = directory.resolve(fileName(firstSequence));
        if (Files.exists(file)) {
            throw new JournalException("cannot create segment " + file + " for sequence " + firstSequence
                    + ": the file exists already", file, 0, firstSequence, null);
        }
        // a spare is always a mapping of a file; only the model check of the hand-over uses heap buffers
        final MappedByteBuffer mapping = (MappedByteBuffer) spare.pages();
        writeHeader(mapping, firstSequence, mapping.capacity(), indexInterval);
        if (durable) {
            mapping.force(0, HEADER_SIZE);
        }
        name(spare.file(), file, directory, firstSequence, durable);
        return new Segment(file, mapping);
    }

    private static void writeHeader(final MappedByteBuffer mapping, final long firstSequence, final int segmentSize,
                                    final int indexInterval) {
        mapping.order(ByteOrder.LITTLE_ENDIAN);
        final int entries = indexEntries(segmentSize, indexInterval);
        mapping.putLong(OFF_MAGIC, MAGIC)
                .putInt(OFF_VERSION, VERSION)
                .putInt(OFF_DATA_START, dataStart(segmentSize, indexInterval))
                .putLong(OFF_FIRST_SEQUENCE, firstSequence)
                .putInt(OFF_SEGMENT_SIZE, segmentSize)
                .putInt(OFF_INDEX_INTERVAL, indexInterval)
                .putInt(OFF_INDEX_ENTRIES, entries)
                .putInt(OFF_HEADER_CRC, headerCrc(mapping));
    }

    /** Renames a segment's temporary file (its header written, forced if durable) to its real name. */
    private static void name(final Path temp, final Path file, final Path directory, final long firstSequence,
                             final boolean durable) {
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            if (durable) {
                syncDirectory(directory);
            }
        } catch (FileAlreadyExistsException e) {
            throw new JournalException("cannot create segment " + file + ": the file exists already", file, 0,
                    firstSequence, e);
        } catch (IOException e) {
            throw new JournalException("cannot create segment " + file + ": " + e, file, 0, firstSequence, e);
        }
    }

    /** Maps an existing segment and checks its header against its name. */
    static Segment open(final Path file, final boolean writable) {
        final long named = parseFileName(file.getFileName().toString());
        final MappedByteBuffer mapping;
        try (FileChannel channel = writable
                ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.READ)) {
            final long length = channel.size();
            if (length < HEADER_SIZE || length > JournalConfig.MAX_SEGMENT_SIZE) {
                throw new JournalCorruptException("segment " + file + " is " + length + " bytes long; a segment is "
                        + HEADER_SIZE + " to " + JournalConfig.MAX_SEGMENT_SIZE + " bytes", file, 0, named);
            }
            mapping = channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, 0, length);
        } catch (IOException e) {
            throw new JournalException("cannot map segment " + file + (writable ? " for writing" : "") + ": " + e,
                    file, 0, named, e);
        }
        mapping.order(ByteOrder.LITTLE_ENDIAN);
        final String problem = headerProblem(mapping, named);
        if (problem != null) {
            throw new JournalCorruptException("segment " + file + " has a damaged header: " + problem, file, 0, named);
        }
        return new Segment(file, mapping);
    }

    /**
     * Restores the length of a segment file cut short (its header intact, the file shorter than
     * the size the header gives) by extending it with zeros, so that recovery can cut the journal
     * after the last intact record.
     *
     * @return how many bytes were added: 0 if the file is not short or its header is not intact
     */
    static long restoreLength(final Path file, final boolean durable) {
        final long named = parseFileName(file.getFileName().toString());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final long length = channel.size();
            if (length < HEADER_SIZE) {
                return 0;
            }
            final ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
                // read the whole header
            }
            final int declared = header.getInt(OFF_SEGMENT_SIZE);
            if (header.getLong(OFF_MAGIC) != MAGIC || header.getInt(OFF_HEADER_CRC) != headerCrc(header)
                    || header.getLong(OFF_FIRST_SEQUENCE) != named || declared <= length
                    || declared > JournalConfig.MAX_SEGMENT_SIZE) {
                return 0;
            }
            channel.write(ByteBuffer.allocate(1), declared - 1L);
            if (durable) {
                channel.force(true);
            }
            return declared - length;
        } catch (IOException e) {
            throw new JournalException("cannot restore the length of segment " + file + ": " + e, file, 0, named, e);
        }
    }

    private static String headerProblem(final MappedByteBuffer m, final long named) {
        if (m.getLong(OFF_MAGIC) != MAGIC) {
            return String.format("magic %016x, expected %016x (not a Slipstream journal segment)",
                    m.getLong(OFF_MAGIC), MAGIC);
        }
        if (m.getInt(OFF_HEADER_CRC) != headerCrc(m)) {
            return String.format("header CRC32C %08x, computed %08x", m.getInt(OFF_HEADER_CRC), headerCrc(m));
        }
        if (m.getInt(OFF_VERSION) != VERSION) {
            return "format version " + m.getInt(OFF_VERSION) + ", this library reads version " + VERSION;
        }
        if (m.getLong(OFF_FIRST_SEQUENCE) != named) {
            return "first sequence " + m.getLong(OFF_FIRST_SEQUENCE) + ", but the file name says " + named;
        }
        final int size = m.getInt(OFF_SEGMENT_SIZE);
        if (size > m.capacity()) {
            return "segment size " + size + ", but the file is " + m.capacity() + " bytes: it was cut short"
                    + " (truncated, or copied in part). If it is the last segment, open the journal with"
                    + " JournalConfig.truncateAtCorruption(true) to restore its length with zeros and cut the"
                    + " journal after its last intact record";
        }
        if (size != m.capacity()) {
            return "segment size " + size + ", but the file is " + m.capacity() + " bytes";
        }
        final int interval = m.getInt(OFF_INDEX_INTERVAL);
        if (interval < 1 || m.getInt(OFF_INDEX_ENTRIES) != indexEntries(size, interval)
                || m.getInt(OFF_DATA_START) != dataStart(size, interval)) {
            return "index interval " + interval + ", entries " + m.getInt(OFF_INDEX_ENTRIES) + " and data start "
                    + m.getInt(OFF_DATA_START) + " do not agree with the segment size " + size;
        }
        return null;
    }

    private static int headerCrc(final ByteBuffer m) {
        final CRC32C crc = new CRC32C();
        crc.update(m.duplicate().clear().limit(OFF_HEADER_CRC));
        return (int) crc.getValue();
    }

    /** Forces a directory's entries (a new or renamed file's name) where the platform allows it. */
    static void syncDirectory(final Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException notOnThisPlatform) {
            // Windows cannot open a directory as a channel; its file system orders renames itself
            if (System.getProperty("os.name", "").startsWith("Windows")) {
                return;
            }
            throw notOnThisPlatform instanceof IOException ? (IOException) notOnThisPlatform
                    : new IOException(notOnThisPlatform);
        }
    }

    /**
     * Makes every page from the one holding {@code from} to the one before {@code to} (or the end)
     * resident and writable, so that the writer's first write to each takes no page fault: a
     * compare-and-set of the page's first int from 0 to 0, which is a write to the page (the
     * processor writes it even when it fails) and leaves every byte as it was.
     */
    void touchPages(final int from, final int to) {
        for (int offset = from & -PAGE; offset < Math.min(size, to); offset += PAGE) {
            casPageWord(mapping, offset);
        }
    }

    /** Makes the page at {@code offset} resident and writable without changing a byte of it. */
    static void casPageWord(final ByteBuffer pages, final int offset) {
        // compare-and-set, not a plain store: the write must not change the page when it holds data
        PAGE_WORD.compareAndSet(pages, offset, 0, 0);
    }

    /** A view of the whole file for the writer's or reader's own position and limit. */
    ByteBuffer newView() {
        return mapping.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    int indexEntry(final int k) {
        return mapping.getInt(HEADER_SIZE + 4 * k);
    }

    void putIndexEntry(final int k, final int offset) {
        mapping.putInt(HEADER_SIZE + 4 * k, offset);
    }

    /** Stores a record's CRC32C, the last field written, so that seeing it implies seeing the record. */
    void putCrcRelease(final int offset, final int crc) {
        // release: a reader in this process that reads this CRC with getCrcAcquire sees the payload,
        // sequence and length stored before it
        CRC_FIELD.setRelease(mapping, offset, crc);
    }

    /** Reads a record's CRC32C before the rest of the record. */
    int getCrcAcquire(final int offset) {
        // acquire: pairs with putCrcRelease; the record's other bytes read after it are the ones written before it
        return (int) CRC_FIELD.getAcquire(mapping, offset);
    }

    /**
     * Checks the record at {@code offset}: its aligned size if it is intact and has the expected
     * sequence, {@link #END} if there is none, {@link #BAD} if it fails a check.
     *
     * @param crcView a view of this segment, moved by the check
     */
    int check(final int offset, final long expectedSequence, final CRC32C crc, final ByteBuffer crcView) {
        if (offset > size - RECORD_HEADER) {
            return END;
        }
        final int storedCrc = getCrcAcquire(offset);
        final int length = mapping.getInt(offset + 4);
        if (length == 0 && storedCrc == 0) {
            return END;
        }
        if (length < RECORD_HEADER || length > size - offset
                || mapping.getLong(offset + 8) != expectedSequence) {
            return BAD;
        }
        return crcOf(offset, length, crc, crcView) == storedCrc ? aligned(length) : BAD;
    }

    /** Whether an intact record with a sequence of at least {@code notBefore} starts at {@code offset}. */
    boolean isIntactRecord(final int offset, final long notBefore, final CRC32C crc, final ByteBuffer crcView) {
        if (offset > size - RECORD_HEADER) {
            return false;
        }
        final int length = mapping.getInt(offset + 4);
        final long sequence = mapping.getLong(offset + 8);
        return length >= RECORD_HEADER && length <= size - offset && sequence >= notBefore
                && crcOf(offset, length, crc, crcView) == mapping.getInt(offset);
    }

    /** The CRC32C of a record's length, sequence and payload. */
    static int crcOf(final int offset, final int length, final CRC32C crc, final ByteBuffer view) {
        crc.reset();
        view.limit(offset + length).position(offset + 4);
        crc.update(view);
        return (int) crc.getValue();
    }

    /** Why {@link #check} said {@link #BAD}: for error messages only (allocates). */
    String describeProblem(final int offset, final long expectedSequence) {
        final int storedCrc = mapping.getInt(offset);
        final int length = mapping.getInt(offset + 4);
        if (length == 0) {
            return "the record header is zero but non-zero bytes follow (a record whose header was never written)";
        }
        if (length < RECORD_HEADER || length > size - offset) {
            return "length " + length + " is out of range (" + RECORD_HEADER + " to " + (size - offset) + ")";
        }
        final long sequence = mapping.getLong(offset + 8);
        if (sequence != expectedSequence) {
            return "sequence " + sequence + " where " + expectedSequence + " was expected";
        }
        final int computed = crcOf(offset, length, new CRC32C(), newView());
        return String.format("CRC32C mismatch: stored %08x, computed %08x over %d bytes", storedCrc, computed, length);
    }

    /**
     * Why the record at {@code offset}, which failed {@link #check}, is a write torn by a crash, or
     * null if it is not one. Records are written payload first and CRC32C last, and a crash keeps
     * or loses whole pages (4096 bytes or more): so a torn record either has its CRC still zero
     * (a process killed before the CRC was stored, or the page holding it never written back), or
     * is cut short, every byte from a page boundary inside it to its end still zero (a later page
     * of the record never written back). A record whose CRC is present and whose every page holds
     * some of its bytes was complete: if it fails its check, that is damage, not a torn write.
     */
    String tornReason(final int offset) {
        final int storedCrc = mapping.getInt(offset);
        final int length = mapping.getInt(offset + 4);
        if (storedCrc == 0) {
            return length == 0
                    ? "torn write: the record header was never written (its payload was)"
                    : "torn write: the record's CRC32C was never written (a CRC is stored last)";
        }
        if (length < RECORD_HEADER || length > size - offset) {
            return null;
        }
        final int end = offset + length;
        int zeroFrom = end;
        while (zeroFrom > offset && mapping.get(zeroFrom - 1) == 0) {
            zeroFrom--;
        }
        final int boundary = (Math.max(zeroFrom, offset + 1) + PAGE - 1) & -PAGE;
        return boundary < end
                ? "torn write: the record is cut short, its bytes from offset " + boundary + " (a page boundary) to "
                        + end + " were never written"
                : null;
    }

    /** The offset just past the last non-zero byte in {@code [from, size)}, or {@code from} if all are zero. */
    int endOfNonZero(final int from) {
        int end = size;
        // 8 bytes at a time from the end; from and size are multiples of 8
        while (end > from) {
            if (mapping.getLong(end - 8) != 0L) {
                return end;
            }
            end -= 8;
        }
        return from;
    }

    /** Zeroes {@code [from, to)}. */
    void zero(final int from, final int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            mapping.putLong(i, 0L);
        }
        for (; i < to; i++) {
            mapping.put(i, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "Segment[" + file + ", first " + firstSequence + "]";
    }
}
