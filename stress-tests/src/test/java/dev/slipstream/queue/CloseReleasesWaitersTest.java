package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A close releases every consumer waiting on a closable blocking queue, and every element offered
 * before the close is delivered exactly once. Each case parks 1 to 8 consumers, in {@code take()},
 * in a timed {@code poll} with an hour's timeout, or half in each; a round of elements is offered
 * and taken; the consumers are seen parked again (every one registered as a waiter, then each
 * seen in state WAITING or TIMED_WAITING, never a sleep); then the queue is closed, with a
 * second round of elements offered just before the close in the cases that say so. Every consumer
 * must return within a bound: a taker by {@link QueueClosedException}, a poll with null.
 *
 * <p>The same check must catch a close that does not signal its waiters
 * ({@link SilentCloseMutant}). There no element is offered before the close, so no signal has
 * ever been sent: a consumer seen parked is inside its wait with no wake-up pending, past its
 * look at the close, and under the mutant nothing can wake it. All eight are left waiting in
 * every run.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CloseReleasesWaitersTest {
    /** How long the consumers of the shipped queues get to return after the close: a hang guard. */
    private static final long RELEASE_BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How long a mutant's consumers are given; they can never return, so any bound catches it. */
    private static final long MUTANT_BOUND_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long PARK_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final VarHandle WAITING;

    static {
        try {
            // the same package as the queues: the waiter count is package-private there
            WAITING = MethodHandles.lookup().findVarHandle(QueueSignalWaiting.class, "waiting", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How the consumers wait. */
    enum Waits { TAKE, TIMED_POLL, HALF_EACH }

    static Stream<Arguments> cases() {
        final List<Named<Supplier<UnboundedBlockingQueue<Integer>>>> queues = List.of(
                Named.of("LprqBlockingQueue(2)", () -> new LprqBlockingQueue<>(2, new HybridWaitStrategy())),
                Named.of("LscqBlockingQueue(2)", () -> new LscqBlockingQueue<>(2, new HybridWaitStrategy())),
                Named.of("LprqBlockingQueue(2), blocking", () -> new LprqBlockingQueue<>(2, new BlockingWaitStrategy())),
                Named.of("LscqBlockingQueue(2), blocking", () -> new LscqBlockingQueue<>(2, new BlockingWaitStrategy())));
        return queues.stream().flatMap(q -> Stream.of(Waits.values()).flatMap(w -> IntStream.rangeClosed(1, 8)
                .mapToObj(n -> Arguments.of(q, w, n, n % 2 == 0))));
    }

    @ParameterizedTest(name = "{0}, {1}, {2} consumers, offers just before the close: {3}")
    @MethodSource("cases")
    void closeReleasesEveryWaiterAndDeliversEveryElementOnce(final Supplier<UnboundedBlockingQueue<Integer>> queue,
                                                            final Waits waits, final int consumers,
                                                            final boolean offerJustBeforeClose)
            throws InterruptedException {
        final Outcome outcome = run(queue.get(), waits, consumers, 3, offerJustBeforeClose,
                UnboundedBlockingQueue::close, RELEASE_BOUND_NANOS);
        assertEquals(0, outcome.leftWaiting, outcome::toString);
        assertEquals(List.of(), outcome.wrongEndings, outcome::toString);
        assertEquals(List.of(), outcome.notDeliveredOnce, outcome::toString);
    }

    @Test
    @Tag("stress")
    void theCheckCatchesACloseThatDoesNotSignalItsWaiters() throws InterruptedException {
        for (final UnboundedBlockingQueue<Integer> q : List.<UnboundedBlockingQueue<Integer>>of(
                new LprqBlockingQueue<>(2, new HybridWaitStrategy()),
                new LscqBlockingQueue<>(2, new BlockingWaitStrategy()))) {
            // no element before the close: no signal ever moved the counter, so a consumer seen
            // parked is inside its wait for good, with no wake-up of an earlier signal pending
            final Outcome outcome = run(q, Waits.HALF_EACH, 8, 0, false, SilentCloseMutant::close, MUTANT_BOUND_NANOS);
            System.out.println("[close-release] silent close mutant: " + outcome);
            assertEquals(8, outcome.leftWaiting, "every parked consumer must be left waiting by the mutant: "
                    + outcome);
        }
    }

    /** What a case found. */
    static final class Outcome {
        int leftWaiting;
        final List<String> wrongEndings = new ArrayList<>();
        final List<String> notDeliveredOnce = new ArrayList<>();
        int elements;

        @Override
        public String toString() {
            return elements + " elements; " + leftWaiting + " consumers still waiting after the bound; wrong endings "
                    + wrongEndings + "; delivered other than once " + notDeliveredOnce;
        }
    }

    /**
     * Parks {@code consumers} consumers, runs a round of {@code perConsumer} elements per consumer
     * through them, waits until all are parked again, closes with {@code closer} (after a second
     * round of offers, if asked), and gives them {@code boundNanos} to return. Consumers still
     * waiting then are released with the shipped close, so that no thread outlives the case.
     */
    static Outcome run(final UnboundedBlockingQueue<Integer> q, final Waits waits, final int consumers,
                       final int perConsumer, final boolean offerJustBeforeClose,
                       final Consumer<UnboundedBlockingQueue<Integer>> closer, final long boundNanos)
            throws InterruptedException {
        final int perRound = perConsumer * consumers;
        final int elements = offerJustBeforeClose ? 2 * perRound : perRound;
        final AtomicIntegerArray delivered = new AtomicIntegerArray(elements);
        final List<Thread> threads = new ArrayList<>();
        final List<AtomicReference<Object>> endings = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            final boolean takes = waits == Waits.TAKE || (waits == Waits.HALF_EACH && c % 2 == 0);
            final AtomicReference<Object> ending = new AtomicReference<>();
            endings.add(ending);
            final Thread t = new Thread(() -> consume(q, takes, delivered, ending), (takes ? "taker-" : "poller-") + c);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        final Outcome outcome = new Outcome();
        outcome.elements = elements;
        awaitParked(q, threads, delivered, 0);
        for (int i = 0; i < perRound; i++) {
            q.put(i);
        }
        awaitParked(q, threads, delivered, perRound);
        if (offerJustBeforeClose) {
            for (int i = perRound; i < elements; i++) {
                q.put(i);
            }
        }
        closer.accept(q);
        final long deadline = System.nanoTime() + boundNanos;
        for (final Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                outcome.leftWaiting++;
            }
        }
        if (outcome.leftWaiting > 0) {
            q.close();
            for (final Thread t : threads) {
                t.join();
            }
        }
        for (int c = 0; c < consumers; c++) {
            final Object ending = endings.get(c).get();
            final boolean takes = threads.get(c).getName().startsWith("taker-");
            if (takes ? !(ending instanceof QueueClosedException) : !"null".equals(ending)) {
                outcome.wrongEndings.add(threads.get(c).getName() + " ended with " + ending);
            }
        }
        for (int i = 0; i < elements; i++) {
            if (delivered.get(i) != 1) {
                outcome.notDeliveredOnce.add(i + " x" + delivered.get(i));
            }
        }
        return outcome;
    }

    /** Takes (or polls with an hour's timeout) until released; records how it ended. */
    private static void consume(final UnboundedBlockingQueue<Integer> q, final boolean takes,
                                final AtomicIntegerArray delivered, final AtomicReference<Object> ending) {
        try {
            while (true) {
                final Integer e = takes ? q.take() : q.poll(1, TimeUnit.HOURS);
                if (e == null) {
                    ending.set("null");
                    return;
                }
                delivered.incrementAndGet(e);
            }
        } catch (InterruptedException | RuntimeException e) {
            // QueueClosedException is the expected ending of a taker; anything else is wrong
            ending.set(e);
        }
    }

    /**
     * Until {@code taken} elements are delivered, every consumer is registered as a waiter, and
     * then each consumer has been seen parked (WAITING or TIMED_WAITING): the only place a
     * consumer parks is inside its wait, after its look at the close. Each is watched on its own,
     * not all at the same moment: a timed poll wakes every 100 µs, and on a loaded machine its
     * threads may seldom all be parked at once.
     */
    private static void awaitParked(final UnboundedBlockingQueue<Integer> q, final List<Thread> threads,
                                    final AtomicIntegerArray delivered, final int taken) {
        final long deadline = System.nanoTime() + PARK_LIMIT_NANOS;
        while (delivered(delivered, taken) != taken || waiters(q) != threads.size()) {
            checkDeadline(deadline, q, threads);
            Thread.yield();
        }
        for (final Thread t : threads) {
            Thread.State state;
            while ((state = t.getState()) != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
                checkDeadline(deadline, q, threads);
                Thread.yield();
            }
        }
    }

    private static int delivered(final AtomicIntegerArray delivered, final int taken) {
        int sum = 0;
        for (int i = 0; i < taken; i++) {
            sum += delivered.get(i);
        }
        return sum;
    }

    private static void checkDeadline(final long deadline, final UnboundedBlockingQueue<Integer> q,
                                      final List<Thread> threads) {
        if (System.nanoTime() - deadline > 0) {
            throw new AssertionError("the consumers never all parked: " + waiters(q) + " waiters, states "
                    + threads.stream().map(Thread::getState).toList());
        }
    }

    /** Consumers registered on the queue's not-empty signal. */
    private static int waiters(final UnboundedBlockingQueue<Integer> q) {
        return (int) WAITING.getVolatile(q.notEmpty);
    }
}
