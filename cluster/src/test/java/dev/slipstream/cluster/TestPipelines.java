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

    /** An amount the validating stage throws for, as a user's stage did for an unknown account. */
    static final long POISON = 666_666;
    /** Amount {@code ERROR_BASE + m} makes the validating stage of member {@code m} throw an {@code Error}. */
    static final long ERROR_BASE = 777_000;

    /**
     * The test service behind a validating stage: it throws {@code ArrayIndexOutOfBoundsException}
     * for {@link #POISON} on every member, and an {@code AssertionError} for
     * {@code ERROR_BASE + memberId} on member {@code memberId} only; the ledger skips rejected
     * commands; the reply stage answers each with the ledger's count.
     */
    static PipelineClusteredService<Amount> validating(final Supplier<? extends Ledger> ledgers,
            final AtomicReference<Ledger> current, final int memberId, final CommandFailurePolicy policy) {
        return validating(ledgers, current, memberId, policy, false);
    }

    /**
     * As above; with {@code rejectErrors}, the seeded bug: the validating stage's exception
     * handler rejects an {@code Error} like an exception, so the member it happened on goes on.
     */
    static PipelineClusteredService<Amount> validating(final Supplier<? extends Ledger> ledgers,
            final AtomicReference<Ledger> current, final int memberId, final CommandFailurePolicy policy,
            final boolean rejectErrors) {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(256)
                .onCommandException(policy)
                .pipeline((pipeline, outbox, states) -> {
                    final Ledger ledger = ledgers.get();
                    states.register("ledger", ledger);
                    current.set(ledger);
                    final StageSpec<ClusterCommand<Amount>> validate = StageSpec.of("validate",
                            (command, sequence, endOfBatch) -> {
                                final long amount = command.payload().value;
                                if (amount == POISON) {
                                    throw new ArrayIndexOutOfBoundsException("no account " + amount);
                                }
                                if (amount == ERROR_BASE + memberId) {
                                    throw new AssertionError("member " + memberId + " alone fails on " + amount);
                                }
                            });
                    pipeline.handleEventsWith(rejectErrors ? validate.exceptionHandler(new ErrorRejector(outbox))
                            : validate).then(StageSpec.of("ledger", (command, sequence, endOfBatch) -> {
                        if (!command.isRejected()) {
                            ledger.onEvent(command, sequence, endOfBatch);
                        }
                    })).then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
                            outbox.reply(command, (buffer, offset, amount) -> {
                                buffer.putLong(offset, amount.countAfter);
                                return Long.BYTES;
                            }, command.payload())));
                })
                .build();
    }

    /** The seeded bug: every {@code Throwable}, an {@code Error} too, rejects its command and the stage goes on. */
    private static final class ErrorRejector implements dev.slipstream.processor.ExceptionHandler<ClusterCommand<Amount>> {
        private final ReplyOutbox outbox;

        ErrorRejector(final ReplyOutbox outbox) {
            this.outbox = outbox;
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final ClusterCommand<Amount> command) {
            if (command.casRejected(CommandRejector.reason(ex))) {
                outbox.reject(command, command.rejection());
            }
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
        }
    }
}
