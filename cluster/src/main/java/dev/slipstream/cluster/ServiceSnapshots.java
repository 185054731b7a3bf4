package dev.slipstream.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.ImageFragmentAssembler;
import java.util.ArrayList;
import java.util.List;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * Writes the service's part of a snapshot and loads it back: section 0 is the dedup table (with
 * each client's session binding), then one section per registered {@link StageState}, in
 * registration order, each cut into chunks through {@link SnapshotFormat}. A snapshot loads only
 * into a pipeline that registers the same stage states in the same order, so a state is never
 * read by a stage that did not write it.
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
    /** Each section is written into this, then chunked; it grows to the largest section and stays. */
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
        final SnapshotFormat.Writer writer = new SnapshotFormat.Writer(publication, idle, chunkLength);
        final int sections = 1 + states.size();
        writer.begin(sections);
        final int dedupLength = dedup.write(buffer, 0);
        writer.section(0, DEDUP_SECTION, buffer, dedupLength);
        for (int i = 0; i < states.size(); i++) {
            final int length = states.state(i).writeSnapshot(buffer, 0);
            writer.section(i + 1, states.name(i), buffer, length);
        }
        writer.end(sections);
    }

    /**
     * Reads a whole snapshot, then loads the dedup table and each stage state from it.
     *
     * @throws IllegalStateException if the snapshot ends early, is malformed, or holds sections
     *         other than this pipeline's, in another order
     */
    void load(final Image image) {
        final SnapshotFormat.Reader reader = new SnapshotFormat.Reader();
        final ImageFragmentAssembler assembler = new ImageFragmentAssembler(reader);
        idle.reset();
        while (!reader.isComplete()) {
            final int fragments = image.poll(assembler, 16);
            if (fragments == 0) {
                if (image.isEndOfStream() || image.isClosed()) {
                    throw new IllegalStateException("snapshot ended before its end message");
                }
                idle.idle();
            }
        }
        reader.check();
        final List<String> names = reader.names();
        final List<String> expected = new ArrayList<>();
        expected.add(DEDUP_SECTION);
        expected.addAll(states.names());
        if (!names.equals(expected)) {
            throw new IllegalStateException("snapshot holds sections " + names + " but this pipeline registers "
                    + expected + "; register the same stage states, in the same order, as the pipeline that took it");
        }
        // every section was checked whole, and the names matched, before any is loaded: a truncated
        // snapshot or another pipeline's changes nothing
        dedup.read(reader.section(0), 0, reader.length(0));
        for (int i = 0; i < states.size(); i++) {
            states.state(i).loadSnapshot(reader.section(i + 1), 0, reader.length(i + 1));
        }
    }
}
