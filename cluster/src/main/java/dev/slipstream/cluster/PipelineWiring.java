package dev.slipstream.cluster;

import dev.slipstream.topology.Slipstream;

/**
 * Builds a clustered pipeline's stages with the usual DSL. Called once per service start, on the
 * service thread, before the snapshot (if any) is loaded and before the pipeline starts; it
 * creates fresh stage objects each time.
 *
 * <pre>{@code
 * PipelineWiring<Order> wiring = (pipeline, outbox, states) -> {
 *     OrderBook book = new OrderBook();
 *     states.register("book", book);                                  // snapshotted and restored
 *     pipeline.handleEventsWith(StageSpec.of("match", book))
 *             .then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
 *                     outbox.reply(command, OrderBook::writeAck, command.payload())));
 * };
 * }</pre>
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface PipelineWiring<T> {
    /**
     * Adds the stages.
     *
     * @param pipeline the pipeline, not yet started
     * @param outbox where stages put replies to clients
     * @param states where stateful stages register their {@link StageState}
     */
    void wire(Slipstream<ClusterCommand<T>> pipeline, ReplyOutbox outbox, StageStates states);
}
