package dev.slipstream.cluster;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Where a {@link StreamingStageState} writes its state during a snapshot: the bytes go into the
 * snapshot publication one chunk at a time, so a state of any size is never held a second time.
 * A chunk is sent as soon as it is full. A {@link #putBytes(DirectBuffer, int, int) putBytes} of
 * more than a chunk first tops up the chunk being filled, then sends each whole chunk of the
 * rest straight from the caller's buffer (the publication copies it into its log, once), and
 * keeps only the tail. Numbers are written little-endian.
 *
 * <p>The stage writes exactly the number of bytes its {@link StreamingStageState#snapshotLength()}
 * announced: a write past it is refused at once, and a shortfall when the stage returns. Service
 * thread only; valid only inside {@link StreamingStageState#writeSnapshot}.
 *
 * <pre>{@code
 * public void writeSnapshot(SnapshotOutput output) {
 *     output.putLong(count);
 *     output.putBytes(table, 0, table.capacity());   // a large buffer goes out chunk by chunk
 * }
 * }</pre>
 */
public final class SnapshotOutput {
    private final SnapshotFormat.MessageSink sink;
    private final int chunkLength;
    /** The chunk being filled: its 12-byte CHUNK header, then up to {@code chunkLength} bytes. */
    private final UnsafeBuffer chunk;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[Long.BYTES]);
    /** The array a {@code putBytes(byte[], ...)} writes from, seen as a buffer. */
    private final UnsafeBuffer arrayView = new UnsafeBuffer(0, 0);
    private String name;
    private int index;
    private long announced;
    /** Bytes of this section already sent in chunks. */
    private long sent;
    /** Bytes in the chunk being filled. */
    private int filled;

    SnapshotOutput(final SnapshotFormat.MessageSink sink, final int chunkLength) {
        this.sink = sink;
        this.chunkLength = chunkLength;
        this.chunk = new UnsafeBuffer(new byte[SnapshotFormat.CHUNK_HEADER_LENGTH + chunkLength]);
    }

    /** Starts a section whose header has been sent. */
    void begin(final String name, final int index, final long announced) {
        this.name = name;
        this.index = index;
        this.announced = announced;
        this.sent = 0;
        this.filled = 0;
    }

    /**
     * Sends the last, partly filled chunk.
     *
     * @throws IllegalStateException if fewer bytes were written than announced
     */
    void finish() {
        if (written() != announced) {
            throw new IllegalStateException("stage state '" + name + "' wrote " + written() + " bytes but its "
                    + "snapshotLength() announced " + announced + "; writeSnapshot must write exactly the announced "
                    + "length");
        }
        if (filled > 0) {
            sendFilled();
        }
    }

    /** @return the bytes written so far in this section */
    public long written() {
        return sent + filled;
    }

    /** @return the bytes still to write: the announced length less those written */
    public long remaining() {
        return announced - written();
    }

    /**
     * Writes one byte.
     *
     * @param value the byte
     * @throws IllegalStateException if the announced length is written already
     */
    public void putByte(final byte value) {
        reserve(1);
        chunk.putByte(SnapshotFormat.CHUNK_HEADER_LENGTH + filled, value);
        filled++;
        sendIfFull();
    }

    /**
     * Writes an int, little-endian.
     *
     * @param value the int
     * @throws IllegalStateException if it would go past the announced length
     */
    public void putInt(final int value) {
        reserve(Integer.BYTES);
        if (chunkLength - filled >= Integer.BYTES) {
            chunk.putInt(SnapshotFormat.CHUNK_HEADER_LENGTH + filled, value, ByteOrder.LITTLE_ENDIAN);
            filled += Integer.BYTES;
            sendIfFull();
        } else {
            // straddles two chunks: the bytes are cut where the chunk ends
            scratch.putInt(0, value, ByteOrder.LITTLE_ENDIAN);
            copy(scratch, 0, Integer.BYTES);
        }
    }

    /**
     * Writes a long, little-endian.
     *
     * @param value the long
     * @throws IllegalStateException if it would go past the announced length
     */
    public void putLong(final long value) {
        reserve(Long.BYTES);
        if (chunkLength - filled >= Long.BYTES) {
            chunk.putLong(SnapshotFormat.CHUNK_HEADER_LENGTH + filled, value, ByteOrder.LITTLE_ENDIAN);
            filled += Long.BYTES;
            sendIfFull();
        } else {
            scratch.putLong(0, value, ByteOrder.LITTLE_ENDIAN);
            copy(scratch, 0, Long.BYTES);
        }
    }

    /**
     * Writes bytes from a buffer. Whole chunks are sent from {@code source} directly.
     *
     * @param source the bytes
     * @param offset where they start in {@code source}
     * @param length how many, zero or more
     * @throws IllegalArgumentException if the range is not inside {@code source}
     * @throws IllegalStateException if it would go past the announced length
     */
    public void putBytes(final DirectBuffer source, final int offset, final int length) {
        if (offset < 0 || length < 0 || (long) offset + length > source.capacity()) {
            throw new IllegalArgumentException("bytes " + offset + ".." + ((long) offset + length) + " are not inside "
                    + "the source buffer of capacity " + source.capacity() + "; expected 0 <= offset, 0 <= length, "
                    + "offset + length <= capacity");
        }
        reserve(length);
        int at = offset;
        int left = length;
        if (filled > 0 && left >= chunkLength - filled + chunkLength) {
            // top up the chunk being filled, so that whole chunks of the rest can go without a copy
            final int n = chunkLength - filled;
            copy(source, at, n);
            at += n;
            left -= n;
        }
        while (left >= chunkLength) {
            sink.accept(header(), 0, SnapshotFormat.CHUNK_HEADER_LENGTH, source, at, chunkLength);
            sent += chunkLength;
            at += chunkLength;
            left -= chunkLength;
        }
        if (left > 0) {
            copy(source, at, left);
        }
    }

    /**
     * Writes bytes from an array.
     *
     * @param source the bytes
     * @param offset where they start in {@code source}
     * @param length how many, zero or more
     * @throws IllegalArgumentException if the range is not inside {@code source}
     * @throws IllegalStateException if it would go past the announced length
     */
    public void putBytes(final byte[] source, final int offset, final int length) {
        if (offset < 0 || length < 0 || (long) offset + length > source.length) {
            throw new IllegalArgumentException("bytes " + offset + ".." + ((long) offset + length) + " are not inside "
                    + "the source array of length " + source.length + "; expected 0 <= offset, 0 <= length, "
                    + "offset + length <= array length");
        }
        // the array seen as a buffer (a view, no copy): whole chunks of it go without a copy too
        arrayView.wrap(source);
        putBytes(arrayView, offset, length);
    }

    /** Copies into the chunk being filled, sending each chunk as it fills. */
    private void copy(final DirectBuffer source, final int offset, final int length) {
        int at = offset;
        int left = length;
        while (left > 0) {
            final int n = Math.min(left, chunkLength - filled);
            chunk.putBytes(SnapshotFormat.CHUNK_HEADER_LENGTH + filled, source, at, n);
            filled += n;
            at += n;
            left -= n;
            sendIfFull();
        }
    }

    private void reserve(final int length) {
        if (written() + length > announced) {
            throw new IllegalStateException("stage state '" + name + "' wrote past the " + announced + " bytes its "
                    + "snapshotLength() announced (" + written() + " written, " + length + " more asked); "
                    + "snapshotLength() must return the exact length writeSnapshot writes");
        }
    }

    private void sendIfFull() {
        if (filled == chunkLength) {
            sendFilled();
        }
    }

    private void sendFilled() {
        header();
        sink.accept(chunk, 0, SnapshotFormat.CHUNK_HEADER_LENGTH + filled);
        sent += filled;
        filled = 0;
    }

    /** Writes the header of the next chunk, which starts at the section's offset {@code sent}. */
    private UnsafeBuffer header() {
        chunk.putInt(0, SnapshotFormat.CHUNK);
        chunk.putInt(4, index);
        // format 1 keeps a section's offsets in an int; a section's length was checked to fit
        chunk.putInt(8, (int) sent);
        return chunk;
    }
}
