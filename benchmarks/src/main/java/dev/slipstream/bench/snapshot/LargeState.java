package dev.slipstream.bench.snapshot;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.SnapshotInput;
import dev.slipstream.cluster.SnapshotOutput;
import dev.slipstream.cluster.StageState;
import dev.slipstream.cluster.StreamingStageState;
import dev.slipstream.processor.EventHandler;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A stage holding a large state: {@code bytes} of it, each command writing its amount at a place
 * that depends on its correlation id, so the state's digest says whether every command was applied
 * once, in order. It is written into snapshots either streamed ({@link StreamingStageState}) or
 * through the buffered {@link StageState} methods, to compare the two in one run.
 *
 * <pre>{@code
 * LargeState state = new LargeState(256 << 20);
 * states.registerStreaming("large", state);     // or states.register("large", state.buffered())
 * }</pre>
 */
public final class LargeState implements EventHandler<ClusterCommand<LargeState.Amount>>, StreamingStageState {
    /** A command's payload. */
    public static final class Amount {
        long value;
    }

    private final byte[] bytes;
    private final UnsafeBuffer state;
    private long count;
    /** Written by the stage thread, read by the main thread: the commands applied. */
    private volatile long applied;
    /** Nanoseconds the latest load took, -1 before any. */
    private volatile long loadNanos = -1;

    /** @param length the state's bytes, at least 16 */
    public LargeState(final int length) {
        if (length < 16) {
            throw new IllegalArgumentException("the state needs at least 16 bytes, was " + length);
        }
        this.bytes = new byte[length];
        this.state = new UnsafeBuffer(bytes);
        for (int i = 0; i < length; i += 4096) {
            bytes[i] = (byte) i;  // touch every page, so the memory figures count the state
        }
    }

    @Override
    public void onEvent(final ClusterCommand<Amount> command, final long sequence, final boolean endOfBatch) {
        final long id = command.correlationId();
        final int at = (int) Long.remainderUnsigned(id * 0x9E3779B97F4A7C15L, bytes.length - Long.BYTES);
        state.putLong(at, state.getLong(at) * 31 + command.payload().value);
        count++;
        applied = count;
    }

    /** @return commands applied (any thread) */
    public long applied() {
        return applied;
    }

    /** @return nanoseconds the latest load took, or -1 (any thread) */
    public long loadNanos() {
        return loadNanos;
    }

    /** @return the count and a CRC32C of the state: equal on two members only if they applied the same commands */
    public String digest() {
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length);
        return count + "/" + Long.toHexString(crc.getValue());
    }

    @Override
    public long snapshotLength() {
        return Long.BYTES + (long) bytes.length;
    }

    @Override
    public void writeSnapshot(final SnapshotOutput output) {
        output.putLong(count);
        output.putBytes(state, 0, bytes.length);
    }

    @Override
    public void loadSnapshot(final SnapshotInput input) {
        final long start = System.nanoTime();
        count = input.getLong();
        input.getBytes(bytes, 0, bytes.length);
        applied = count;
        loadNanos = System.nanoTime() - start;
    }

    /** @return the same state through the buffered methods: the whole state copied into the service's buffer */
    public StageState buffered() {
        return new StageState() {
            @Override
            public int writeSnapshot(final MutableDirectBuffer buffer, final int offset) {
                buffer.putLong(offset, count);
                buffer.putBytes(offset + Long.BYTES, bytes, 0, bytes.length);
                return Long.BYTES + bytes.length;
            }

            @Override
            public void loadSnapshot(final DirectBuffer buffer, final int offset, final int length) {
                final long start = System.nanoTime();
                count = buffer.getLong(offset);
                buffer.getBytes(offset + Long.BYTES, bytes, 0, bytes.length);
                applied = count;
                loadNanos = System.nanoTime() - start;
            }
        };
    }
}
