package dev.slipstream.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes the service's part of a snapshot and loads it back: section 0 is the dedup table (with
 * each client's session binding), then one section per registered stage state, in registration
 * order, each cut into chunks through {@link SnapshotFormat}. A snapshot loads only into a
 * pipeline that registers the same stage states in the same order, so a state is never read by
 * a stage that did not write it.
 *
 * <p>A {@link StreamingStageState} writes into the snapshot publication through a
 * {@link SnapshotOutput} and reads through a {@link SnapshotInput}: its state is never copied
 * whole. The dedup table and each {@link StageState} are written into a buffer first (it grows to
 * the largest of them and stays) and, on load, held whole until the snapshot has been checked.
 *
 * <p>Writing assumes the stages are quiescent (the service waits for them first): the states are
 * read on the service thread while every stage waits for its next event. Service thread only.
 *
 * <pre>{@code
 * ServiceSnapshots snapshots = new ServiceSnapshots(dedup, states, idle, 16 * 1024);
 * snapshots.load(snapshotImage);          // in onStart, before the pipeline starts
 * snapshots.write(snapshotPublication);   // in onTakeSnapshot, once the stages are quiescent
 * }</pre>
 */
final class ServiceSnapshots {
    private static final String DEDUP_SECTION = "dedup";

    private final DedupTable dedup;
    private final StageStates states;
    private final IdleStrategy idle;
    private final int chunkLength;
    /** The dedup table and each {@link StageState} are written into this, then chunked. */
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);

    ServiceSnapshots(final DedupTable dedup, final StageStates states, final IdleStrategy idle,
            final int chunkLength) {
        this.dedup = dedup;
        this.states = states;
        this.idle = idle;
        this.chunkLength = chunkLength;
    }

    /** Writes the dedup table and every stage state, in chunks of at most the configured length. */
    void write(final ExclusivePublication publication) {
        write(new SnapshotFormat.Writer(publication, idle, chunkLength));
    }

    /**
     * Writes the dedup table and every stage state through {@code writer}.
     *
     * @throws IllegalStateException if a stage state fails while writing, or writes other than
     *         the length it announced; the message names the state
     */
    void write(final SnapshotFormat.Writer writer) {
        final int sections = 1 + states.size();
        writer.begin(sections);
        final int dedupLength = dedup.write(buffer, 0);
        writer.section(0, DEDUP_SECTION, buffer, dedupLength);
        for (int i = 0; i < states.size(); i++) {
            final String name = states.name(i);
            final Object state = states.state(i);
            if (state instanceof StreamingStageState streaming) {
                writeStreamed(writer, i + 1, name, streaming);
            } else {
                final int length;
                try {
                    length = ((StageState) state).writeSnapshot(buffer, 0);
                } catch (final RuntimeException e) {
                    throw new IllegalStateException("stage state '" + name + "' failed in writeSnapshot; this "
                            + "snapshot fails (the cluster records none and goes on): " + e, e);
                }
                writer.section(i + 1, name, buffer, length);
            }
        }
        writer.end(sections);
    }

    private static void writeStreamed(final SnapshotFormat.Writer writer, final int index, final String name,
            final StreamingStageState state) {
        final long length;
        try {
            length = state.snapshotLength();
        } catch (final RuntimeException e) {
            throw new IllegalStateException("stage state '" + name + "' failed in snapshotLength(); this snapshot fails "
                    + "(the cluster records none and goes on): " + e, e);
        }
        final SnapshotOutput output = writer.section(index, name, length);
        try {
            state.writeSnapshot(output);
        } catch (final RuntimeException e) {
            throw new IllegalStateException("stage state '" + name + "' failed in writeSnapshot after "
                    + output.written() + " of the " + length + " bytes it announced; this snapshot fails (the cluster records none and goes on): "
                    + e, e);
        }
        output.finish();
    }

    /** Loads a snapshot image: see {@link #load(SnapshotFormat.MessageSource)}. */
    void load(final Image image) {
        load(new SnapshotFormat.ImageSource(image, idle));
    }

    /**
     * Reads a snapshot and loads the dedup table and each stage state from it. A streamed state
     * is loaded as its section arrives; the dedup table and the buffered states only once the
     * whole snapshot has been read and checked, so a snapshot that ends early, is malformed, or
     * is another pipeline's changes none of them.
     *
     * @throws IllegalStateException if the snapshot ends early, is malformed, is of another
     *         format version, or holds sections other than this pipeline's, in another order
     */
    void load(final SnapshotFormat.MessageSource source) {
        final List<String> expected = new ArrayList<>();
        expected.add(DEDUP_SECTION);
        expected.addAll(states.names());
        int length = next(source, "its BEGIN message");
        DirectBuffer message = source.buffer();
        if (length < 12 || message.getInt(0) != SnapshotFormat.BEGIN) {
            throw new IllegalStateException("not a pipeline snapshot: it starts with "
                    + SnapshotFormat.describe(message, length) + " where a BEGIN message was expected");
        }
        final int version = message.getInt(4);
        if (version != SnapshotFormat.VERSION) {
            throw new IllegalStateException("snapshot of format version " + version + ", but this "
                    + "version of the service reads format " + SnapshotFormat.VERSION + " only: start the member "
                    + "with a version that reads format " + version + " (the one that wrote it, or a later one)");
        }
        final int sections = message.getInt(8);
        final List<String> names = new ArrayList<>();
        final DirectBuffer[] held = new DirectBuffer[expected.size()];
        final SnapshotInput input = new SnapshotInput(source);
        for (int index = 0; index < sections; index++) {
            length = next(source, "section " + index + " of " + sections);
            message = source.buffer();
            if (length < 16 || message.getInt(0) != SnapshotFormat.SECTION || message.getInt(4) != index) {
                throw new IllegalStateException("snapshot malformed: expected the header of section " + index
                        + ", got " + SnapshotFormat.describe(message, length));
            }
            final int total = message.getInt(8);
            final String name = message.getStringWithoutLengthUtf8(16, message.getInt(12));
            names.add(name);
            if (index >= expected.size() || !expected.get(index).equals(name)) {
                throw new IllegalStateException("snapshot holds sections " + names + (index + 1 < sections
                        ? "... (" + sections + " in all)" : "") + " but this pipeline registers " + expected
                        + "; register the same stage states, in the same order, as the pipeline that took it");
            }
            final Object state = index == 0 ? dedup : states.state(index - 1);
            if (state instanceof StreamingStageState streaming) {
                input.begin(name, index, total);
                streaming.loadSnapshot(input);
                input.finish();
            } else {
                held[index] = readWhole(source, index, name, total);
            }
        }
        if (sections != expected.size()) {
            throw new IllegalStateException("snapshot holds sections " + names + " but this pipeline registers "
                    + expected + "; register the same stage states, in the same order, as the pipeline that took it");
        }
        length = next(source, "its END message");
        message = source.buffer();
        if (length < 8 || message.getInt(0) != SnapshotFormat.END || message.getInt(4) != sections) {
            throw new IllegalStateException("snapshot malformed: expected the END message of " + sections
                    + " sections, got " + SnapshotFormat.describe(message, length));
        }
        // the whole snapshot is read and checked: only now do the held sections replace any state
        dedup.read(held[0], 0, held[0].capacity());
        for (int i = 0; i < states.size(); i++) {
            if (held[i + 1] != null) {
                ((StageState) states.state(i)).loadSnapshot(held[i + 1], 0, held[i + 1].capacity());
            }
        }
    }

    private static int next(final SnapshotFormat.MessageSource source, final String awaited) {
        final int length = source.next();
        if (length < 0) {
            throw new IllegalStateException("snapshot ended before " + awaited);
        }
        return length;
    }

    /** Takes a section's chunks into a buffer of its exact length. */
    private static DirectBuffer readWhole(final SnapshotFormat.MessageSource source, final int index,
            final String name, final int total) {
        final UnsafeBuffer whole = new UnsafeBuffer(new byte[total]);
        int received = 0;
        while (received < total) {
            final int length = next(source, "the end of section '" + name + "' (" + received + " of " + total
                    + " bytes)");
            final DirectBuffer message = source.buffer();
            final int n = length - SnapshotFormat.CHUNK_HEADER_LENGTH;
            if (n <= 0 || message.getInt(0) != SnapshotFormat.CHUNK || message.getInt(4) != index
                    || message.getInt(8) != received || n > total - received) {
                throw new IllegalStateException("snapshot section '" + name + "' (index " + index + ", " + total
                        + " bytes) is malformed after " + received + " bytes: expected a chunk of it at offset "
                        + received + ", got " + SnapshotFormat.describe(message, length));
            }
            whole.putBytes(received, message, SnapshotFormat.CHUNK_HEADER_LENGTH, n);
            received += n;
        }
        return whole;
    }
}
