package dev.slipstream.journal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A journal opened for writing: a directory of segment files, recovered on open, written by one
 * {@link JournalStage}, read back by {@link JournalReader}s.
 *
 * <p><b>Opening</b> takes the directory's writer lock (a second writer, in this process or
 * another, gets a {@link JournalException}), removes segments left half-created by a crash,
 * and verifies the last segment: a torn last record (a crash while it was written) is cut off
 * and described by {@link #recovery()}; a damaged record is refused with a
 * {@link JournalCorruptException} and nothing is changed, unless
 * {@link JournalConfig#truncateAtCorruption(boolean)} allows the cut. Older segments are checked
 * as they are read ({@link JournalReader#verify()} checks them all).
 *
 * <p><b>What counts as torn.</b> Records are written payload first and CRC32C last, and a crash
 * keeps or loses whole pages. A failing last record (nothing intact after it) is torn when its
 * CRC32C is still zero, its header was never written, or it is cut short: every byte of it from a
 * page boundary (4096 bytes) to its end is still zero. A last record whose CRC32C is written and
 * whose every page holds some of its bytes was complete; if it fails its check, the storage
 * damaged it, and opening refuses it as it refuses damage in the middle of the journal. A last
 * segment file shorter than its header says (cut by hand or by a partial copy) is refused too;
 * {@code truncateAtCorruption(true)} restores its length with zeros and cuts the journal after
 * its last intact record.
 *
 * <p><b>Sequences.</b> Records are numbered 0, 1, 2... without gaps across restarts. A journal
 * stage maps ring sequences to journal sequences with a fixed offset: see {@link #stage(JournalCodec)}
 * for a ring that starts with new events and {@link #stage(JournalCodec, long)} for a ring that
 * first receives a replay.
 *
 * <pre>{@code
 * try (Journal journal = Journal.open(JournalConfig.of(dir))) {
 *     log.info("journal recovered: {}", journal.recovery());
 *     JournalStage<Order> journalling = journal.stage(new OrderCodec());
 *     Slipstream<Order> engine = Slipstream.builder(Order::new).build();
 *     engine.handleEventsWith(journalling.spec("journal")).then(matching);   // matching sees durable orders only
 *     engine.start();
 *     ...
 *     engine.shutdown(Duration.ofSeconds(5));
 * }
 * }</pre>
 *
 * <p>Thread use: open, stage creation, replay and close on the owner's thread, the stage on its
 * own; {@link #durableSequence()}, {@link #writtenSequence()}, {@link #nextSequence()},
 * {@link #segments()} and {@link #deleteSegmentsBelow(long)} from any thread. Close the journal
 * after the pipeline that runs its stage has stopped.
 */
public final class Journal implements AutoCloseable {
    private final JournalConfig config;
    private final DirectoryLock lock;
    private final JournalWriter writer;
    /** Null unless {@link JournalConfig#pretouch()}. */
    private final SegmentPretoucher pretoucher;
    private final RecoveryReport recovery;
    /** First sequence of each segment, to its file; the writer adds, retention removes. */
    private final ConcurrentSkipListMap<Long, Path> segments;
    private final AtomicBoolean stageCreated = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private Journal(final JournalConfig config, final DirectoryLock lock, final ConcurrentSkipListMap<Long, Path> segments,
                    final Segment last, final Recovery recovered, final SegmentPretoucher.PageListener touched) {
        this.config = config;
        this.lock = lock;
        this.segments = segments;
        this.recovery = recovered.report;
        final boolean sync = config.syncPolicy().kind() != SyncPolicy.Kind.NEVER;
        final AheadToucher ahead = config.pretouch()
                ? new AheadToucher(AheadToucher.WINDOW, Segment::casPageWord, Unmapper::unmap)
                : null;
        this.pretoucher = config.pretouch()
                ? new SegmentPretoucher(new SpareFiles(config.directory(), config.segmentSize()),
                        "slipstream-journal-pretouch-" + config.directory().getFileName(), touched, ahead,
                        AheadToucher.WINDOW)
                : null;
        this.writer = new JournalWriter(config, last, recovered.position, recovered.nextSequence, sync,
                next -> segments.put(next.firstSequence, next.file), pretoucher, ahead);
        if (pretoucher != null) {
            pretoucher.start();
        }
    }

    /**
     * Opens (and recovers) the journal in {@code config.directory()}, creating its first segment
     * if the directory holds none.
     *
     * @param config where and how
     * @return the open journal, which holds the directory's writer lock until closed
     * @throws JournalException if the directory is missing, not a directory or not writable, if
     *     another writer holds it, or if a segment cannot be read
     * @throws JournalCorruptException if the last segment holds a damaged record (one followed by
     *     intact ones, or a complete last record that fails its check), if the last segment file is
     *     shorter than its header says, or if a segment header is damaged; unless
     *     {@link JournalConfig#truncateAtCorruption(boolean)}
     */
    public static Journal open(final JournalConfig config) {
        return open(config, SegmentPretoucher.PageListener.NONE);
    }

    /** {@link #open(JournalConfig)}, telling {@code touched} of each page the pretoucher touches (tests). */
    static Journal open(final JournalConfig config, final SegmentPretoucher.PageListener touched) {
        final Path directory = config.directory();
        if (!Files.isDirectory(directory)) {
            throw new JournalException(Files.exists(directory)
                    ? "journal directory " + directory + " is a file, not a directory: give the journal a directory"
                            + " of its own (a path that does not name a file)"
                    : "journal directory " + directory + " does not exist: create it first (Files.createDirectories)",
                    directory, -1, -1, null);
        }
        if (!Files.isWritable(directory) || hasNoWriteBits(directory)) {
            throw new JournalException("journal directory " + directory + " is read-only: the journal needs to"
                    + " create, write and lock files there (use JournalReader to read a read-only journal)",
                    directory, -1, -1, null);
        }
        final DirectoryLock lock = DirectoryLock.acquire(directory);
        try {
            deleteHalfCreated(directory);
            final ConcurrentSkipListMap<Long, Path> segments = list(directory);
            final boolean sync = config.syncPolicy().kind() != SyncPolicy.Kind.NEVER;
            Segment last = null;
            long restored = 0;
            while (!segments.isEmpty()) {
                final Map.Entry<Long, Path> entry = segments.lastEntry();
                if (config.truncateAtCorruption()) {
                    restored = Segment.restoreLength(entry.getValue(), sync);
                }
                last = Segment.open(entry.getValue(), true);
                if (segments.size() == 1 || !Recovery.isEmpty(last)) {
                    break;
                }
                // a segment created just before a crash, with nothing in it: the one before is the tail
                Unmapper.unmap(last.mapping);
                Files.delete(entry.getValue());
                segments.remove(entry.getKey());
                last = null;
                restored = 0;
            }
            if (last == null) {
                last = Segment.create(directory, 0L, config.segmentSize(), config.indexInterval(), sync);
                segments.put(0L, last.file);
            }
            final Recovery recovered = Recovery.verifyTail(last, config.truncateAtCorruption(), sync, restored);
            if (sync && !recovered.report.truncated()) {
                // what the previous writer left in the page cache is durable from here on
                last.mapping.force();
            }
            if (config.pretouch()) {
                // the first pages the writer writes: touched here, before the writer exists; the
                // pretoucher's thread keeps the pages after them touched from then on
                last.touchPages(recovered.position, recovered.position + AheadToucher.WINDOW);
            }
            return new Journal(config, lock, segments, last, recovered, touched);
        } catch (IOException e) {
            closeQuietly(lock, e);
            throw new JournalException("cannot open journal " + directory + ": " + e, directory, -1, -1, e);
        } catch (RuntimeException | Error e) {
            closeQuietly(lock, e);
            throw e;
        }
    }

    /** A directory with every write bit off is meant to be read-only, even for a user who could write it. */
    private static boolean hasNoWriteBits(final Path directory) {
        try {
            final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
            return !permissions.contains(PosixFilePermission.OWNER_WRITE)
                    && !permissions.contains(PosixFilePermission.GROUP_WRITE)
                    && !permissions.contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | UnsupportedOperationException notPosix) {
            return false;
        }
    }

    private static void closeQuietly(final DirectoryLock lock, final Throwable failure) {
        try {
            lock.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    private static void deleteHalfCreated(final Path directory) throws IOException {
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(directory, "*" + Segment.TEMP_SUFFIX)) {
            for (final Path temp : temps) {
                Files.delete(temp);
            }
        }
    }

    /** The segment files of a directory, by first sequence. */
    static ConcurrentSkipListMap<Long, Path> list(final Path directory) {
        final ConcurrentSkipListMap<Long, Path> found = new ConcurrentSkipListMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + Segment.SUFFIX)) {
            for (final Path file : files) {
                final long first = Segment.parseFileName(file.getFileName().toString());
                if (first >= 0) {
                    found.put(first, file);
                }
            }
        } catch (IOException e) {
            throw new JournalException("cannot list journal directory " + directory + ": " + e, directory, -1, -1, e);
        }
        return found;
    }

    /**
     * The stage for a ring that starts with new events: ring sequence 0 becomes journal sequence
     * {@link #nextSequence()}. Use it for an empty journal, or after replaying the journal into
     * the later stages' state directly ({@link JournalReader#replay(long, long, JournalCodec, Object,
     * dev.slipstream.processor.EventHandler)}).
     *
     * @param codec encodes each event
     * @param <E> the event type
     * @return the stage; add it with {@link JournalStage#spec(String)}
     * @throws IllegalStateException if this journal already has a stage
     */
    public <E> JournalStage<E> stage(final JournalCodec<E> codec) {
        return stage(codec, writer.nextSequence());
    }

    /**
     * The stage for a ring that first receives a replay of the journal from {@code ringStart}
     * ({@link JournalReader#replayInto}): ring sequence 0 is journal sequence {@code ringStart}.
     * Events already in the journal (the replayed ones) pass the stage without being written
     * again; the first new event becomes {@link #nextSequence()}.
     *
     * @param codec encodes each event
     * @param ringStart the journal sequence of the ring's first event, at most {@link #nextSequence()}
     * @param <E> the event type
     * @return the stage
     * @throws IllegalArgumentException if {@code ringStart} is negative or after {@link #nextSequence()}
     * @throws IllegalStateException if this journal already has a stage
     */
    public <E> JournalStage<E> stage(final JournalCodec<E> codec, final long ringStart) {
        if (codec == null) {
            throw new NullPointerException("codec must not be null");
        }
        if (ringStart < 0 || ringStart > writer.nextSequence()) {
            throw new IllegalArgumentException("ringStart must be between 0 and the journal's next sequence "
                    + writer.nextSequence() + ", got " + ringStart);
        }
        if (!stageCreated.compareAndSet(false, true)) {
            throw new IllegalStateException("journal " + config.directory()
                    + " already has a stage: a journal has one writer");
        }
        return new JournalStage<>(writer, codec, ringStart);
    }

    /**
     * What opening found at the tail.
     *
     * @return the report
     */
    public RecoveryReport recovery() {
        return recovery;
    }

    /**
     * The sequence the next new record gets.
     *
     * @return the next sequence
     */
    public long nextSequence() {
        return writer.writtenSequence() + 1;
    }

    /**
     * The highest sequence in the page cache, as of the last completed batch: survives a process
     * kill.
     *
     * @return the sequence, or -1 if none
     */
    public long writtenSequence() {
        return writer.writtenSequence();
    }

    /**
     * The highest sequence forced to the device: survives an OS crash or power loss. Safe to
     * acknowledge to a client.
     *
     * @return the sequence, or -1 if none (always, under {@link SyncPolicy#never()})
     */
    public long durableSequence() {
        return writer.durableSequence();
    }

    /**
     * The first sequence still in the journal (retention deletes older ones).
     *
     * @return the first sequence of the oldest segment
     */
    public long firstSequence() {
        return segments.firstKey();
    }

    /**
     * The segment files, oldest first.
     *
     * @return a snapshot
     */
    public List<Path> segments() {
        return new ArrayList<>(segments.values());
    }

    /**
     * The configuration it was opened with.
     *
     * @return the configuration
     */
    public JournalConfig config() {
        return config;
    }

    /**
     * Retention: deletes every segment all of whose records are below {@code sequence} (a segment
     * whose successor starts at or below it). The segment being written is never deleted.
     * Readers that mapped a deleted segment keep reading it.
     *
     * @param sequence the lowest sequence to keep
     * @return how many segments were deleted
     * @throws JournalException if a segment cannot be deleted (those before it are gone)
     */
    public int deleteSegmentsBelow(final long sequence) {
        int deleted = 0;
        while (true) {
            final Map.Entry<Long, Path> oldest = segments.firstEntry();
            final Long successor = oldest == null ? null : segments.higherKey(oldest.getKey());
            if (successor == null || successor > sequence) {
                return deleted;
            }
            try {
                Files.deleteIfExists(oldest.getValue());
            } catch (IOException e) {
                throw new JournalException("cannot delete segment " + oldest.getValue() + " (records from "
                        + oldest.getKey() + "): " + e, oldest.getValue(), 0, oldest.getKey(), e);
            }
            segments.remove(oldest.getKey());
            deleted++;
        }
    }

    /**
     * A reader of this journal's directory.
     *
     * @return a new reader
     */
    public JournalReader newReader() {
        return JournalReader.open(config.directory());
    }

    /**
     * Forces what is written (unless the policy is never), unmaps the segment, stops the
     * pretoucher (if any; joins its thread, then deletes the spare segment no one used) and
     * releases the writer lock. Call it after the pipeline running the stage has stopped.
     * Idempotent.
     *
     * @throws JournalException if the final force or the release fails
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            try {
                if (pretoucher != null) {
                    // joins the pretoucher's thread before the writer unmaps the segment it may be
                    // touching, and before the lock is released (another writer could otherwise
                    // see the spare's file half made)
                    pretoucher.close();
                }
            } finally {
                writer.close();
            }
        } finally {
            try {
                lock.close();
            } catch (IOException e) {
                throw new JournalException("cannot release the lock of journal " + config.directory() + ": " + e,
                        config.directory(), -1, -1, e);
            }
        }
    }

    /** The pretoucher, or null if the configuration has none (tests). */
    SegmentPretoucher pretoucher() {
        return pretoucher;
    }

    @Override
    public String toString() {
        return "Journal[" + config.directory() + ", next " + nextSequence() + ", durable " + durableSequence() + "]";
    }
}
