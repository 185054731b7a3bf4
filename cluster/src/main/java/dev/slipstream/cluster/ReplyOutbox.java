package dev.slipstream.cluster;

import dev.slipstream.queue.ScqQueue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Replies from a clustered pipeline's stages to its clients. A stage calls {@link #reply} on its
 * own thread: the reply is written into one of a fixed set of preallocated buffers and queued;
 * the cluster's service thread takes it off the queue and offers it to the command's client
 * session. Nothing but the service thread touches the {@code Cluster} or a {@code ClientSession}.
 *
 * <p>Back-pressure: when every buffer is queued or being offered, {@link #reply} waits (spins
 * briefly, then parks) until the service thread has sent one, and a client session that pushes
 * back keeps its reply at the head of the queue until it takes it: replies are never dropped,
 * and each session receives its replies in the order the stages queued them. A session that
 * exists but has no connected reply channel (after a leader change, while the new leader's
 * channel comes up; or a session restored from the log whose client is gone, until it times
 * out) does not hold up the others: its replies are copied aside and offered again, in order,
 * on every later delivery. A reply whose session is gone (closed) is counted in
 * {@link #undeliverable()}; its client re-sends the command and gets
 * {@link CommandWireFormat#STATUS_DUPLICATE}. On followers the cluster accepts
 * and discards every reply, so followers run the same pipeline at the same pace.
 *
 * <pre>{@code
 * pipeline.handleEventsWith(book).then((command, sequence, endOfBatch) ->
 *         outbox.reply(command, (buffer, offset, fill) -> {
 *             buffer.putLong(offset, fill.quantity);
 *             return Long.BYTES;
 *         }, command.payload().lastFill));
 * }</pre>
 */
public final class ReplyOutbox {
    private static final int SPINS_BEFORE_PARK = 100;
    private static final long PARK_NANOS = 20_000;

    private final ScqQueue<Reply> free;
    private final ScqQueue<Reply> ready;
    private final int maxPayloadLength;
    /** Replies the service thread made itself (duplicates, refusals): rare, so allocated. */
    private final ArrayDeque<Reply> serviceReplies = new ArrayDeque<>();
    /**
     * Copies of replies to sessions without a connected reply channel, in queueing order; service
     * thread only. Empty unless a session is unreachable, so the common path never looks at it.
     */
    private final ArrayDeque<Reply> waiting = new ArrayDeque<>();
    /** Sessions whose oldest waiting reply was refused in the current delivery; service thread only. */
    private final LongHashSet refusedThisRound = new LongHashSet();
    /** The reply the service thread is offering and a session pushed back; service thread only. */
    private Reply head;
    private Thread serviceThread;
    /** Written by the service thread only; read by anyone (monitoring). */
    private volatile long delivered;
    private volatile long undeliverable;
    /** Written by stage threads, rarely: counted atomically. */
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /**
     * Creates an outbox.
     *
     * @param capacity how many replies may be queued at once, a power of two (at least 2)
     * @param maxPayloadLength the longest reply payload in bytes
     * @throws IllegalArgumentException if {@code capacity} is not a power of two of at least 2,
     *         or {@code maxPayloadLength} is not positive
     */
    public ReplyOutbox(final int capacity, final int maxPayloadLength) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("reply outbox capacity must be a power of two of at least 2, was "
                    + capacity);
        }
        if (maxPayloadLength <= 0) {
            throw new IllegalArgumentException("maxPayloadLength must be positive, was " + maxPayloadLength);
        }
        this.maxPayloadLength = maxPayloadLength;
        this.free = new ScqQueue<>(capacity);
        this.ready = new ScqQueue<>(capacity);
        for (int i = 0; i < capacity; i++) {
            free.offer(new Reply(CommandWireFormat.REPLY_HEADER_LENGTH + maxPayloadLength, true));
        }
    }

    /** @return the longest reply payload in bytes */
    public int maxPayloadLength() {
        return maxPayloadLength;
    }

    /**
     * Queues a reply to {@code command}'s client with status
     * {@link CommandWireFormat#STATUS_APPLIED}; waits while every reply buffer is in use.
     *
     * @param command the command answered
     * @param writer writes the payload
     * @param arg passed to {@code writer}
     * @param <A> the argument's type
     * @throws IllegalArgumentException if {@code command} is a timer event (it has no client to
     *         answer), or the writer wrote a negative length or more than {@link #maxPayloadLength()}
     * @throws IllegalStateException if the thread is interrupted while waiting for a buffer
     */
    public <A> void reply(final ClusterCommand<?> command, final ReplyWriter<A> writer, final A arg) {
        if (command.isTimer()) {
            throw new IllegalArgumentException("reply to timer event " + command.timerId()
                    + ": a timer event has no client session to answer; reply only to commands (isTimer() false)");
        }
        if (command.isRejected()) {
            // its client was answered STATUS_REJECTED by the stage that threw: one answer per command
            dropped.incrementAndGet();
            return;
        }
        final Reply reply = takeFree();
        final int length = writer.write(reply.buffer, CommandWireFormat.REPLY_HEADER_LENGTH, arg);
        if (length < 0 || length > maxPayloadLength) {
            free.offer(reply);
            throw new IllegalArgumentException("reply writer wrote " + length + " bytes; expected 0 to "
                    + maxPayloadLength + " (the outbox's maxPayloadLength)");
        }
        reply.set(command.clusterSessionId(), command.correlationId(), CommandWireFormat.STATUS_APPLIED, length);
        command.markAnswered();
        // never full: there are as many buffers as places in the queue
        ready.offer(reply);
    }

    /**
     * Queues the answer {@link CommandWireFormat#STATUS_REJECTED} to a command a stage threw for,
     * on that stage's thread; the reason is cut to {@link CommandWireFormat#MAX_REJECTION_LENGTH}
     * bytes (and to the outbox's {@link #maxPayloadLength()}).
     */
    void reject(final ClusterCommand<?> command, final String reason) {
        final Reply reply = takeFree();
        final int length = putReason(reply.buffer, reason);
        reply.set(command.clusterSessionId(), command.correlationId(), CommandWireFormat.STATUS_REJECTED, length);
        rejected.incrementAndGet();
        ready.offer(reply);
    }

    private int putReason(final UnsafeBuffer buffer, final String reason) {
        final byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(bytes.length, Math.min(CommandWireFormat.MAX_REJECTION_LENGTH, maxPayloadLength));
        // never cut a UTF-8 sequence in two: back off to the start of the character
        while (length < bytes.length && length > 0 && (bytes[length] & 0xC0) == 0x80) {
            length--;
        }
        buffer.putBytes(CommandWireFormat.REPLY_HEADER_LENGTH, bytes, 0, length);
        return length;
    }

    /** @return commands answered {@link CommandWireFormat#STATUS_REJECTED} (on this member, leader or not) */
    public long rejectedCommands() {
        return rejected.get();
    }

    /** @return replies stages queued for commands already rejected, dropped (the client had its answer) */
    public long droppedReplies() {
        return dropped.get();
    }

    private Reply takeFree() {
        int spins = 0;
        Reply reply;
        while ((reply = free.poll()) == null) {
            if (++spins < SPINS_BEFORE_PARK) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
                if (Thread.interrupted()) {
                    throw new IllegalStateException("interrupted while waiting for a free reply buffer: the "
                            + "service thread sends none (stopped, or its clients push back)");
                }
            }
        }
        return reply;
    }

    /** @return replies sent, or accepted and discarded because this member is a follower */
    public long delivered() {
        return delivered;
    }

    /** @return replies whose client session was gone when they were offered */
    public long undeliverable() {
        return undeliverable;
    }

    // ================================================================ service thread only

    void bindServiceThread(final Thread thread) {
        this.serviceThread = Objects.requireNonNull(thread, "thread");
    }

    /** Queues a reply the service thread makes itself (no payload, or a reason in ASCII). */
    void replyFromService(final long clusterSessionId, final long correlationId, final byte status,
            final String reason) {
        checkServiceThread();
        final byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.US_ASCII);
        final Reply reply = new Reply(CommandWireFormat.REPLY_HEADER_LENGTH + text.length, false);
        reply.buffer.putBytes(CommandWireFormat.REPLY_HEADER_LENGTH, text);
        reply.set(clusterSessionId, correlationId, status, text.length);
        serviceReplies.addLast(reply);
    }

    /** Queues a welcome: the client's highest applied correlation id and the service's command limit. */
    void welcomeFromService(final long clusterSessionId, final long highestApplied, final int maxCommandLength) {
        checkServiceThread();
        final Reply reply = new Reply(CommandWireFormat.REPLY_HEADER_LENGTH + CommandWireFormat.WELCOME_LENGTH, false);
        reply.buffer.putLong(CommandWireFormat.REPLY_HEADER_LENGTH + CommandWireFormat.WELCOME_HIGHEST_APPLIED_OFFSET,
                highestApplied);
        reply.buffer.putInt(CommandWireFormat.REPLY_HEADER_LENGTH
                + CommandWireFormat.WELCOME_MAX_COMMAND_LENGTH_OFFSET, maxCommandLength);
        reply.set(clusterSessionId, CommandWireFormat.HELLO_CORRELATION_ID, CommandWireFormat.STATUS_WELCOME,
                CommandWireFormat.WELCOME_LENGTH);
        serviceReplies.addLast(reply);
    }

    /** Queues a rejection the service thread makes itself (the ingress decoder threw). */
    void rejectFromService(final long clusterSessionId, final long correlationId, final String reason) {
        checkServiceThread();
        final Reply reply = new Reply(CommandWireFormat.REPLY_HEADER_LENGTH + CommandWireFormat.MAX_REJECTION_LENGTH,
                false);
        final int length = putReason(reply.buffer, reason);
        reply.set(clusterSessionId, correlationId, CommandWireFormat.STATUS_REJECTED, length);
        rejected.incrementAndGet();
        serviceReplies.addLast(reply);
    }

    /**
     * Offers the waiting replies again, then queued replies until the queue is empty or a session
     * pushes back.
     *
     * @param target offers one reply to its session
     * @return how many replies left the outbox (sent or undeliverable)
     * @throws IllegalStateException if called on any thread but the service thread
     */
    int deliver(final ReplyTarget target) {
        checkServiceThread();
        int done = waiting.isEmpty() ? 0 : deliverWaiting(target);
        while (true) {
            if (head == null) {
                head = serviceReplies.isEmpty() ? ready.poll() : serviceReplies.pollFirst();
                if (head == null) {
                    return done;
                }
            }
            if (!waiting.isEmpty() && isWaiting(head.clusterSessionId)) {
                waitAside(head);  // behind the same session's older replies
                continue;
            }
            final int outcome = target.offer(head.clusterSessionId, head.buffer, 0, head.length);
            if (outcome == ReplyTarget.RETRY) {
                return done;
            }
            if (outcome == ReplyTarget.NOT_CONNECTED) {
                waitAside(head);
                continue;
            }
            count(outcome);
            release(head);
            head = null;
            done++;
        }
    }

    /** Offers each waiting reply whose session took every older one in this round. */
    private int deliverWaiting(final ReplyTarget target) {
        int done = 0;
        refusedThisRound.clear();
        final Iterator<Reply> it = waiting.iterator();
        while (it.hasNext()) {
            final Reply reply = it.next();
            if (refusedThisRound.contains(reply.clusterSessionId)) {
                continue;
            }
            final int outcome = target.offer(reply.clusterSessionId, reply.buffer, 0, reply.length);
            if (outcome == ReplyTarget.RETRY || outcome == ReplyTarget.NOT_CONNECTED) {
                refusedThisRound.add(reply.clusterSessionId);
            } else {
                count(outcome);
                it.remove();
                done++;
            }
        }
        return done;
    }

    private boolean isWaiting(final long clusterSessionId) {
        for (final Reply reply : waiting) {
            if (reply.clusterSessionId == clusterSessionId) {
                return true;
            }
        }
        return false;
    }

    /** Moves the head aside as a copy, so that its pooled buffer goes back to the stages. */
    private void waitAside(final Reply reply) {
        waiting.addLast(reply.pooled ? reply.copy() : reply);
        release(reply);
        head = null;
    }

    private void count(final int outcome) {
        if (outcome == ReplyTarget.SENT) {
            delivered = delivered + 1;  // single writer: the service thread
        } else {
            undeliverable = undeliverable + 1;  // single writer: the service thread
        }
    }

    private void release(final Reply reply) {
        if (reply.pooled) {
            free.offer(reply);
        }
    }

    /** @return replies the stages queued and the service thread has not taken (any thread; an estimate meanwhile) */
    int queuedByStages() {
        return ready.size();
    }

    /** @return replies the service thread holds: its own answers, the one being offered, those set aside */
    int heldByServiceThread() {
        return (head == null ? 0 : 1) + serviceReplies.size() + waiting.size();
    }

    /** @return true if no reply is queued or being offered */
    boolean isIdle() {
        return head == null && serviceReplies.isEmpty() && ready.isEmpty() && waiting.isEmpty();
    }

    private void checkServiceThread() {
        final Thread current = Thread.currentThread();
        if (current != serviceThread) {
            throw new IllegalStateException("replies are offered to client sessions on the cluster's service thread ("
                    + (serviceThread == null ? "not started" : "'" + serviceThread.getName() + "'")
                    + ") only, not on '" + current.getName() + "'; a stage queues them with ReplyOutbox.reply");
        }
    }

    /** Where the service thread offers a reply: its client session. */
    interface ReplyTarget {
        /** The session took the reply (or discarded it: follower). */
        int SENT = 0;
        /** The session pushed back: offer the same reply again later, before any other. */
        int RETRY = 1;
        /** The session is gone: the reply cannot be delivered. */
        int GONE = 2;
        /** The session exists but has no connected reply channel: others' replies go on meanwhile. */
        int NOT_CONNECTED = 3;

        int offer(long clusterSessionId, DirectBuffer buffer, int offset, int length);
    }

    /** One reply buffer, header and payload. */
    private static final class Reply {
        final UnsafeBuffer buffer;
        /** True for the outbox's own buffers, which go back to the free queue once sent. */
        final boolean pooled;
        long clusterSessionId;
        int length;

        Reply(final int capacity, final boolean pooled) {
            this.buffer = new UnsafeBuffer(new byte[capacity]);
            this.pooled = pooled;
        }

        /** @return an unpooled copy of this reply, just long enough */
        Reply copy() {
            final Reply copy = new Reply(length, false);
            copy.buffer.putBytes(0, buffer, 0, length);
            copy.clusterSessionId = clusterSessionId;
            copy.length = length;
            return copy;
        }

        void set(final long sessionId, final long correlationId, final byte status, final int payloadLength) {
            this.clusterSessionId = sessionId;
            buffer.putLong(CommandWireFormat.REPLY_CORRELATION_ID_OFFSET, correlationId);
            buffer.putByte(CommandWireFormat.REPLY_STATUS_OFFSET, status);
            this.length = CommandWireFormat.REPLY_HEADER_LENGTH + payloadLength;
        }
    }
}
