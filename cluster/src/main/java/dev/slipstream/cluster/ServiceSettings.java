package dev.slipstream.cluster;

import dev.slipstream.sequence.WaitStrategy;
import java.util.function.Supplier;

/**
 * What a {@link PipelineClusteredService.Builder} was told, checked and fixed at
 * {@code build()}: the builder fills it once, and each part of the service reads the few values
 * it needs from it, so no part holds the builder or the service.
 *
 * <pre>{@code
 * // in Builder.build(), once the builder's values are checked
 * ServiceSettings<Order> settings = new ServiceSettings<>(payloadFactory, decoder, wiring, ringSize,
 *         waitStrategy, replyCapacity, maxReplyLength, snapshotChunkLength, timerPolicy, timerPayload,
 *         fastReplies, failurePolicy, maxCommandLength, maxClients, replyTimerFirstTickMs);
 * // in onStart: each part is given what it reads
 * ReplyTimer replyTimer = new ReplyTimer(cluster, settings.replyTimerFirstTickMs());
 * }</pre>
 *
 * @param payloadFactory makes one payload per ring slot
 * @param decoder turns a command's payload bytes into the slot's payload
 * @param wiring builds the stages on every start
 * @param ringSize the ring's size, a power of two
 * @param waitStrategy makes the stages' wait strategy on every start
 * @param replyCapacity replies the outbox queues at once
 * @param maxReplyLength the longest reply payload
 * @param snapshotChunkLength the largest snapshot message payload
 * @param timerPolicy schedules and cancels the stages' timers; null for none
 * @param timerPayload fills a timer event's payload; null without a timer policy
 * @param fastReplies whether the leader sends replies between log callbacks on its own publications
 * @param failurePolicy what a stage's or the decoder's exception does
 * @param maxCommandLength the longest command payload accepted
 * @param maxClients how many clients the dedup table remembers
 * @param replyTimerFirstTickMs the reply timer's first tick after a command, in ms
 * @param <T> the payload type
 */
record ServiceSettings<T>(
        Supplier<T> payloadFactory,
        IngressDecoder<T> decoder,
        PipelineWiring<T> wiring,
        int ringSize,
        Supplier<WaitStrategy> waitStrategy,
        int replyCapacity,
        int maxReplyLength,
        int snapshotChunkLength,
        TimerPolicy<T> timerPolicy,
        TimerPayload<T> timerPayload,
        boolean fastReplies,
        CommandFailurePolicy failurePolicy,
        int maxCommandLength,
        int maxClients,
        long replyTimerFirstTickMs) {

    /** @return true if the stages have timers: a timer policy was set */
    boolean hasTimers() {
        return timerPolicy != null;
    }
}
