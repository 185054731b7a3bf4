package dev.slipstream.cluster;

import dev.slipstream.topology.StageSpec;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The timer tests' service: a command's amount says which timer it schedules or cancels, a
 * {@link SeenEvents} stage records every event, and a reply stage answers each command with the
 * number of events seen so far.
 *
 * <p>Amounts: {@code id * 10_000 + delay} (positive) schedules timer {@code id} at the command's
 * cluster time plus {@code delay} milliseconds; {@code -id} cancels timer {@code id}; 0 does
 * neither. A timer event's payload amount is {@code -1_000 - id}.
 */
final class TimerPipelines {
    private TimerPipelines() {
    }

    static long schedule(final long id, final long delayMs) {
        return id * 10_000 + delayMs;
    }

    /** The policy: a function of the command alone. */
    static final TimerPolicy<Amount> POLICY = (event, timers) -> {
        if (event.isTimer()) {
            return;
        }
        final long amount = event.payload().value;
        if (amount > 0) {
            timers.schedule(amount / 10_000,
                    event.timestamp() + timers.timeUnit().convert(amount % 10_000, TimeUnit.MILLISECONDS));
        } else if (amount < 0) {
            timers.cancel(-amount);
        }
    };

    static final TimerPayload<Amount> PAYLOAD = (timerId, timestamp, into) -> {
        into.value = -1_000 - timerId;
        into.countAfter = 0;
    };

    static PipelineClusteredService<Amount> service(final AtomicReference<SeenEvents> current) {
        return service(POLICY, current);
    }

    static PipelineClusteredService<Amount> service(final TimerPolicy<Amount> policy,
            final AtomicReference<SeenEvents> current) {
        return service(policy, SeenEvents::new, current);
    }

    static PipelineClusteredService<Amount> service(final TimerPolicy<Amount> policy,
            final java.util.function.Supplier<? extends SeenEvents> stages, final AtomicReference<SeenEvents> current) {
        return PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .timers(policy, PAYLOAD)
                .pipeline((pipeline, outbox, states) -> {
                    final SeenEvents events = stages.get();
                    states.register("events", events);
                    current.set(events);
                    pipeline.handleEventsWith(StageSpec.of("events", events))
                            .then(StageSpec.of("reply", (event, sequence, endOfBatch) -> {
                                if (!event.isTimer()) {
                                    outbox.reply(event, (buffer, offset, amount) -> {
                                        buffer.putLong(offset, amount.countAfter);
                                        return Long.BYTES;
                                    }, event.payload());
                                }
                            }));
                })
                .build();
    }
}
