package dev.slipstream.cluster;

import java.util.Arrays;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * What the service remembers of each client: which of its commands were applied (all correlation
 * ids up to a watermark, plus a window of {@link #WINDOW} ids above it), the highest id applied,
 * the cluster time it was last heard from, and the session that speaks for it now.
 *
 * <p>A command is applied at most once: an id at or below the watermark, or marked in the
 * window, is a duplicate. Correlation ids of a client start at 1 and go up by one per command; a
 * client may have up to {@link #WINDOW} commands outstanding, and an id further ahead than that
 * is refused (not applied, not marked), so the table never forgets a client it keeps.
 *
 * <p><b>Bounded.</b> The table keeps at most {@code maxClients} clients. When a new client says
 * hello and the table is full, the client heard from longest ago (by cluster time, the lower id
 * first on a tie) among those with no live session is forgotten: a function of the log alone, so
 * every member forgets the same one. If every client kept has a live session, the newcomer is
 * refused. A forgotten client that comes back starts afresh (its commands are numbered from its
 * own counter; a re-send of a command older than its absence would be applied again).
 *
 * <p>Used on the service thread only; its state is part of every snapshot.
 *
 * <pre>{@code
 * DedupTable table = new DedupTable(10_000);
 * table.bind(7, sessionId, now);                       // client 7 said hello on this session
 * if (table.tryApply(7, correlationId, now) == DedupTable.APPLY) { publish(command); }
 * }</pre>
 */
class DedupTable {
    /** How far above its watermark a client's correlation id may be. */
    static final int WINDOW = 4096;
    /** The default bound on clients remembered. */
    static final int DEFAULT_MAX_CLIENTS = 10_000;
    static final int APPLY = 0;
    static final int DUPLICATE = 1;
    static final int TOO_FAR_AHEAD = 2;
    /** The client is not in the table and there is no room for it. */
    static final int NO_ROOM = 3;
    /** The owner of a client no session speaks for. */
    static final long NO_SESSION = -1;
    /** What {@link #bind} returns when the table is full of clients with live sessions. */
    static final long FULL = Long.MIN_VALUE;
    private static final int WORDS = WINDOW / Long.SIZE;
    private static final int MASK = WINDOW - 1;
    /** Written first in a snapshot section; negative, so that a section without it (a count) is told apart. */
    private static final int FORMAT_2 = -2;
    /** Bytes one client takes in a version 1 section: id, watermark, window. */
    static final int ENTRY_LENGTH_1 = 2 * Long.BYTES + WORDS * Long.BYTES;
    /** Bytes one client takes: id, watermark, highest, last heard, owner session, window. */
    static final int ENTRY_LENGTH = 5 * Long.BYTES + WORDS * Long.BYTES;

    private final int maxClients;
    private final Long2ObjectHashMap<ClientWindow> clients = new Long2ObjectHashMap<>();

    DedupTable() {
        this(DEFAULT_MAX_CLIENTS);
    }

    DedupTable(final int maxClients) {
        if (maxClients < 1) {
            throw new IllegalArgumentException("maxClients must be positive, was " + maxClients);
        }
        this.maxClients = maxClients;
    }

    /** @return the most clients the table keeps */
    int maxClients() {
        return maxClients;
    }

    /**
     * Decides whether a command is applied, and marks it applied if so.
     *
     * @param timestamp the command's cluster time (when the client was last heard from)
     * @return {@link #APPLY}, {@link #DUPLICATE}, {@link #TOO_FAR_AHEAD} or {@link #NO_ROOM}
     */
    int tryApply(final long clientId, final long correlationId, final long timestamp) {
        final ClientWindow window = windowFor(clientId, timestamp);
        if (window == null) {
            return NO_ROOM;
        }
        window.lastHeard = timestamp;
        return window.tryApply(correlationId);
    }

    /**
     * Makes {@code sessionId} the session that speaks for {@code clientId}, keeping the client
     * (forgetting another, if the table is full).
     *
     * @return the session that spoke for the client before ({@link #NO_SESSION} if none, or the
     *         same session for a repeated hello), or {@link #FULL} if there is no room
     */
    long bind(final long clientId, final long sessionId, final long timestamp) {
        final ClientWindow window = windowFor(clientId, timestamp);
        if (window == null) {
            return FULL;
        }
        final long previous = window.owner;
        window.owner = sessionId;
        window.lastHeard = timestamp;
        return previous;
    }

    /** The session closed: if it spoke for the client, no session does now. */
    void release(final long clientId, final long sessionId) {
        final ClientWindow window = clients.get(clientId);
        if (window != null && window.owner == sessionId) {
            window.owner = NO_SESSION;
        }
    }

    /** @return the session that speaks for the client, or {@link #NO_SESSION} */
    long owner(final long clientId) {
        final ClientWindow window = clients.get(clientId);
        return window == null ? NO_SESSION : window.owner;
    }

    /** @return the highest correlation id applied for the client, 0 if none (or not kept) */
    long highestApplied(final long clientId) {
        final ClientWindow window = clients.get(clientId);
        return window == null ? 0 : window.highest;
    }

    /** @return how many clients the table knows */
    int clientCount() {
        return clients.size();
    }

    /** Calls {@code action} with each client that a session speaks for, and that session. */
    void forEachOwner(final OwnerConsumer action) {
        for (final Long2ObjectHashMap<ClientWindow>.EntryIterator it = clients.entrySet().iterator(); it.hasNext(); ) {
            it.next();
            final ClientWindow window = it.getValue();
            if (window.owner != NO_SESSION) {
                action.accept(it.getLongKey(), window.owner);
            }
        }
    }

    /** Receives one client and the session that speaks for it. */
    interface OwnerConsumer {
        void accept(long clientId, long sessionId);
    }

    private ClientWindow windowFor(final long clientId, final long timestamp) {
        ClientWindow window = clients.get(clientId);
        if (window == null) {
            if (clients.size() >= maxClients && !forgetOne()) {
                return null;
            }
            window = new ClientWindow();
            window.lastHeard = timestamp;
            clients.put(clientId, window);
        }
        return window;
    }

    /** Forgets the client heard from longest ago among those no session speaks for; false if none. */
    private boolean forgetOne() {
        long chosen = 0;
        ClientWindow oldest = null;
        for (final Long2ObjectHashMap<ClientWindow>.EntryIterator it = clients.entrySet().iterator(); it.hasNext(); ) {
            it.next();
            final ClientWindow window = it.getValue();
            final long id = it.getLongKey();
            // hash order differs between members: the choice must not depend on it, so ties go to the lower id
            if (window.owner == NO_SESSION && (oldest == null || window.lastHeard < oldest.lastHeard
                    || (window.lastHeard == oldest.lastHeard && id < chosen))) {
                oldest = window;
                chosen = id;
            }
        }
        if (oldest == null) {
            return false;
        }
        clients.remove(chosen);
        return true;
    }

    /** @return the bytes {@link #write} needs */
    int encodedLength() {
        return 2 * Integer.BYTES + clients.size() * ENTRY_LENGTH;
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
        buffer.putInt(at, FORMAT_2);
        buffer.putInt(at + Integer.BYTES, ids.length);
        at += 2 * Integer.BYTES;
        for (final long id : ids) {
            final ClientWindow window = clients.get(id);
            buffer.putLong(at, id);
            buffer.putLong(at + Long.BYTES, window.watermark);
            buffer.putLong(at + 2 * Long.BYTES, window.highest);
            buffer.putLong(at + 3 * Long.BYTES, window.lastHeard);
            buffer.putLong(at + 4 * Long.BYTES, window.owner);
            at += 5 * Long.BYTES;
            for (int i = 0; i < WORDS; i++) {
                buffer.putLong(at, window.bits[i]);
                at += Long.BYTES;
            }
        }
        return at - offset;
    }

    /**
     * Replaces the table with one {@link #write} wrote, or one an earlier version wrote (a count,
     * then id, watermark and window per client: no owners, last heard at 0).
     */
    void read(final DirectBuffer buffer, final int offset, final int length) {
        clients.clear();
        if (length < Integer.BYTES) {
            throw new IllegalArgumentException("dedup snapshot section of " + length
                    + " bytes is shorter than its first field (4 bytes)");
        }
        final int first = buffer.getInt(offset);
        final boolean current = first == FORMAT_2;
        if (first < 0 && !current) {
            throw new IllegalArgumentException("dedup snapshot section of format " + (-first)
                    + " is not one this version reads (formats 1 and 2); load it with the version that wrote it");
        }
        final int header = current ? 2 * Integer.BYTES : Integer.BYTES;
        final int entryLength = current ? ENTRY_LENGTH : ENTRY_LENGTH_1;
        final int count = current ? (length >= header ? buffer.getInt(offset + Integer.BYTES) : -1) : first;
        if (count < 0 || header + (long) count * entryLength != length) {
            throw new IllegalArgumentException("dedup snapshot section says " + count + " clients in " + length
                    + " bytes; expected " + header + " + " + entryLength + " bytes per client");
        }
        int at = offset + header;
        for (int c = 0; c < count; c++) {
            final ClientWindow window = new ClientWindow();
            final long id = buffer.getLong(at);
            window.watermark = buffer.getLong(at + Long.BYTES);
            if (current) {
                window.highest = buffer.getLong(at + 2 * Long.BYTES);
                window.lastHeard = buffer.getLong(at + 3 * Long.BYTES);
                window.owner = buffer.getLong(at + 4 * Long.BYTES);
                at += 5 * Long.BYTES;
            } else {
                at += 2 * Long.BYTES;
            }
            for (int i = 0; i < WORDS; i++) {
                window.bits[i] = buffer.getLong(at);
                at += Long.BYTES;
            }
            if (!current) {
                window.highest = window.highestMarked();
            }
            clients.put(id, window);
        }
    }

    /** One client's applied ids: all up to the watermark, and a bit per id in the window above. */
    private static final class ClientWindow {
        /** Bit for id {@code i} (watermark < i <= watermark + WINDOW) at {@code i & MASK}. */
        final long[] bits = new long[WORDS];
        long watermark;
        long highest;
        long lastHeard;
        long owner = NO_SESSION;

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
            if (id > highest) {
                highest = id;
            }
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

        /** The highest id marked, from the watermark and the window (for a section that did not keep it). */
        long highestMarked() {
            for (long id = watermark + WINDOW; id > watermark; id--) {
                final int bit = (int) (id & MASK);
                if ((bits[bit >>> 6] & (1L << bit)) != 0) {
                    return id;
                }
            }
            return watermark;
        }
    }
}
