package dev.slipstream.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.ImageControlledFragmentAssembler;
import io.aeron.Publication;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import java.nio.charset.StandardCharsets;
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
 *
 * <p>Lengths and offsets are ints, so a section holds at most {@value #MAX_SECTION_LENGTH} bytes.
 * A chunk holds the configured chunk length except the section's last; the same state gives
 * the same messages whether the stage streamed it or wrote it into a buffer.
 */
final class SnapshotFormat {
    static final int VERSION = 1;
    static final int BEGIN = 0x534C5001;
    static final int SECTION = 0x534C5002;
    static final int CHUNK = 0x534C5003;
    static final int END = 0x534C5004;
    static final int CHUNK_HEADER_LENGTH = 12;
    /** The longest section: its length and its chunks' offsets are ints. */
    static final long MAX_SECTION_LENGTH = Integer.MAX_VALUE;

    private SnapshotFormat() {
    }

    /** Where the writer's messages go: a snapshot publication, or (in tests) a file. */
    interface MessageSink {
        /** Takes one whole message; returns once it is taken. */
        void accept(DirectBuffer buffer, int offset, int length);

        /**
         * Takes one message made of two parts (a chunk's header, then its bytes in the stage's own
         * buffer); returns once it is taken. This default joins them into one message.
         */
        default void accept(final DirectBuffer head, final int headOffset, final int headLength,
                final DirectBuffer body, final int bodyOffset, final int bodyLength) {
            final UnsafeBuffer joined = new UnsafeBuffer(new byte[headLength + bodyLength]);
            joined.putBytes(0, head, headOffset, headLength);
            joined.putBytes(headLength, body, bodyOffset, bodyLength);
            accept(joined, 0, joined.capacity());
        }
    }

    /** Where the loader's messages come from, one whole message at a time. */
    interface MessageSource {
        /**
         * Takes the next message into {@link #buffer()}, from offset 0.
         *
         * @return its length, or -1 if the snapshot has ended
         */
        int next();

        /** @return the latest message's bytes, valid until the next call to {@link #next()} */
        DirectBuffer buffer();
    }

    /** @return what a message is, for an error that shows what was found instead */
    static String describe(final DirectBuffer message, final int length) {
        if (length < 8) {
            return "a message of " + length + " bytes";
        }
        final int type = message.getInt(0);
        return switch (type) {
            case BEGIN -> "a BEGIN message";
            case SECTION -> "the header of section " + message.getInt(4);
            case CHUNK -> length < CHUNK_HEADER_LENGTH ? "a chunk of " + length + " bytes"
                    : "a chunk of section " + message.getInt(4) + " at offset " + message.getInt(8) + " with "
                    + (length - CHUNK_HEADER_LENGTH) + " bytes";
            case END -> "the END message";
            default -> "a message of unknown type 0x" + Integer.toHexString(type);
        };
    }

    /** Sends messages to a snapshot publication, waiting out back-pressure. */
    static final class PublicationSink implements MessageSink {
        private final ExclusivePublication publication;
        private final IdleStrategy idle;

        PublicationSink(final ExclusivePublication publication, final IdleStrategy idle) {
            this.publication = publication;
            this.idle = idle;
        }

        @Override
        public void accept(final DirectBuffer buffer, final int offset, final int length) {
            idle.reset();
            long result;
            while ((result = publication.offer(buffer, offset, length)) <= 0) {
                pushedBack(result);
            }
        }

        @Override
        public void accept(final DirectBuffer head, final int headOffset, final int headLength,
                final DirectBuffer body, final int bodyOffset, final int bodyLength) {
            // two parts in one offer: the stage's bytes go into the log buffer without a copy here
            idle.reset();
            long result;
            while ((result = publication.offer(head, headOffset, headLength, body, bodyOffset, bodyLength)) <= 0) {
                pushedBack(result);
            }
        }

        private void pushedBack(final long result) {
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("snapshot publication refused a message: "
                        + Publication.errorString(result));
            }
            idle.idle();
        }
    }

    /** Writes the snapshot's messages: begin, then each section's header and chunks, then end. */
    static final class Writer {
        private final MessageSink sink;
        private final int chunkLength;
        private final UnsafeBuffer message = new UnsafeBuffer(new byte[12]);
        private final SnapshotOutput output;

        Writer(final ExclusivePublication publication, final IdleStrategy idle, final int maxChunkLength) {
            this(new PublicationSink(publication, idle), publication.maxMessageLength(), maxChunkLength);
        }

        /** A writer to any sink whose messages may be up to {@code maxMessageLength} bytes. */
        Writer(final MessageSink sink, final int maxMessageLength, final int maxChunkLength) {
            this.sink = sink;
            this.chunkLength = Math.max(1, Math.min(maxChunkLength, maxMessageLength - CHUNK_HEADER_LENGTH));
            this.output = new SnapshotOutput(sink, chunkLength);
        }

        int chunkLength() {
            return chunkLength;
        }

        void begin(final int sections) {
            message.putInt(0, BEGIN);
            message.putInt(4, VERSION);
            message.putInt(8, sections);
            sink.accept(message, 0, 12);
        }

        /** Writes a section whose bytes are all in {@code bytes}, from offset 0. */
        void section(final int index, final String name, final DirectBuffer bytes, final int length) {
            final SnapshotOutput out = section(index, name, length);
            out.putBytes(bytes, 0, length);
            out.finish();
        }

        /**
         * Sends a section's header; the caller writes its {@code length} bytes into the output
         * returned, then calls its {@code finish}.
         *
         * @throws IllegalArgumentException if the length is negative or over {@link #MAX_SECTION_LENGTH}
         */
        SnapshotOutput section(final int index, final String name, final long length) {
            if (length < 0 || length > MAX_SECTION_LENGTH) {
                throw new IllegalArgumentException("snapshot section '" + name + "' announced " + length + " bytes; "
                        + "expected 0 to " + MAX_SECTION_LENGTH + " (2 GiB - 1), the most one section holds in "
                        + "snapshot format " + VERSION + ": split a larger state over several registered stage states");
            }
            final byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
            final UnsafeBuffer header = new UnsafeBuffer(new byte[16 + nameBytes.length]);
            header.putInt(0, SECTION);
            header.putInt(4, index);
            header.putInt(8, (int) length);
            header.putInt(12, nameBytes.length);
            header.putBytes(16, nameBytes);
            sink.accept(header, 0, header.capacity());
            output.begin(name, index, length);
            return output;
        }

        void end(final int sections) {
            message.putInt(0, END);
            message.putInt(4, sections);
            sink.accept(message, 0, 8);
        }
    }

    /**
     * The messages of a snapshot image, one at a time: each is put together from its fragments
     * and copied out (one message, not the whole snapshot, is held here).
     */
    static final class ImageSource implements MessageSource, ControlledFragmentHandler {
        private final Image image;
        private final IdleStrategy idle;
        private final ImageControlledFragmentAssembler assembler = new ImageControlledFragmentAssembler(this);
        private final ExpandableArrayBuffer message = new ExpandableArrayBuffer(4096);
        private int length = -1;

        ImageSource(final Image image, final IdleStrategy idle) {
            this.image = image;
            this.idle = idle;
        }

        @Override
        public int next() {
            length = -1;
            idle.reset();
            while (length < 0) {
                if (image.controlledPoll(assembler, 16) == 0) {
                    if (image.isEndOfStream() || image.isClosed()) {
                        return -1;
                    }
                    idle.idle();
                }
            }
            return length;
        }

        @Override
        public DirectBuffer buffer() {
            return message;
        }

        @Override
        public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
            message.putBytes(0, buffer, offset, length);
            this.length = length;
            // one message per next(): the rest stays in the image for the next call
            return Action.BREAK;
        }
    }
}
