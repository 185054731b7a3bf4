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
 * them back together, so a state may be any size.
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
