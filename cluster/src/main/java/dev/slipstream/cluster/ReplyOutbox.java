package dev.slipstream.cluster;

import dev.slipstream.queue.ScqQueue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
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
 * and they leave in the order the stages queued them (a session that is not connected yet, as
 * after a leader change, counts as pushing back). A reply whose session is gone (closed) is
 * counted in {@link #undeliverable()}; its client re-sends the command and gets
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
    /** The reply the service thread is offering and a session pushed back; service thread only. */
    private Reply head;
    private boolean headFromService;
    private Thread serviceThread;
    /** Written by the service thread only; read by anyone (monitoring). */
    private volatile long delivered;
    private volatile long undeliverable;

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
            free.offer(new Reply(CommandWireFormat.REPLY_HEADER_LENGTH + maxPayloadLength));
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
     * @throws IllegalArgumentException if the writer wrote a negative length or more than
     *         {@link #maxPayloadLength()}
     * @throws IllegalStateException if the thread is interrupted while waiting for a buffer
     */
    public <A> void reply(final ClusterCommand<?> command, final ReplyWriter<A> writer, final A arg) {
        final Reply reply = takeFree();
        final int length = writer.write(reply.buffer, CommandWireFormat.REPLY_HEADER_LENGTH, arg);
        if (length < 0 || length > maxPayloadLength) {
            free.offer(reply);
            throw new IllegalArgumentException("reply writer wrote " + length + " bytes; expected 0 to "
                    + maxPayloadLength + " (the outbox's maxPayloadLength)");
        }
        reply.set(command.clusterSessionId(), command.correlationId(), CommandWireFormat.STATUS_APPLIED, length);
        // never full: there are as many buffers as places in the queue
        ready.offer(reply);
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
        final Reply reply = new Reply(CommandWireFormat.REPLY_HEADER_LENGTH + text.length);
        reply.buffer.putBytes(CommandWireFormat.REPLY_HEADER_LENGTH, text);
        reply.set(clusterSessionId, correlationId, status, text.length);
        serviceReplies.addLast(reply);
    }

    /**
     * Offers queued replies until the queue is empty or a session pushes back.
     *
     * @param target offers one reply to its session
     * @return how many replies left the outbox (sent or undeliverable)
     * @throws IllegalStateException if called on any thread but the service thread
     */
    int deliver(final ReplyTarget target) {
        checkServiceThread();
        int done = 0;
        while (true) {
            if (head == null) {
                headFromService = !serviceReplies.isEmpty();
                head = headFromService ? serviceReplies.pollFirst() : ready.poll();
                if (head == null) {
                    return done;
                }
            }
            final int outcome = target.offer(head.clusterSessionId, head.buffer, 0, head.length);
            if (outcome == ReplyTarget.RETRY) {
                return done;
            }
            if (outcome == ReplyTarget.SENT) {
                delivered = delivered + 1;  // single writer: the service thread
            } else {
                undeliverable = undeliverable + 1;  // single writer: the service thread
            }
            if (!headFromService) {
                free.offer(head);
            }
            head = null;
            done++;
        }
    }

    /** @return true if no reply is queued or being offered */
    boolean isIdle() {
        return head == null && serviceReplies.isEmpty() && ready.isEmpty();
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
        /** The session pushed back: offer the same reply again later. */
        int RETRY = 1;
        /** The session is gone: the reply cannot be delivered. */
        int GONE = 2;

        int offer(long clusterSessionId, DirectBuffer buffer, int offset, int length);
    }

    /** One reply buffer, header and payload. */
    private static final class Reply {
        final UnsafeBuffer buffer;
        long clusterSessionId;
        int length;

        Reply(final int capacity) {
            this.buffer = new UnsafeBuffer(new byte[capacity]);
        }

        void set(final long sessionId, final long correlationId, final byte status, final int payloadLength) {
            this.clusterSessionId = sessionId;
            buffer.putLong(CommandWireFormat.REPLY_CORRELATION_ID_OFFSET, correlationId);
            buffer.putByte(CommandWireFormat.REPLY_STATUS_OFFSET, status);
            this.length = CommandWireFormat.REPLY_HEADER_LENGTH + payloadLength;
        }
    }
}
