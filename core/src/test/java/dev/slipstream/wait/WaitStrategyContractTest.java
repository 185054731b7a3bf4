package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every wait strategy must do, checked against each of them. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WaitStrategyContractTest {

    static Stream<Arguments> all() {
        return Stream.of(
                strategy("busy-spin", BusySpinWaitStrategy::new),
                strategy("yielding", YieldingWaitStrategy::new),
                strategy("sleeping", SleepingWaitStrategy::new),
                strategy("blocking", BlockingWaitStrategy::new),
                strategy("lite-blocking", LiteBlockingWaitStrategy::new),
                strategy("timeout-blocking", () -> new TimeoutBlockingWaitStrategy(Duration.ofMinutes(5))),
                strategy("phased-backoff", () -> PhasedBackoffWaitStrategy.withLiteLock(
                        Duration.ofNanos(1_000), Duration.ofNanos(1_000))),
                strategy("hybrid", HybridWaitStrategy::new),
                strategy("hybrid-park-at-once", () -> new HybridWaitStrategy(0, 0, 1_000)));
    }

    /** The strategies that fall asleep and must be woken by signalAllWhenBlocking. */
    static Stream<Arguments> sleeping() {
        return Stream.of(
                strategy("blocking", BlockingWaitStrategy::new),
                strategy("lite-blocking", LiteBlockingWaitStrategy::new),
                strategy("timeout-blocking", () -> new TimeoutBlockingWaitStrategy(Duration.ofMinutes(5))),
                strategy("phased-backoff", () -> new PhasedBackoffWaitStrategy(
                        Duration.ZERO, Duration.ZERO, new BlockingWaitStrategy())),
                strategy("hybrid", () -> new HybridWaitStrategy(0, 0, 1_000)),
                strategy("hybrid-defaults", HybridWaitStrategy::new));
    }

    /** The strategies that park or sleep, and so end their wait when the thread is interrupted. */
    static Stream<Arguments> interruptible() {
        return Stream.concat(sleeping(), Stream.of(
                strategy("sleeping", () -> new SleepingWaitStrategy(0, 1_000))));
    }

    private static Arguments strategy(final String name, final Supplier<WaitStrategy> factory) {
        return Arguments.of(name, factory);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void returnsAtOnceWhatIsAlreadyAvailable(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get());
        barrier.cursor.set(10);
        assertEquals(10, barrier.waitFor(5), "returns the highest available, not the one asked for");
        assertEquals(10, barrier.waitFor(10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void returnsWhenAnotherThreadPublishes(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get());
        final Waiter waiter = Waiter.start(barrier, 0);
        barrier.publish(0);
        assertEquals(0, waiter.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void followsAProducerThroughManyPublications(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get());
        final int count = 5_000;
        final Thread producer = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                barrier.publish(i);
            }
        });
        producer.start();
        long next = 0;
        long waits = 0;
        while (next < count) {
            final long available = barrier.waitFor(next);
            assertTrue(available >= next, "waitFor(" + next + ") returned " + available);
            assertTrue(available < count, "returned " + available + ", beyond anything published");
            next = available + 1;
            waits++;
        }
        producer.join();
        assertEquals(count, next);
        assertTrue(waits <= count);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sleeping")
    void aSleepingWaiterWakesOnSignal(final String name, final Supplier<WaitStrategy> factory) throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get());
        final Waiter waiter = Waiter.start(barrier, 3).awaitAsleep();
        barrier.publish(3);
        assertEquals(3, waiter.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void waitsForAnUpstreamStageThatDoesNotSignal(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final Sequence cursor = new Sequence(10);
        final Sequence upstream = new Sequence(2);
        final TestBarrier barrier = new TestBarrier(factory.get(), cursor, upstream);
        final Waiter waiter = Waiter.start(barrier, 5);
        upstream.set(4);
        upstream.set(7);   // no signal: upstream stages never signal
        assertEquals(7, waiter.get(), "returns the upstream stage's sequence, not the cursor");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void alertWakesAWaiterWithAlertException(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get());
        final Waiter waiter = Waiter.start(barrier, 0);
        barrier.alert();
        assertSame(AlertException.INSTANCE, waiter.failure());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sleeping")
    void alertWakesASleepingWaiter(final String name, final Supplier<WaitStrategy> factory) throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get());
        final Waiter waiter = Waiter.start(barrier, 0).awaitAsleep();
        barrier.alert();
        assertSame(AlertException.INSTANCE, waiter.failure());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void alertWakesAWaiterThatWaitsForAnUpstreamStage(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final TestBarrier barrier = new TestBarrier(factory.get(), new Sequence(10), new Sequence(2));
        final Waiter waiter = Waiter.start(barrier, 5);
        barrier.alert();
        assertSame(AlertException.INSTANCE, waiter.failure());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interruptible")
    void interruptEndsASleepingWaitAndAWaitForAnUpstreamStageWithInterruptedException(
            final String name, final Supplier<WaitStrategy> factory) throws Exception {
        for (final TestBarrier barrier : new TestBarrier[] {
                new TestBarrier(factory.get()), new TestBarrier(factory.get(), new Sequence(10), new Sequence(2))}) {
            final Waiter waiter = Waiter.start(barrier, barrier.dependent == barrier.cursor ? 0 : 5).awaitAsleep();
            waiter.thread.interrupt();
            assertInstanceOf(InterruptedException.class, waiter.failure());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void signalWithNobodyWaitingIsHarmless(final String name, final Supplier<WaitStrategy> factory)
            throws Exception {
        final WaitStrategy strategy = factory.get();
        for (int i = 0; i < 1_000; i++) {
            strategy.signalAllWhenBlocking();
        }
        final TestBarrier barrier = new TestBarrier(strategy);
        barrier.publish(0);
        assertEquals(0, barrier.waitFor(0));
    }
}
