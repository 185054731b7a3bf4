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
        return service(ledgers, current, false);
    }

    /** Of every 150 correlation ids, 100 to 110 are not answered when first applied in order. */
    static boolean withheld(final ClusterCommand<Amount> command) {
        final long inRound = command.correlationId() % FailoverTest.PER_KILL;
        return inRound >= 100 && inRound <= 110 && command.payload().countAfter == command.correlationId();
    }

    /**
     * The test service; with {@code withhold}, the reply stage does not answer the commands
     * {@link #withheld} picks the first time they are applied (the same on every member), so
     * that a leader killed later leaves committed commands unanswered, to be re-sent.
     */
    static PipelineClusteredService<Amount> service(final Supplier<? extends Ledger> ledgers,
            final AtomicReference<Ledger> current, final boolean withhold) {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(256)
                .pipeline((pipeline, outbox, states) -> {
                    final Ledger ledger = ledgers.get();
                    states.register("ledger", ledger);
                    current.set(ledger);
                    pipeline.handleEventsWith(StageSpec.of("ledger", ledger))
                            .then(StageSpec.of("reply", (command, sequence, endOfBatch) -> {
                                if (!withhold || !withheld(command)) {
                                    outbox.reply(command, (buffer, offset, amount) -> {
                                        buffer.putLong(offset, amount.countAfter);
                                        return Long.BYTES;
                                    }, command.payload());
                                }
                            }));
                })
                .build();
    }
}
