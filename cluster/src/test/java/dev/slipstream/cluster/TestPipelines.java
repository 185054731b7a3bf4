package dev.slipstream.cluster;

import dev.slipstream.topology.StageSpec;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/** The test service: decode an amount, apply it to a {@link Ledger}, reply with the new count. */
final class TestPipelines {
    private TestPipelines() {
    }

    static PipelineClusteredService<Amount> service(final Supplier<? extends Ledger> ledgers,
            final AtomicReference<Ledger> current) {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(256)
                .pipeline((pipeline, outbox, states) -> {
                    final Ledger ledger = ledgers.get();
                    states.register("ledger", ledger);
                    current.set(ledger);
                    pipeline.handleEventsWith(StageSpec.of("ledger", ledger))
                            .then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
                                    outbox.reply(command, (buffer, offset, amount) -> {
                                        buffer.putLong(offset, amount.countAfter);
                                        return Long.BYTES;
                                    }, command.payload())));
                })
                .build();
    }
}
