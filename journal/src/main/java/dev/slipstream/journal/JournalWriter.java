package dev.slipstream.journal;

import dev.slipstream.sequence.Sequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Appends records to the current segment and forces them by the sync policy. Used by one thread
 * at a time (the journal stage's, or the thread that opened the journal before the stage starts;
 * {@code Thread.start} orders the hand-over). Only {@link #writtenSequence()} and
 * {@link #durableSequence()} are read by other threads.
 *
 * <p>A record is written in three steps so that a codec's failure leaves nothing behind:
 * {@link #claim} (room for it, rolling to a new segment if needed, and a buffer bounded to the
 * declared payload), the codec's encode, then {@link #complete} (header, CRC32C last, index
 * entry) or {@link #abandon} (zero what the codec wrote). Every byte from the write position to
 * the end of the segment stays zero, which is how a reader finds the end of the data.
 *
 * <p>A roll takes the {@link SegmentPretoucher}'s spare when one is ready (its first pages already
 * resident and writable), and otherwise creates the segment itself: it never waits. With a
 * pretoucher the writer tells its {@link AheadToucher} where it writes, and leaves the segment it
 * rolls away from to it to unmap.
 */
final class JournalWriter {
    private final Path directory;
    private final int newSegmentSize;
    private final int indexInterval;
    private final SyncPolicy.Kind syncKind;
    private final long syncIntervalNanos;
    private final Consumer<Segment> onNewSegment;
    /** Null unless the configuration asks for pretouched segments. */
    private final SegmentPretoucher pretoucher;
    /** Null unless the configuration asks for pretouched segments. */
    private final AheadToucher ahead;
    private final CRC32C crc = new CRC32C();
    /** Highest sequence written to the page cache: survives a process kill. */
    private final Sequence written;
    /** Highest sequence forced to the device: survives an OS crash or power loss. */
    private final Sequence durable;

    private Segment segment;
    /** The codec's view: position and limit bound each payload. */
    private ByteBuffer payloadView;
    private ByteBuffer crcView;
    private int position;
    /** Where the writes not yet forced start. */
    private int dirtyFrom;
    private long nextSequence;
    /** Records until the next index entry (0: this record gets one). */
    private int indexCountdown;
    private long lastForceNanos;
    private int claimOffset = -1;
    private int claimLength;
    private boolean closed;

    JournalWriter(final JournalConfig config, final Segment segment, final int position, final long nextSequence,
                  final boolean recoveredDurable, final Consumer<Segment> onNewSegment,
                  final SegmentPretoucher pretoucher, final AheadToucher ahead) {
        this.directory = config.directory();
        this.newSegmentSize = config.segmentSize();
        this.indexInterval = config.indexInterval();
        this.syncKind = config.syncPolicy().kind();
        this.syncIntervalNanos = config.syncPolicy().intervalNanos();
        this.onNewSegment = onNewSegment;
        this.pretoucher = pretoucher;
        this.ahead = ahead;
        this.written = new Sequence(nextSequence - 1);
        this.durable = new Sequence(recoveredDurable ? nextSequence - 1 : Sequence.INITIAL_VALUE);
        this.nextSequence = nextSequence;
        this.lastForceNanos = System.nanoTime();
        use(segment, position);
    }

    private void use(final Segment next, final int at) {
        this.segment = next;
        this.payloadView = next.newView();
        this.crcView = next.newView();
        this.position = at;
        this.dirtyFrom = at;
        final long records = nextSequence - next.firstSequence;
        final int interval = next.indexInterval;
        this.indexCountdown = (int) ((interval - records % interval) % interval);
        if (ahead != null) {
            ahead.follow(next.mapping, at);
        }
    }

    long nextSequence() {
        return nextSequence;
    }

    long writtenSequence() {
        // acquire: pairs with the release in endBatch(); records up to the value are in the mapping
        return written.get();
    }

    long durableSequence() {
        // acquire: pairs with the release in force(); records up to the value are on the device
        return durable.get();
    }

    Path file() {
        return segment.file;
    }

    int position() {
        return position;
    }

    long firstSequenceOfSegment() {
        return segment.firstSequence;
    }

    /**
     * Makes room for a record and returns the buffer its payload goes into: position at the
     * payload, limit {@code payloadLength} bytes further.
     */
    ByteBuffer claim(final long sequence, final int payloadLength) {
        if (closed) {
            throw new JournalException("journal " + directory + " is closed: cannot write sequence " + sequence,
                    segment.file, position, sequence, null);
        }
        final int maxPayload = Segment.maxPayload(newSegmentSize, indexInterval);
        if (payloadLength < 0 || payloadLength > maxPayload) {
            throw new JournalException("record for sequence " + sequence + " has a payload of " + payloadLength
                    + " bytes; a segment of " + newSegmentSize + " bytes holds payloads of 0 to " + maxPayload
                    + " bytes: raise JournalConfig.segmentSize or split the event", segment.file, position,
                    sequence, null);
        }
        final int length = Segment.RECORD_HEADER + payloadLength;
        if (position + Segment.aligned(length) > segment.size) {
            roll(sequence);
        }
        claimOffset = position;
        claimLength = length;
        // the codec may have changed the byte order of the view last time
        payloadView.order(ByteOrder.LITTLE_ENDIAN);
        payloadView.limit(position + length).position(position + Segment.RECORD_HEADER);
        return payloadView;
    }

    /**
     * Writes the claimed record's header and CRC32C (last) and its index entry; the record is then
     * in the journal. The stage has checked that the codec filled exactly the claimed payload.
     */
    void complete(final long sequence) {
        final int offset = claimOffset;
        final int length = claimLength;
        segment.mapping.putLong(offset + 8, sequence);
        segment.mapping.putInt(offset + 4, length);
        segment.putCrcRelease(offset, Segment.crcOf(offset, length, crc, crcView));
        if (indexCountdown == 0) {
            segment.putIndexEntry((int) ((sequence - segment.firstSequence) / segment.indexInterval), offset);
            indexCountdown = segment.indexInterval;
        }
        indexCountdown--;
        position = offset + Segment.aligned(length);
        nextSequence = sequence + 1;
        claimOffset = -1;
    }

    /** Zeroes whatever the codec wrote for the claimed record, which is then not in the journal. */
    void abandon() {
        if (claimOffset < 0) {
            return;
        }
        final int end = Math.min(segment.size, Math.max(claimOffset + claimLength, payloadView.limit()));
        segment.zero(claimOffset, end);
        claimOffset = -1;
    }

    int claimedOffset() {
        return claimOffset;
    }

    /** The end of a batch: publish the written sequence, and force as the policy says. */
    void endBatch() {
        // release: a reader of writtenSequence() sees the records up to it in the mapping
        written.set(nextSequence - 1);
        if (ahead != null) {
            ahead.writerAt(position);
        }
        switch (syncKind) {
            case EVERY_BATCH:
                force();
                break;
            case INTERVAL:
                if (System.nanoTime() - lastForceNanos >= syncIntervalNanos) {
                    force();
                }
                break;
            default:
                break;
        }
    }

    /** Forces what is written and not yet forced, unless the policy is never. */
    void forcePending() {
        written.set(nextSequence - 1);
        if (syncKind != SyncPolicy.Kind.NEVER) {
            force();
        }
    }

    private void force() {
        if (position > dirtyFrom) {
            try {
                segment.mapping.force(dirtyFrom, position - dirtyFrom);
            } catch (UncheckedIOException e) {
                throw new JournalException("cannot force " + segment.file + " bytes " + dirtyFrom + " to " + position
                        + " (sequences up to " + (nextSequence - 1) + "): " + e.getCause()
                        + "; the records after sequence " + durable.get() + " may not be durable",
                        segment.file, dirtyFrom, durable.get() + 1, e);
            }
            dirtyFrom = position;
        }
        lastForceNanos = System.nanoTime();
        // release: whoever reads this value (a client being acknowledged) may rely on the records
        // up to it being on the device; the force above returned before this store
        durable.set(nextSequence - 1);
    }

    /** Finishes the current segment (forced whole unless the policy is never) and starts the next. */
    private void roll(final long firstSequence) {
        final Segment full = segment;
        final boolean sync = syncKind != SyncPolicy.Kind.NEVER;
        if (sync) {
            try {
                full.mapping.force();
            } catch (UncheckedIOException e) {
                throw new JournalException("cannot force the full segment " + full.file + ": " + e.getCause(),
                        full.file, dirtyFrom, durable.get() + 1, e);
            }
        }
        final Segment next = nextSegment(firstSequence, sync);
        onNewSegment.accept(next);
        use(next, next.dataStart);
        if (sync) {
            durable.set(nextSequence - 1);
        }
        if (ahead != null) {
            // the toucher may be touching it still: its thread unmaps it after its step
            ahead.retire(full.mapping);
        } else {
            Unmapper.unmap(full.mapping);
        }
    }

    /** The pretoucher's spare if one is ready (its pages resident and writable), else a new file. */
    private Segment nextSegment(final long firstSequence, final boolean sync) {
        final SpareSegment spare = pretoucher == null ? null : pretoucher.takeReady();
        if (spare == null) {
            return Segment.create(directory, firstSequence, newSegmentSize, indexInterval, sync);
        }
        try {
            return Segment.adopt(spare, directory, firstSequence, indexInterval, sync);
        } catch (RuntimeException | Error e) {
            try {
                Unmapper.unmap(spare.pages());
                Files.deleteIfExists(spare.file());
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /**
     * Forces (unless the policy is never) and unmaps; the writer is unusable afterwards. With a
     * pretoucher, called after its thread has been joined (nothing touches the mapping any more).
     */
    void close() {
        if (closed) {
            return;
        }
        try {
            forcePending();
        } finally {
            closed = true;
            Unmapper.unmap(segment.mapping);
        }
    }
}
