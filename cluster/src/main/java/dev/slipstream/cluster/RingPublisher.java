package dev.slipstream.cluster;

import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.ring.RingBuffer;
import io.aeron.cluster.service.Cluster;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;

/**
 * Puts an admitted command, or a stage timer's event, into the ring at its place in the log. The
 * slot is filled inside the ring's claim: the header from the log (position, cluster time,
 * session, client and correlation ids, or the timer's id), the payload by the
 * {@link IngressDecoder} or the {@link TimerPayload}, and then the {@link TimerPolicy} runs on
 * it before any stage can read it. An exception there rejects the event under the service's
 * {@link CommandFailurePolicy}. The service thread is the ring's only producer; when the ring is
 * full it waits for the stages, and meanwhile keeps sending replies, since the stages may be
 * waiting for reply room.
 *
 * <p>The event being published is held in fields the translators read, not captured in a
 * lambda, so that publishing allocates nothing. Service thread only.
 *
 * <pre>{@code
 * RingPublisher<Order> publisher = new RingPublisher<>(settings, ring, cluster, idle, outbox, timers,
 *         replies, this::checkPipeline);
 * publisher.publishCommand(buffer, payloadOffset, payloadLength, header.position(), timestamp,
 *         session.id(), clientId, correlationId);
 * publisher.publishTimer(timerId, timestamp);
 * }</pre>
 *
 * @param <T> the payload type
 */
final class RingPublisher<T> {
    private final RingBuffer<ClusterCommand<T>> ring;
    private final Cluster cluster;
    private final IdleStrategy idle;
    private final IngressDecoder<T> decoder;
    /** Null unless the stages have timers; so are timerPayload and timers. */
    private final TimerPolicy<T> timerPolicy;
    private final TimerPayload<T> timerPayload;
    private final ServiceTimers timers;
    private final CommandFailurePolicy failurePolicy;
    private final ReplyOutbox outbox;
    private final ReplyRouting replies;
    /** Throws if a stage failed: waiting on a ring whose stages stopped would never end. */
    private final Runnable pipelineCheck;
    /** Logs what the ingress decoder throws, on the service thread: the first in full, then summaries. */
    private final ExceptionHandler<ClusterCommand<T>> decoderLog = ExceptionHandlers.logAndContinue("ingress");
    private final EventTranslator<ClusterCommand<T>> commandTranslator = this::translateCommand;
    private final EventTranslator<ClusterCommand<T>> timerTranslator = this::translateTimer;

    // the event being published; read by the translators on the service thread
    private DirectBuffer inBuffer;
    private int inOffset;
    private int inLength;
    private long inPosition;
    private long inTimestamp;
    private long inSessionId;
    private long inClientId;
    private long inCorrelationId;
    private long inTimerId;

    RingPublisher(final ServiceSettings<T> settings, final RingBuffer<ClusterCommand<T>> ring, final Cluster cluster,
            final IdleStrategy idle, final ReplyOutbox outbox, final ServiceTimers timers, final ReplyRouting replies,
            final Runnable pipelineCheck) {
        this.ring = ring;
        this.cluster = cluster;
        this.idle = idle;
        this.decoder = settings.decoder();
        this.timerPolicy = settings.timerPolicy();
        this.timerPayload = settings.timerPayload();
        this.timers = timers;
        this.failurePolicy = settings.failurePolicy();
        this.outbox = outbox;
        this.replies = replies;
        this.pipelineCheck = pipelineCheck;
    }

    /** Publishes a command the log applied; {@code offset} and {@code length} are its payload's, past the header. */
    void publishCommand(final DirectBuffer buffer, final int offset, final int length, final long position,
            final long timestamp, final long sessionId, final long clientId, final long correlationId) {
        inBuffer = buffer;
        inOffset = offset;
        inLength = length;
        inPosition = position;
        inTimestamp = timestamp;
        inSessionId = sessionId;
        inClientId = clientId;
        inCorrelationId = correlationId;
        publish(commandTranslator);
        inBuffer = null;  // no reference to the log's buffer outlives the callback
    }

    /** Publishes a stage timer's event at the log position of its timer event. */
    void publishTimer(final long timerId, final long timestamp) {
        inPosition = cluster.logPosition();
        inTimestamp = timestamp;
        inTimerId = timerId;
        publish(timerTranslator);
    }

    private void publish(final EventTranslator<ClusterCommand<T>> translator) {
        if (ring.tryPublishEvent(translator)) {
            return;
        }
        idle.reset();
        while (!ring.tryPublishEvent(translator)) {
            pipelineCheck.run();
            // the stages may be waiting for reply buffers: keep sending while the ring is full
            if (replies.deliver() == 0) {
                idle.idle();
            }
        }
    }

    private void translateCommand(final ClusterCommand<T> slot, final long sequence) {
        slot.set(inPosition, inTimestamp, inSessionId, inClientId, inCorrelationId);
        try {
            decoder.decode(inBuffer, inOffset, inLength, slot.payload());
            if (timerPolicy != null) {
                // the slot is claimed but not yet published: no stage reads it while the policy does
                timers.apply(timerPolicy, slot);
            }
        } catch (final Exception e) {
            rejectOnServiceThread(e, sequence, slot);
        }
    }

    private void translateTimer(final ClusterCommand<T> slot, final long sequence) {
        slot.setTimer(inPosition, inTimestamp, inTimerId);
        try {
            timerPayload.fill(inTimerId, inTimestamp, slot.payload());
            timers.apply(timerPolicy, slot);
        } catch (final Exception e) {
            rejectOnServiceThread(e, sequence, slot);
        }
    }

    /**
     * The decoder or the timer policy threw: the slot is still published (a claimed slot must
     * be), marked rejected, so every stage sees it as rejected; the client is answered here. With
     * {@link CommandFailurePolicy#HALT} the member stops instead.
     */
    private void rejectOnServiceThread(final Exception e, final long sequence, final ClusterCommand<T> slot) {
        slot.casRejected(CommandRejector.reason(e));
        if (failurePolicy == CommandFailurePolicy.HALT) {
            throw new AgentTerminationException("cluster member " + cluster.memberId() + ": the ingress decoder or "
                    + "timer policy threw for " + slot + " and the service halts on exceptions", e);
        }
        if (!slot.isTimer()) {
            outbox.rejectFromService(slot.clusterSessionId(), slot.correlationId(), slot.rejection());
        }
        decoderLog.handleEventException(e, sequence, slot);
    }
}
