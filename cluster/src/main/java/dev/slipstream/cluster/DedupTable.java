package dev.slipstream.cluster;

import java.util.Arrays;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Which commands were applied, per client: all correlation ids up to a watermark, plus a window
 * of {@link #WINDOW} ids above it. A command is applied at most once: an id at or below the
 * watermark, or marked in the window, is a duplicate. Correlation ids of a client start at 1 and
 * go up by one per command; a client may have up to {@link #WINDOW} commands outstanding, and an
 * id further ahead than that is refused (not applied, not marked), so the table never forgets.
 * Used on the service thread only; its state is part of every snapshot.
 */
class DedupTable {
    /** How far above its watermark a client's correlation id may be. */
    static final int WINDOW = 4096;
    static final int APPLY = 0;
    static final int DUPLICATE = 1;
    static final int TOO_FAR_AHEAD = 2;
    private static final int WORDS = WINDOW / Long.SIZE;
    private static final int MASK = WINDOW - 1;
    /** Bytes one client takes in a snapshot: id, watermark, window. */
    static final int ENTRY_LENGTH = 2 * Long.BYTES + WORDS * Long.BYTES;

    private final Long2ObjectHashMap<ClientWindow> clients = new Long2ObjectHashMap<>();

    /**
     * Decides whether a command is applied, and marks it applied if so.
     *
     * @return {@link #APPLY}, {@link #DUPLICATE} or {@link #TOO_FAR_AHEAD}
     */
    int tryApply(final long clientId, final long correlationId) {
        ClientWindow window = clients.get(clientId);
        if (window == null) {
            window = new ClientWindow();
            clients.put(clientId, window);
        }
        return window.tryApply(correlationId);
    }

    /** @return how many clients the table knows */
    int clientCount() {
        return clients.size();
    }

    /** @return the bytes {@link #write} needs */
    int encodedLength() {
        return Integer.BYTES + clients.size() * ENTRY_LENGTH;
    }

    /** Writes the table, clients in ascending id order (the same bytes on every member). */
    int write(final MutableDirectBuffer buffer, final int offset) {
        final long[] ids = new long[clients.size()];
        int n = 0;
        for (final Long2ObjectHashMap<ClientWindow>.KeyIterator it = clients.keySet().iterator(); it.hasNext(); ) {
            ids[n++] = it.nextLong();
        }
        Arrays.sort(ids);
        int at = offset;
        buffer.putInt(at, ids.length);
        at += Integer.BYTES;
        for (final long id : ids) {
            final ClientWindow window = clients.get(id);
            buffer.putLong(at, id);
            buffer.putLong(at + Long.BYTES, window.watermark);
            at += 2 * Long.BYTES;
            for (int i = 0; i < WORDS; i++) {
                buffer.putLong(at, window.bits[i]);
                at += Long.BYTES;
            }
        }
        return at - offset;
    }

    /** Replaces the table with one {@link #write} wrote. */
    void read(final DirectBuffer buffer, final int offset, final int length) {
        clients.clear();
        if (length < Integer.BYTES) {
            throw new IllegalArgumentException("dedup snapshot section of " + length
                    + " bytes is shorter than its count field (4 bytes)");
        }
        final int count = buffer.getInt(offset);
        if (count < 0 || Integer.BYTES + (long) count * ENTRY_LENGTH != length) {
            throw new IllegalArgumentException("dedup snapshot section says " + count + " clients in " + length
                    + " bytes; expected 4 + " + ENTRY_LENGTH + " bytes per client");
        }
        int at = offset + Integer.BYTES;
        for (int c = 0; c < count; c++) {
            final ClientWindow window = new ClientWindow();
            final long id = buffer.getLong(at);
            window.watermark = buffer.getLong(at + Long.BYTES);
            at += 2 * Long.BYTES;
            for (int i = 0; i < WORDS; i++) {
                window.bits[i] = buffer.getLong(at);
                at += Long.BYTES;
            }
            clients.put(id, window);
        }
    }

    /** One client's applied ids: all up to the watermark, and a bit per id in the window above. */
    private static final class ClientWindow {
        /** Bit for id {@code i} (watermark < i <= watermark + WINDOW) at {@code i & MASK}. */
        final long[] bits = new long[WORDS];
        long watermark;

        int tryApply(final long id) {
            if (id <= watermark) {
                return DUPLICATE;
            }
            if (id - watermark > WINDOW) {
                return TOO_FAR_AHEAD;
            }
            final int bit = (int) (id & MASK);
            final long mask = 1L << bit;
            if ((bits[bit >>> 6] & mask) != 0) {
                return DUPLICATE;
            }
            bits[bit >>> 6] |= mask;
            while (true) {
                final int next = (int) ((watermark + 1) & MASK);
                final long nextMask = 1L << next;
                if ((bits[next >>> 6] & nextMask) == 0) {
                    return APPLY;
                }
                bits[next >>> 6] &= ~nextMask;
                watermark++;
            }
        }
    }
}
