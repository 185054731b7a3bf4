package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.SleepingWaitStrategy;
import dev.slipstream.wait.TimeoutBlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a close means to the consumers of a closable blocking queue: what was accepted before it
 * is still taken, then {@code take()} throws {@link QueueClosedException} and a timed
 * {@code poll} returns null, also to a consumer that was already waiting when the queue closed.
 * The class timeout only guards against a consumer left waiting; no test measures a time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosedBlockingQueueTest {
    private static final String CLOSED_MESSAGE = "queue is closed and empty: take() has nothing left to return;"
            + " every element accepted before close() has been taken";

    static Stream<Named<Function<WaitStrategy, UnboundedBlockingQueue<Integer>>>> queues() {
        return Stream.of(
                Named.of("LprqBlockingQueue(2)", ws -> new LprqBlockingQueue<>(2, ws)),
                Named.of("LscqBlockingQueue(2)", ws -> new LscqBlockingQueue<>(2, ws)));
    }

    static Stream<Arguments> queuesAndStrategies() {
        return queues().flatMap(q -> Stream.of(
                Named.of("hybrid", (WaitStrategy) new HybridWaitStrategy()),
                Named.of("blocking", new BlockingWaitStrategy()),
                Named.of("busy spin", new BusySpinWaitStrategy()),
                Named.of("yielding", new YieldingWaitStrategy()),
                Named.of("sleeping", new SleepingWaitStrategy()),
                Named.of("timeout blocking", new TimeoutBlockingWaitStrategy(Duration.ofMillis(1))))
                .map(ws -> Arguments.of(q, ws)));
    }

    @ParameterizedTest
    @MethodSource("queues")
    void takeReturnsWhatWasAcceptedBeforeTheCloseThenThrows(
            final Function<WaitStrategy, UnboundedBlockingQueue<Integer>> factory) throws Exception {
        final UnboundedBlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        for (int i = 0; i < 5; i++) {
            q.put(i); // more than a ring or segment of two: the close seals a later one
        }
        q.close();
        for (int i = 0; i < 5; i++) {
            assertEquals(i, q.take(), "what was accepted before the close is still taken, in order");
        }
        assertTrue(q.isDrained());
        final QueueClosedException closed = assertThrows(QueueClosedException.class, q::take);
        assertEquals(CLOSED_MESSAGE, closed.getMessage());
        assertInstanceOf(IllegalStateException.class, closed, "a closed queue is a state, as for put and add");
        assertThrows(QueueClosedException.class, q::take, "and on every later call");
    }

    @ParameterizedTest
    @MethodSource("queues")
    void aTimedPollReturnsWhatWasAcceptedThenNullWithoutWaitingItsTimeout(
            final Function<WaitStrategy, UnboundedBlockingQueue<Integer>> factory) throws Exception {
        final UnboundedBlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        q.put(1);
        q.put(2);
        q.close();
        assertEquals(1, q.poll(1, TimeUnit.HOURS));
        assertEquals(2, q.poll(1, TimeUnit.HOURS));
        // an hour's timeout: only the class timeout ends this if the poll waits
        assertNull(q.poll(1, TimeUnit.HOURS), "closed and drained: null at once");
        assertNull(q.poll(Long.MAX_VALUE, TimeUnit.DAYS));
        assertNull(q.poll(0, TimeUnit.SECONDS));
        assertNull(q.poll());
    }

    @ParameterizedTest
    @MethodSource("queuesAndStrategies")
    void closeReleasesATakerWaitingWithEveryStrategy(
            final Function<WaitStrategy, UnboundedBlockingQueue<Integer>> factory, final WaitStrategy ws)
            throws Exception {
        final UnboundedBlockingQueue<Integer> q = factory.apply(ws);
        assertInstanceOf(QueueClosedException.class, waitThroughClose(q, q::take),
                "the waiting taker is released by the close");
    }

    @ParameterizedTest
    @MethodSource("queuesAndStrategies")
    void closeReleasesATimedPollWaitingWithEveryStrategy(
            final Function<WaitStrategy, UnboundedBlockingQueue<Integer>> factory, final WaitStrategy ws)
            throws Exception {
        final UnboundedBlockingQueue<Integer> q = factory.apply(ws);
        assertNull(waitThroughClose(q, () -> q.poll(1, TimeUnit.HOURS)),
                "the waiting poll returns null on the close, long before its hour");
    }

    /**
     * Closes {@code q} while one consumer waits in {@code waiting}, and returns what the consumer
     * got: its result or what it threw ("not returned" if neither). No waiter is left registered.
     */
    private static Object waitThroughClose(final UnboundedBlockingQueue<Integer> q,
                                           final Callable<Integer> waiting) throws InterruptedException {
        final AtomicReference<Object> got = new AtomicReference<>("not returned");
        final Thread consumer = start(() -> got.set(waiting.call()), got);
        awaitWaiters(q, 1);
        q.close();
        consumer.join();
        assertEquals(0, QueueInternals.waiting(q.notEmpty), "no waiter left registered");
        return got.get();
    }

    @Test
    void aTakerWaitingAtTheCloseGetsAnElementOfferedBeforeItFirst() throws Exception {
        final LprqBlockingQueue<Integer> q = new LprqBlockingQueue<>();
        final AtomicReference<Object> first = new AtomicReference<>();
        final AtomicReference<Object> second = new AtomicReference<>();
        final Thread taker = start(() -> {
            first.set(q.take());
            second.set(q.take());
        }, second);
        awaitWaiters(q, 1);
        q.put(7);
        q.close();
        taker.join();
        assertEquals(7, first.get());
        assertInstanceOf(QueueClosedException.class, second.get());
    }

    @Test
    void anInterruptStillEndsAWaitOnAnOpenQueue() throws Exception {
        final LscqBlockingQueue<Integer> q = new LscqBlockingQueue<>();
        final AtomicReference<Object> got = new AtomicReference<>();
        final Thread taker = start(() -> got.set(q.take()), got);
        awaitWaiters(q, 1);
        taker.interrupt();
        taker.join();
        assertInstanceOf(InterruptedException.class, got.get());
        assertFalse(q.isClosed());
    }

    @Test
    void aQueueThatCannotCloseNeverThrowsTheClosedException() throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(2);
        assertFalse(q.isClosedToProducers());
        q.put(3);
        assertEquals(3, q.take());
        assertNull(q.poll(1, TimeUnit.MILLISECONDS), "an empty open queue: null after the timeout");
    }

    /** What a consumer thread does; it may throw. */
    private interface Consuming {
        void run() throws Exception;
    }

    /** Starts a consumer that records what it throws in {@code thrown}. */
    private static Thread start(final Consuming consuming, final AtomicReference<Object> thrown) {
        final Thread t = new Thread(() -> {
            try {
                consuming.run();
            } catch (Exception e) {
                thrown.set(e);
            }
        });
        t.start();
        return t;
    }

    /** Until {@code n} takers are registered on the queue's signal, i.e. inside their wait loop. */
    private static void awaitWaiters(final SignalledBlockingQueue<?> q, final int n) {
        while (QueueInternals.waiting(q.notEmpty) != n) {
            Thread.onSpinWait();
        }
    }
}
