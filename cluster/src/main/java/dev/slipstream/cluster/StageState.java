package dev.slipstream.cluster;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * How one stateful stage's state goes into a snapshot and comes back from one.
 *
 * <p>Both methods run on the cluster's service thread while the pipeline is quiesced: when
 * {@link #writeSnapshot} runs, every stage has handled every command up to the snapshot's log
 * position and none has gone further, and the stage thread's writes are visible (the stage
 * published them with its sequence, which the service thread read). {@link #loadSnapshot} runs
 * before the pipeline starts. The service cuts the bytes into messages of bounded size and puts
 * them back together, so a state may be up to 2 GiB - 1 bytes.
 *
 * <p>The whole state is copied into the service's buffer before it is sent (the buffer grows to
 * the largest state and stays that size), and on load each state is put back together whole
 * before {@link #loadSnapshot} sees it. For a state of many megabytes use
 * {@link StreamingStageState}, which writes straight into the snapshot and reads straight out of
 * it, and holds no second copy. The snapshot does not record which of the two wrote a state, so
 * a stage that moves from one to the other and writes the same bytes (mind the byte order:
 * {@link SnapshotOutput} writes numbers little-endian) loads the snapshots it took before.
 *
 * <pre>{@code
 * final class Counter implements EventHandler<ClusterCommand<Order>>, StageState {
 *     private long count;
 *     public void onEvent(ClusterCommand<Order> command, long sequence, boolean endOfBatch) { count++; }
 *     public int writeSnapshot(MutableDirectBuffer buffer, int offset) {
 *         buffer.putLong(offset, count);
 *         return Long.BYTES;
 *     }
 *     public void loadSnapshot(DirectBuffer buffer, int offset, int length) {
 *         count = buffer.getLong(offset);
 *     }
 * }
 * }</pre>
 *
 * The same stage, streamed (registered with {@code states.registerStreaming("counter", counter)}):
 *
 * <pre>{@code
 * final class Counter implements EventHandler<ClusterCommand<Order>>, StreamingStageState {
 *     private long count;
 *     public void onEvent(ClusterCommand<Order> command, long sequence, boolean endOfBatch) { count++; }
 *     public long snapshotLength() { return Long.BYTES; }
 *     public void writeSnapshot(SnapshotOutput output) { output.putLong(count); }
 *     public void loadSnapshot(SnapshotInput input) { count = input.getLong(); }
 * }
 * }</pre>
 */
public interface StageState {
    /**
     * Writes the state.
     *
     * @param buffer an expandable buffer: it grows as the stage writes past its capacity
     * @param offset where the state starts
     * @return the number of bytes written
     */
    int writeSnapshot(MutableDirectBuffer buffer, int offset);

    /**
     * Replaces the state with one {@link #writeSnapshot} wrote.
     *
     * @param buffer the bytes
     * @param offset where the state starts
     * @param length its length
     */
    void loadSnapshot(DirectBuffer buffer, int offset, int length);
}
