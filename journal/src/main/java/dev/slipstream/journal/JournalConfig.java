package dev.slipstream.journal;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a journal is opened: its directory, segment size, sync policy, index density, what to do
 * with a corrupt last record, and whether the next segment is prepared ahead of the writer. Immutable: each setter returns a new configuration.
 *
 * <pre>{@code
 * JournalConfig config = JournalConfig.of(Path.of("/var/lib/engine/journal"))
 *         .segmentSize(256 << 20)                 // 256 MiB files
 *         .syncPolicy(SyncPolicy.everyBatch());    // the default
 * }</pre>
 */
public final class JournalConfig {
    /** The default segment size: 64 MiB. */
    public static final int DEFAULT_SEGMENT_SIZE = 64 << 20;
    /** The smallest segment size accepted: 64 KiB. */
    public static final int MIN_SEGMENT_SIZE = 64 << 10;
    /** The largest segment size accepted: 1 GiB (one mapping per segment). */
    public static final int MAX_SEGMENT_SIZE = 1 << 30;
    /** The default index interval: one index entry every 64 records. */
    public static final int DEFAULT_INDEX_INTERVAL = 64;

    private final Path directory;
    private final int segmentSize;
    private final SyncPolicy syncPolicy;
    private final int indexInterval;
    private final boolean truncateAtCorruption;
    private final boolean pretouch;

    private JournalConfig(final Path directory, final int segmentSize, final SyncPolicy syncPolicy,
                          final int indexInterval, final boolean truncateAtCorruption, final boolean pretouch) {
        this.directory = directory;
        this.segmentSize = segmentSize;
        this.syncPolicy = syncPolicy;
        this.indexInterval = indexInterval;
        this.truncateAtCorruption = truncateAtCorruption;
        this.pretouch = pretouch;
    }

    /**
     * The defaults for a directory: 64 MiB segments, a force every batch, an index entry every 64
     * records, and a corrupt record followed by intact ones refused.
     *
     * @param directory an existing, writable directory that holds only this journal
     * @return the configuration
     * @throws NullPointerException if {@code directory} is null
     */
    public static JournalConfig of(final Path directory) {
        return new JournalConfig(Objects.requireNonNull(directory, "directory must not be null"),
                DEFAULT_SEGMENT_SIZE, SyncPolicy.everyBatch(), DEFAULT_INDEX_INTERVAL, false, false);
    }

    /**
     * Sets the size of each segment file. A record (16-byte header, payload, padding to 8 bytes)
     * must fit in one segment after its header and index. An existing journal keeps the size its
     * segments were written with; new segments get this one.
     *
     * @param bytes between {@link #MIN_SEGMENT_SIZE} and {@link #MAX_SEGMENT_SIZE}, a multiple of 4096
     * @return a new configuration
     * @throws IllegalArgumentException if out of range or not a multiple of 4096
     */
    public JournalConfig segmentSize(final int bytes) {
        if (bytes < MIN_SEGMENT_SIZE || bytes > MAX_SEGMENT_SIZE || bytes % 4096 != 0) {
            throw new IllegalArgumentException("segmentSize must be a multiple of 4096 between "
                    + MIN_SEGMENT_SIZE + " and " + MAX_SEGMENT_SIZE + " bytes, got " + bytes);
        }
        return new JournalConfig(directory, bytes, syncPolicy, indexInterval, truncateAtCorruption, pretouch);
    }

    /**
     * Sets when writes are forced to the device (see {@link SyncPolicy} for what each survives).
     *
     * @param policy the policy
     * @return a new configuration
     * @throws NullPointerException if {@code policy} is null
     */
    public JournalConfig syncPolicy(final SyncPolicy policy) {
        return new JournalConfig(directory, segmentSize,
                Objects.requireNonNull(policy, "syncPolicy must not be null: use SyncPolicy.everyBatch()"),
                indexInterval, truncateAtCorruption, pretouch);
    }

    /**
     * Sets how many records apart the in-segment index entries are: finding a sequence reads one
     * index entry and walks at most {@code interval - 1} records. A power of two is not required.
     *
     * @param interval at least 1
     * @return a new configuration
     * @throws IllegalArgumentException if {@code interval} is below 1
     */
    public JournalConfig indexInterval(final int interval) {
        if (interval < 1) {
            throw new IllegalArgumentException("indexInterval must be at least 1, got " + interval);
        }
        return new JournalConfig(directory, segmentSize, syncPolicy, interval, truncateAtCorruption, pretouch);
    }

