package dev.slipstream.cluster;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Where a {@link StreamingStageState} reads its state when a snapshot is loaded: the section's
 * bytes in the order {@link SnapshotOutput} wrote them, taken from the snapshot one chunk at a
 * time, so a state of any size is never held a second time. Numbers are read little-endian.
 *
 * <p>The stage reads exactly {@link #length()} bytes: a read past them is refused, and so is a
 * stage that returns with bytes left. A snapshot that ends early, or a chunk out of place, is
 * refused with an {@code IllegalStateException} during the read that meets it. Service thread
 * only; valid only inside {@link StreamingStageState#loadSnapshot}.
 *
 * <pre>{@code
 * public void loadSnapshot(SnapshotInput input) {
 *     count = input.getLong();
 *     input.getBytes(table, 0, (int) input.remaining());
 * }
 * }</pre>
 */
public final class SnapshotInput {
    private final SnapshotFormat.MessageSource source;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[Long.BYTES]);
    /** The array a {@code getBytes(byte[], ...)} reads into, seen as a buffer. */
    private final UnsafeBuffer arrayView = new UnsafeBuffer(0, 0);
    private String name;
    private int index;
    private long length;
    /** Bytes of the section in chunks taken from the source. */
    private long received;
    /** The current chunk's bytes, in the source's buffer: from {@code at} to {@code end}. */
    private DirectBuffer chunk;
    private int at;
    private int end;

    SnapshotInput(final SnapshotFormat.MessageSource source) {
        this.source = source;
    }

    /** Starts a section whose header has been read. */
    void begin(final String name, final int index, final long length) {
        this.name = name;
        this.index = index;
        this.length = length;
        this.received = 0;
        this.chunk = null;
        this.at = 0;
        this.end = 0;
    }

    /** @throws IllegalStateException if the stage left bytes unread */
    void finish() {
        if (remaining() != 0) {
            throw new IllegalStateException("stage state '" + name + "' read " + (length - remaining()) + " of its "
                    + length + " snapshot bytes; loadSnapshot must read the whole state");
        }
    }

    /** @return the section's length: the bytes the stage wrote */
    public long length() {
        return length;
    }

    /** @return the bytes not read yet */
    public long remaining() {
        return length - received + (end - at);
    }

    /**
     * @return the next byte
     * @throws IllegalStateException if every byte is read, or the snapshot ends early
     */
    public byte getByte() {
        require(1);
        fill();
        return chunk.getByte(at++);
    }

    /**
     * @return the next int, little-endian
     * @throws IllegalStateException if fewer than 4 bytes remain, or the snapshot ends early
     */
    public int getInt() {
        require(Integer.BYTES);
        fill();
        if (end - at >= Integer.BYTES) {
            final int value = chunk.getInt(at, ByteOrder.LITTLE_ENDIAN);
            at += Integer.BYTES;
            return value;
        }
        // straddles two chunks
        getBytes(scratch, 0, Integer.BYTES);
        return scratch.getInt(0, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return the next long, little-endian
     * @throws IllegalStateException if fewer than 8 bytes remain, or the snapshot ends early
     */
    public long getLong() {
        require(Long.BYTES);
        fill();
        if (end - at >= Long.BYTES) {
            final long value = chunk.getLong(at, ByteOrder.LITTLE_ENDIAN);
            at += Long.BYTES;
            return value;
        }
        getBytes(scratch, 0, Long.BYTES);
        return scratch.getLong(0, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Reads bytes into a buffer.
     *
     * @param destination where they go
     * @param offset where in {@code destination}
     * @param count how many, zero or more
     * @throws IllegalArgumentException if the range is not inside {@code destination}
     * @throws IllegalStateException if fewer than {@code count} bytes remain, or the snapshot ends early
     */
    public void getBytes(final MutableDirectBuffer destination, final int offset, final int count) {
        if (offset < 0 || count < 0 || (long) offset + count > destination.capacity()) {
            throw new IllegalArgumentException("bytes " + offset + ".." + ((long) offset + count) + " are not inside "
                    + "the destination buffer of capacity " + destination.capacity() + "; expected 0 <= offset, "
                    + "0 <= count, offset + count <= capacity");
        }
        require(count);
        int into = offset;
        int left = count;
        while (left > 0) {
            fill();
            final int n = Math.min(left, end - at);
            destination.putBytes(into, chunk, at, n);
            at += n;
            into += n;
            left -= n;
        }
    }

    /**
     * Reads bytes into an array.
     *
     * @param destination where they go
     * @param offset where in {@code destination}
     * @param count how many, zero or more
     * @throws IllegalArgumentException if the range is not inside {@code destination}
     * @throws IllegalStateException if fewer than {@code count} bytes remain, or the snapshot ends early
     */
    public void getBytes(final byte[] destination, final int offset, final int count) {
        if (offset < 0 || count < 0 || (long) offset + count > destination.length) {
            throw new IllegalArgumentException("bytes " + offset + ".." + ((long) offset + count) + " are not inside "
                    + "the destination array of length " + destination.length + "; expected 0 <= offset, "
                    + "0 <= count, offset + count <= array length");
        }
        // one copy loop for both overloads: the array seen as a buffer (a view, no copy)
        arrayView.wrap(destination);
        getBytes(arrayView, offset, count);
    }

    private void require(final int count) {
        if (count > remaining()) {
            throw new IllegalStateException("stage state '" + name + "' read past the end of its " + length
                    + " snapshot bytes (" + (length - remaining()) + " read, " + count + " more asked)");
        }
    }

    /** Takes the next chunk from the snapshot once the current one is read. */
    private void fill() {
        if (at < end) {
            return;
        }
        final int messageLength = source.next();
        if (messageLength < 0) {
            throw new IllegalStateException("snapshot ended in section '" + name + "' after " + received + " of its "
                    + length + " bytes");
        }
        final DirectBuffer message = source.buffer();
        final int type = messageLength >= SnapshotFormat.CHUNK_HEADER_LENGTH ? message.getInt(0) : 0;
        final int chunkIndex = type == SnapshotFormat.CHUNK ? message.getInt(4) : -1;
        final int chunkOffset = type == SnapshotFormat.CHUNK ? message.getInt(8) : -1;
        final int n = messageLength - SnapshotFormat.CHUNK_HEADER_LENGTH;
        if (type != SnapshotFormat.CHUNK || chunkIndex != index || chunkOffset != received || n <= 0
                || received + n > length) {
            throw new IllegalStateException("snapshot section '" + name + "' (index " + index + ", " + length
                    + " bytes) is malformed after " + received + " bytes: expected a chunk of it at offset " + received
                    + ", got " + SnapshotFormat.describe(message, messageLength));
        }
        chunk = message;
        at = SnapshotFormat.CHUNK_HEADER_LENGTH;
        end = messageLength;
        received += n;
    }
}
