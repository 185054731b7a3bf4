package dev.slipstream.cluster;

/**
 * How one stateful stage's state goes into a snapshot and comes back, streamed: the stage writes
 * its state straight into the snapshot, chunk by chunk, and reads it back the same way, so a
 * large state is never copied whole into a second buffer (as {@link StageState} copies it).
 * Register it with {@link StageStates#registerStreaming(String, StreamingStageState)}.
 *
 * <p>All three methods run on the cluster's service thread. {@link #snapshotLength()} and
 * {@link #writeSnapshot} run while the pipeline is quiesced at the snapshot's log position (as
 * for {@link StageState}): the stage's writes up to that position are visible and it makes no
 * other. {@link #loadSnapshot} runs before the pipeline starts. A section holds at most
 * 2,147,483,647 bytes (2 GiB - 1): a larger state is split over several registered states.
 *
 * <p>A loaded section is handed over while the snapshot is still being read: if the snapshot
 * turns out to end early or to be malformed after this stage's section, the load fails, the
 * member does not start and the pipeline never runs on what the stage loaded. The dedup table
 * and the {@link StageState} sections are loaded only once the whole snapshot has been checked.
 *
 * <pre>{@code
 * final class Book implements EventHandler<ClusterCommand<Order>>, StreamingStageState {
 *     private final UnsafeBuffer levels = new UnsafeBuffer(new byte[64 << 20]);
 *     private long updates;
 *     public void onEvent(ClusterCommand<Order> command, long sequence, boolean endOfBatch) { ... }
 *     public long snapshotLength() {
 *         return Long.BYTES + levels.capacity();
 *     }
 *     public void writeSnapshot(SnapshotOutput output) {
 *         output.putLong(updates);
 *         output.putBytes(levels, 0, levels.capacity());
 *     }
 *     public void loadSnapshot(SnapshotInput input) {
 *         updates = input.getLong();
 *         input.getBytes(levels, 0, levels.capacity());
 *     }
 * }
 * }</pre>
 */
public interface StreamingStageState {
    /**
     * @return the exact number of bytes {@link #writeSnapshot} is about to write, from 0 to
     *         2,147,483,647 (a longer one fails the snapshot, saying so)
     */
    long snapshotLength();

    /**
     * Writes the state: exactly {@link #snapshotLength()} bytes.
     *
     * @param output where the bytes go
     */
    void writeSnapshot(SnapshotOutput output);

    /**
     * Replaces the state with one {@link #writeSnapshot} wrote: reads all {@link SnapshotInput#length()} bytes.
     *
     * @param input the bytes
     */
    void loadSnapshot(SnapshotInput input);
}
