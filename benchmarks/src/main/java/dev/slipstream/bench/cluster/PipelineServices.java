package dev.slipstream.bench.cluster;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.topology.StageGroup;
import dev.slipstream.topology.StageSpec;
import java.util.function.Supplier;

/**
 * The clustered pipeline of the round-trip benchmark: the ingress decoder reads the 8-byte
 * amount into the slot, {@code stages - 1} ledger stages each count and sum the amounts, and the
 * last stage replies with the amount through the outbox.
 *
 * <pre>{@code
 * ClusterMember member = ClusterMember.start(config, PipelineServices.service(2, BlockingWaitStrategy::new));
 * }</pre>
 */
public final class PipelineServices {
    private PipelineServices() {
    }

    /** A slot's payload: the command's amount. */
    public static final class Amount {
        long value;
    }

    /** A stage that keeps a count and a sum of the amounts, as a business stage keeps its state. */
    static final class LedgerStage implements EventHandler<ClusterCommand<Amount>> {
        long count;
        long sum;

        @Override
        public void onEvent(final ClusterCommand<Amount> command, final long sequence, final boolean endOfBatch) {
            count++;
            sum += command.payload().value;
        }
    }

    /**
     * @param stages the pipeline's stages, the last one replying; at least 1
     * @param ringWait how the stages wait
     * @return the service, to start in one member
     * @throws IllegalArgumentException if {@code stages} is under 1
     */
    public static PipelineClusteredService<Amount> service(final int stages, final Supplier<WaitStrategy> ringWait) {
        return service(stages, ringWait, true);
    }

    /**
     * @param stages the pipeline's stages, the last one replying; at least 1
     * @param ringWait how the stages wait
     * @param fastReplies whether the leader sends ready replies from {@code doBackgroundWork} too
     *        (see {@code PipelineClusteredService.Builder#fastReplies})
     * @return the service, to start in one member
     * @throws IllegalArgumentException if {@code stages} is under 1
     */
    public static PipelineClusteredService<Amount> service(final int stages, final Supplier<WaitStrategy> ringWait,
            final boolean fastReplies) {
        if (stages < 1) {
            throw new IllegalArgumentException("stages must be at least 1 (the reply stage), was " + stages);
        }
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(4096)
                .replies(4096, Long.BYTES)
                .waitStrategy(ringWait)
                .fastReplies(fastReplies)
                .pipeline((pipeline, outbox, states) -> {
                    final EventHandler<ClusterCommand<Amount>> reply = (command, sequence, endOfBatch) ->
                            outbox.reply(command, (buffer, offset, amount) -> {
                                buffer.putLong(offset, amount.value);
                                return Long.BYTES;
                            }, command.payload());
                    if (stages == 1) {
                        pipeline.handleEventsWith(StageSpec.of("reply", reply));
                        return;
                    }
                    StageGroup<ClusterCommand<Amount>> group = pipeline.handleEventsWith(
                            StageSpec.of("ledger-1", new LedgerStage()));
                    for (int i = 2; i < stages; i++) {
                        group = group.then(StageSpec.of("ledger-" + i, new LedgerStage()));
                    }
                    group.then(StageSpec.of("reply", reply));
                })
                .build();
    }
}
