package dev.slipstream.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A clustered pipeline's snapshot as messages (format {@value #VERSION}; a test keeps a snapshot
 * of this format as a file and checks that this version still writes those bytes and loads them): a begin message with the number of sections, per
 * section a header (index, total length, name) and its bytes cut into chunks, then an end
 * message. Section 0 is the dedup table; section {@code i > 0} is the stage state registered
 * {@code i}-th. Every message starts with its type and section index.
 *
 * <pre>
 * BEGIN   type | version | sections
 * SECTION type | index   | total length | name length | name (UTF-8)
 * CHUNK   type | index   | offset       | bytes
 * END     type | sections
 * </pre>
 */
final class SnapshotFormat {
    static final int VERSION = 1;
    static final int BEGIN = 0x534C5001;
    static final int SECTION = 0x534C5002;
    static final int CHUNK = 0x534C5003;
    static final int END = 0x534C5004;
    static final int CHUNK_HEADER_LENGTH = 12;

    private SnapshotFormat() {
    }

    /** Where the writer's messages go: a snapshot publication, or (in tests) a file. */
    @FunctionalInterface
    interface MessageSink {
        /** Takes one whole message; returns once it is taken. */
        void accept(DirectBuffer buffer, int offset, int length);
    }

    /** Writes messages to a snapshot publication, retrying on back-pressure. */
    static final class Writer {
        private final MessageSink sink;
        private final int chunkLength;
        private final UnsafeBuffer message;

        Writer(final ExclusivePublication publication, final IdleStrategy idle, final int maxChunkLength) {
            this((buffer, offset, length) -> offer(publication, idle, buffer, offset, length),
                    publication.maxMessageLength(), maxChunkLength);
        }

        /** A writer to any sink whose messages may be up to {@code maxMessageLength} bytes. */
        Writer(final MessageSink sink, final int maxMessageLength, final int maxChunkLength) {
            this.sink = sink;
            this.chunkLength = Math.max(1, Math.min(maxChunkLength, maxMessageLength - CHUNK_HEADER_LENGTH));
            this.message = new UnsafeBuffer(new byte[CHUNK_HEADER_LENGTH + chunkLength]);
        }

        int chunkLength() {
            return chunkLength;
        }

        void begin(final int sections) {
            message.putInt(0, BEGIN);
            message.putInt(4, VERSION);
            message.putInt(8, sections);
            offer(message, 0, 12);
        }

        void section(final int index, final String name, final DirectBuffer bytes, final int length) {
            final byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
            final UnsafeBuffer header = new UnsafeBuffer(new byte[16 + nameBytes.length]);
            header.putInt(0, SECTION);
            header.putInt(4, index);
            header.putInt(8, length);
            header.putInt(12, nameBytes.length);
            header.putBytes(16, nameBytes);
            offer(header, 0, header.capacity());
            for (int at = 0; at < length; at += chunkLength) {
                final int n = Math.min(chunkLength, length - at);
                message.putInt(0, CHUNK);
                message.putInt(4, index);
                message.putInt(8, at);
                message.putBytes(CHUNK_HEADER_LENGTH, bytes, at, n);
                offer(message, 0, CHUNK_HEADER_LENGTH + n);
            }
        }

        void end(final int sections) {
            message.putInt(0, END);
            message.putInt(4, sections);
            offer(message, 0, 8);
        }

        private void offer(final DirectBuffer buffer, final int offset, final int length) {
            sink.accept(buffer, offset, length);
        }

        private static void offer(final ExclusivePublication publication, final IdleStrategy idle,
                final DirectBuffer buffer, final int offset, final int length) {
            idle.reset();
            while (true) {
                final long result = publication.offer(buffer, offset, length);
                if (result > 0) {
                    return;
                }
                if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                    throw new IllegalStateException("snapshot publication refused a message: "
                            + Publication.errorString(result));
                }
                idle.idle();
            }
        }
    }

    /** Puts the sections back together from the snapshot's messages. */
    static final class Reader implements FragmentHandler {
        private final List<String> names = new ArrayList<>();
        private final List<ExpandableArrayBuffer> sections = new ArrayList<>();
        private final List<int[]> received = new ArrayList<>();
        private int expected = -1;
        private boolean ended;

        @Override
        public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
            final int type = buffer.getInt(offset);
            switch (type) {
                case BEGIN -> {
                    final int version = buffer.getInt(offset + 4);
                    if (version != VERSION) {
                        throw new IllegalStateException("snapshot of format version " + version + ", but this "
                                + "version of the service reads format " + VERSION + " only: start the member with a "
                                + "version that reads format " + version + " (the one that wrote it, or a later one)");
                    }
                    expected = buffer.getInt(offset + 8);
                }
                case SECTION -> {
                    final int index = buffer.getInt(offset + 4);
                    if (index != names.size()) {
                        throw new IllegalStateException("snapshot section " + index + " out of order; expected "
                                + names.size());
                    }
                    final int total = buffer.getInt(offset + 8);
                    final int nameLength = buffer.getInt(offset + 12);
                    names.add(buffer.getStringWithoutLengthUtf8(offset + 16, nameLength));
                    sections.add(new ExpandableArrayBuffer(Math.max(1, total)));
                    received.add(new int[] {total, 0});
                }
                case CHUNK -> {
                    final int index = buffer.getInt(offset + 4);
                    final int at = buffer.getInt(offset + 8);
                    final int n = length - CHUNK_HEADER_LENGTH;
                    sections.get(index).putBytes(at, buffer, offset + CHUNK_HEADER_LENGTH, n);
                    received.get(index)[1] += n;
                }
                case END -> ended = true;
                default -> throw new IllegalStateException("not a pipeline snapshot message: type 0x"
                        + Integer.toHexString(type));
            }
        }

        boolean isComplete() {
            return ended;
        }

        /** @throws IllegalStateException if a section is missing or incomplete */
        void check() {
            if (expected != names.size()) {
                throw new IllegalStateException("snapshot announced " + expected + " sections and held "
                        + names.size());
            }
            for (int i = 0; i < received.size(); i++) {
                final int[] r = received.get(i);
                if (r[0] != r[1]) {
                    throw new IllegalStateException("snapshot section '" + names.get(i) + "' announced " + r[0]
                            + " bytes and held " + r[1]);
                }
            }
        }

        List<String> names() {
            return names;
        }

        DirectBuffer section(final int index) {
            return sections.get(index);
        }

        int length(final int index) {
            return received.get(index)[0];
        }
    }
}