    /**
     * Whether opening the journal may cut off a damaged record of the last segment (losing the
     * records after it too), instead of refusing with a {@link JournalCorruptException}: a record
     * that intact records follow, a complete last record (its CRC32C written) that fails its
     * check, or the tail of a last segment file cut short (its length is restored with zeros
     * first). Torn writes are cut off either way (see {@link Journal}). Off by default: such
     * damage after an OS crash with a policy other than {@link SyncPolicy#everyBatch()} is
     * expected; otherwise it means that the storage lost or changed data that had been written,
     * which an operator should see.
     *
     * @param truncate true to cut off and report it in the {@link RecoveryReport}
     * @return a new configuration
     */
    public JournalConfig truncateAtCorruption(final boolean truncate) {
        return new JournalConfig(directory, segmentSize, syncPolicy, indexInterval, truncate, pretouch);
    }

    /**
     * Whether the journal takes the writer's page faults on a thread of its own: a daemon thread
     * ({@code slipstream-journal-pretouch-<directory name>}, started by {@link Journal#open} and
     * stopped and joined by {@link Journal#close}) keeps the 2 MiB after the writer's position
     * written once (a compare-and-set of zero to zero at each 4 KiB page, which changes no byte),
     * waking as often as the writer's pace needs (every 1 ms to 64 ms), and creates the next
     * segment file ahead of need under a temporary name, mapped, its first 2 MiB written once. The writer, which without it takes one minor page
     * fault per page it writes first, then takes none while the thread keeps ahead of it; it
     * never waits for the thread (with no spare ready when it rolls, it creates the segment
     * itself) and leaves the segment it rolls away from to the thread to unmap. Opening the
     * journal touches the writer's first 2 MiB on the opening thread. Segment files hold the same
     * bytes either way. If the thread fails (a full disk, say), it logs a warning through
     * {@link System.Logger} and stops, and the writer does all of it itself from then on.
     *
     * <p>Off by default: it costs a thread that wakes up to 1,000 times a second, and a spare
     * segment of disk; the pages it makes dirty ahead of the writer are at most 4 MiB more than
     * the writer writes.
     * A spare left by a crash is a {@code .segment.tmp} file, which opening the journal deletes
     * and readers never look at.
     *
     * <pre>{@code
     * JournalConfig config = JournalConfig.of(dir).syncPolicy(SyncPolicy.never()).pretouch(true);
     * }</pre>
     *
     * @param enabled true to take the writer's page faults on the pretoucher's thread
     * @return a new configuration
     */
    public JournalConfig pretouch(final boolean enabled) {
        return new JournalConfig(directory, segmentSize, syncPolicy, indexInterval, truncateAtCorruption, enabled);
    }

    /**
     * Whether the writer's pages are touched ahead of it on the pretoucher's thread.
     *
     * @return true if it is
     */
    public boolean pretouch() {
        return pretouch;
    }

    /**
     * The journal's directory.
     *
     * @return the directory
     */
    public Path directory() {
        return directory;
    }

    /**
     * The size of new segment files.
     *
     * @return bytes
     */
    public int segmentSize() {
        return segmentSize;
    }

    /**
     * When writes are forced.
     *
     * @return the policy
     */
    public SyncPolicy syncPolicy() {
        return syncPolicy;
    }

    /**
     * Records between two index entries.
     *
     * @return the interval
     */
    public int indexInterval() {
        return indexInterval;
    }

    /**
     * Whether a corrupt last-segment record followed by intact ones is cut off on open.
     *
     * @return true if it is
     */
    public boolean truncateAtCorruption() {
        return truncateAtCorruption;
    }

    @Override
    public String toString() {
        return "JournalConfig[" + directory + ", segmentSize=" + segmentSize + ", " + syncPolicy
                + ", indexInterval=" + indexInterval + ", truncateAtCorruption=" + truncateAtCorruption + ", pretouch=" + pretouch + "]";
    }
}
