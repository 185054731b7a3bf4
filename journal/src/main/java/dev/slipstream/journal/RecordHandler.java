package dev.slipstream.journal;

import java.nio.ByteBuffer;

/**
 * Receives raw records during a replay: the sequence and the payload as written by the codec.
 *
 * <pre>{@code
 * reader.replay(0, Long.MAX_VALUE, (sequence, payload) -> checksum.update(payload));
 * }</pre>
 */
@FunctionalInterface
public interface RecordHandler {
    /**
     * Handles one record.
     *
     * @param sequence the record's journal sequence
     * @param payload positioned at the payload's first byte, limited to its last, little-endian;
     *     valid only during this call
     * @throws Exception anything; it stops the replay and is passed on
     */
    void onRecord(long sequence, ByteBuffer payload) throws Exception;
}
