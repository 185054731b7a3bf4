package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.LprqQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.queue.SlotSequenceQueue;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Per-producer order at each consumer, with many producers and consumers on small rings
 * ({@link FifoOrderCheck}): 8 x 8 and 16 x 16 threads on two cores, so that threads are
 * descheduled in the middle of every step of the protocols, around ring and segment changes.
 *
 * <p>Sized for every build (one round per case). The long run takes its size from system
 * properties: {@code -Dslipstream.fifo.rounds=50 -Dslipstream.fifo.perProducer=500000}
 * (see {@code stress-tests/run-fifo-stress.sh}).
 */
class QueueFifoStressTest {
    private static final int ROUNDS = Integer.getInteger("slipstream.fifo.rounds", 1);
    private static final int PER_PRODUCER = Integer.getInteger("slipstream.fifo.perProducer", 20_000);

    static Stream<Arguments> cases() {
        final Stream.Builder<Arguments> cases = Stream.builder();
        for (final int[] shape : new int[][] {{8, 8}, {16, 16}}) {
            cases.add(Arguments.of(named("LprqQueue ring 1", () -> new LprqQueue<>(1)), shape[0], shape[1]));
            cases.add(Arguments.of(named("LprqQueue ring 2", () -> new LprqQueue<>(2)), shape[0], shape[1]));
            cases.add(Arguments.of(named("LprqQueue ring 4", () -> new LprqQueue<>(4)), shape[0], shape[1]));
            cases.add(Arguments.of(named("LprqQueue default", LprqQueue::new), shape[0], shape[1]));
            cases.add(Arguments.of(named("LscqQueue segment 2", () -> new LscqQueue<>(2)), shape[0], shape[1]));
            cases.add(Arguments.of(named("LscqQueue default", LscqQueue::new), shape[0], shape[1]));
            cases.add(Arguments.of(named("ScqQueue 4", () -> new ScqQueue<>(4)), shape[0], shape[1]));
            // the candidates the many-core run compares (LprqQueue.Contention, SlotSequenceQueue)
            cases.add(Arguments.of(named("LprqQueue ring 2 BACK_OFF",
                    () -> new LprqQueue<>(2, LprqQueue.Contention.BACK_OFF)), shape[0], shape[1]));
            cases.add(Arguments.of(named("LprqQueue ring 2 WAIT_FOR_OFFER",
                    () -> new LprqQueue<>(2, LprqQueue.Contention.WAIT_FOR_OFFER)), shape[0], shape[1]));
            cases.add(Arguments.of(named("SlotSequenceQueue 4", () -> new SlotSequenceQueue<>(4)), shape[0], shape[1]));
            cases.add(Arguments.of(named("SlotSequenceQueue 4 backing off", () -> SlotSequenceQueue.backingOff(4)),
                    shape[0], shape[1]));
        }
        return cases.build();
    }

    private static Named<Supplier<Queue<Long>>> named(final String name, final Supplier<Queue<Long>> queue) {
        return Named.of(name, queue);
    }

    @ParameterizedTest(name = "{0}, {1} x {2}")
    @MethodSource("cases")
    void everyConsumerSeesEachProducersElementsInOrderAndEveryElementOnce(final Supplier<Queue<Long>> queues,
            final int producers, final int consumers) throws InterruptedException {
        for (int round = 0; round < ROUNDS; round++) {
            final Queue<Long> queue = queues.get();
            final FifoOrderCheck.Result result = FifoOrderCheck.run(subject(queue), producers, consumers,
                    PER_PRODUCER, false, 120, TimeUnit.SECONDS);
            assertTrue(result.clean(), "round " + (round + 1) + " of " + ROUNDS + ": " + result);
        }
    }

    /**
     * Proof that the check can fail: {@link MutantLprqQueue}'s {@code TAKE_WITHOUT_EPOCH_CHECK}, a
     * dequeuer that takes whatever element its cell holds (the class of bug the order failure
     * was: a dequeuer handed another position's element). Rounds end at the first violation; the
     * proof allows up to 10 of them (it caught the mutant in the first round in 3 of 3 tries, 2
     * cores, 8 x 8 threads, at a load of 12).
     */
    @Test
    @Tag("stress")
    void theCheckCatchesADequeuerThatTakesAnotherPositionsElement() throws InterruptedException {
        FifoOrderCheck.Result result = null;
        int round = 0;
        while (round < 10 && (result == null || result.clean())) {
            round++;
            final MutantLprqQueue mutant = new MutantLprqQueue(MutantLprqQueue.Mutation.TAKE_WITHOUT_EPOCH_CHECK, 2);
            result = FifoOrderCheck.run(new FifoOrderCheck.Subject() {
                @Override
                public boolean offer(final Long e) {
                    return mutant.offer(e);
                }

                @Override
                public Long poll() {
                    return (Long) mutant.poll();
                }
            }, 8, 8, 100_000, true, 60, TimeUnit.SECONDS);
        }
        assertTrue(result.orderViolations > 0, "10 rounds of 8 x 8 threads found no order violation: " + result);
    }

    private static FifoOrderCheck.Subject subject(final Queue<Long> queue) {
        return new FifoOrderCheck.Subject() {
            @Override
            public boolean offer(final Long e) {
                return queue.offer(e);
            }

            @Override
            public Long poll() {
                return queue.poll();
            }
        };
    }
}
