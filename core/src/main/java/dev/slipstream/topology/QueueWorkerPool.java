package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.sequence.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pool of N workers fed by a {@link Queue}: producers {@link #offer(Object) offer} and, with an
 * unbounded queue, never block; each item is taken by exactly one worker, a batch at a time.
 * Waking follows the {@link WakePolicy}: under the default, a producer wakes worker 0 only if it
 * is parked.
 *
 * <p>The queue's {@code offer} and {@code poll} must synchronise, as every
 * {@code java.util.concurrent} queue's do. Only this pool's {@code offer} wakes workers: items
 * added to the queue directly are found only by an awake worker.
 *
 * <pre>{@code
 * QueueWorkerPool<Order> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Order>())
 *         .handlers(new Matcher(), new Matcher())
 *         .name("matchers")
 *         .build();
 * pool.start();
 * pool.offer(order);                       // never blocks
 * ShutdownResult result = pool.shutdown(Duration.ofSeconds(5));
 * }</pre>
 *
 * @param <T> the item type
 */
public final class QueueWorkerPool<T> extends WorkPool<T> implements AutoCloseable {
    /** Default number of items a worker takes at once; more than this waiting means overload. */
    public static final int DEFAULT_BATCH_SIZE = WorkPool.DEFAULT_BATCH_SIZE;
    /** How long {@link #close()} waits for the workers to drain the queue. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** As {@link Slipstream#STOP_GRACE}, for {@link #shutdown(Duration)} and {@link #halt()}. */
    public static final Duration STOP_GRACE = Slipstream.STOP_GRACE;
    /** After a halt, how long a worker gets to leave its wait before it is interrupted. */
    private static final long HALT_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Parks only, from 1 us doubling to 1 ms; shared, as each wait counts its own parks. */
    private static final Backoff OFFERS_WAIT = new Backoff(0, 0, 1_000L, 1_000_000L);

    private static final System.Logger LOG = System.getLogger(QueueWorkerPool.class.getName());

    private final Queue<T> queue;
    private final TrackingExceptionHandler<T> tracking;
    private final ThreadFactory threadFactory;
    private final List<Thread> threads = new ArrayList<>();
    /**
     * Offers between their state check and the end of their queue offer: a shutdown waits for 0
     * before it lets the workers end on an empty queue.
     */
    private final AtomicLong offersInFlight = new AtomicLong();
    /** Items a failed worker had taken from the queue but not handled. */
    private final AtomicLong abandoned = new AtomicLong();

    /** Workers exit on an empty queue; set only after the offers in flight reached the queue. */
    private volatile boolean draining;
    private ShutdownResult result;

    private QueueWorkerPool(final Builder<T> builder) {
        super("pool", builder, tracking(builder));
        this.queue = builder.queue;
        this.tracking = (TrackingExceptionHandler<T>) exceptionHandler;
        this.threadFactory = builder.threadFactory;
    }

    /** Named for the pool, with its own log summary; the pool logs a stop itself, once. */
    private static <T> TrackingExceptionHandler<T> tracking(final Builder<T> builder) {
        final ExceptionHandler<? super T> chosen = builder.exceptionHandler != null
                ? builder.exceptionHandler : ExceptionHandlers.logAndContinue();
        return new TrackingExceptionHandler<T>(chosen.forStage(builder.name));
    }

    @Override
    PoolWorker<T> newWorker(final int index, final EventHandler<? super T> handler) {
        return new QueueWorker<>(this, index, handler);
    }

    /**
     * Starts building a pool over a queue.
     *
     * @param queue the source; thread-safe
     * @param <T> the item type
     * @return a builder
     * @throws NullPointerException if {@code queue} is null
     */
    public static <T> Builder<T> builder(final Queue<T> queue) {
        return new Builder<>(Objects.requireNonNull(queue, "queue must not be null"));
    }

    /**
     * Starts the workers.
     *
     * @throws IllegalStateException if the pool was already started or shut down
     */
    public void start() {
        if (!lifecycle.casState(RunState.NEW, RunState.RUNNING)) {
            throw new IllegalStateException("pool '" + name + "' was already "
                    + (lifecycle.state() == RunState.RUNNING ? "started" : "shut down") + "; start() may be called once");
        }
        synchronized (threads) {
            threads.addAll(newThreads(threadFactory, worker -> () -> runWorker(worker)));
            threads.forEach(Thread::start);
        }
    }

    private void runWorker(final PoolWorker<T> worker) {
        try {
            worker.run();
        } finally {
            tracking.stageStopped();
        }
    }

    /**
     * Adds an item and wakes a worker if the policy says so. Never blocks. An offer that returns
     * true is accounted for as {@link ShutdownResult} describes, also when it races a shutdown.
     *
     * @param item the item, not null
     * @return false if the queue refused it (a bounded queue that is full)
     * @throws NullPointerException if {@code item} is null
     * @throws IllegalStateException if the pool is shut down or stopped by a failure
     */
    public boolean offer(final T item) {
        Objects.requireNonNull(item, "item must not be null");
        // volatile read-modify-write before the volatile read of the state: either a shutdown that
        // set the state sees us in flight and waits, or we see its state and refuse
        offersInFlight.getAndIncrement();
        try {
            if (lifecycle.state() == RunState.STOPPING) {
                throw new IllegalStateException("pool '" + name + "' is "
                        + (lifecycle.hasFailed() ? "stopped after a failure" : "shut down")
                        + ": it accepts no more items");
            }
            if (!queue.offer(item)) {
                return false;
            }
        } finally {
            // the item, if offered, is in the queue before a shutdown sees 0 here
            offersInFlight.getAndDecrement();
        }
        if (wakePolicy == WakePolicy.BIASED) {
            // volatile load after the queue's synchronising offer: if worker 0 parked before our
            // item was visible to it, we see PARKED here
            waker.wake(0);
        } else {
            waker.wakeAny();
        }
        return true;
    }

    /**
     * Stops accepting items, lets the workers empty the queue, and waits for them to end, within
     * {@code timeout} plus {@link #STOP_GRACE} (interrupting, as {@link Slipstream#shutdown} does).
     *
     * @param timeout how long to wait; after it the workers are halted
     * @return what was left (in the queue, or taken by a worker that failed), how many items were
     *     skipped after an exception, and which threads did not end
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public ShutdownResult shutdown(final Duration timeout) {
        Lifecycle.checkTimeout(timeout);
        return stop(false, timeout);
    }

    /**
     * Stops the workers after the batch each has taken, leaving the rest in the queue. A worker
     * still running {@link #STOP_GRACE} later is interrupted; the call waits for the workers up to
     * {@link #DEFAULT_CLOSE_TIMEOUT} in all.
     *
     * @return what was left
     */
    public ShutdownResult halt() {
        return stop(true, DEFAULT_CLOSE_TIMEOUT);
    }

    /** Shuts down with {@link #DEFAULT_CLOSE_TIMEOUT}; logs a warning if the result is not clean. */
    @Override
    public void close() {
        final ShutdownResult outcome = shutdown(DEFAULT_CLOSE_TIMEOUT);
        if (!outcome.isClean()) {
            LOG.log(System.Logger.Level.WARNING, outcome.toString());
        }
    }

    private synchronized ShutdownResult stop(final boolean halt, final Duration timeout) {
        if (result != null) {
            return result;
        }
        final long startNanos = System.nanoTime();
        final long deadline = startNanos + timeout.toNanos();
        // offers that read the state after this throw
        lifecycle.setState(RunState.STOPPING);
        // so the workers cannot end on an empty queue that an accepted item is about to enter
        final long unsettled = awaitOffersInFlight(deadline);
        if (halt) {
            markHalted();
        }
        draining = true;
        waker.wakeAll();
        List<String> alive;
        synchronized (threads) {
            if (halt) {
                alive = Lifecycle.stopThreads(threads, System.nanoTime() + STOP_GRACE.toNanos(), deadline);
            } else {
                alive = Lifecycle.join(threads, deadline);
                if (!alive.isEmpty()) {
                    // out of time: a worker still running a moment later is inside its handler
                    markHalted();
                    waker.wakeAll();
                    final long now = System.nanoTime();
                    alive = Lifecycle.stopThreads(threads, now + HALT_SETTLE_NANOS, now + STOP_GRACE.toNanos());
                }
            }
        }
        final long holding = PoolWorker.total(workers, worker -> ((QueueWorker<?>) worker).holding);
        // in the queue, taken by a worker that gave up, held by a worker still running, or (only if
        // the wait for offers in flight ran out of time) possibly still being offered
        final Map<String, Long> left = Map.of(name, queue.size() + abandoned.get() + holding + unsettled);
        // read after the join: an ended worker's counts are complete
        result = new ShutdownResult(name, halt, -1L, left, alive, lifecycle.failures(),
                Duration.ofNanos(System.nanoTime() - startNanos), 0L,
                Map.of(name, tracking.tally().skipped()),
                Map.of(name, tracking.tally().retriesGivenUp()), Map.of(name, 0L));
        return result;
    }

    /**
     * Waits until no offer that may have passed the state check is inside {@code offer()}; later
     * offers are refused but pass through the count, so 0 once seen is final.
     *
     * @return 0, or the count at the deadline (a bound on accepted offers not yet in the queue)
     */
    private long awaitOffersInFlight(final long deadline) {
        long parks = 0;
        long inFlight;
        // volatile load, after our volatile state store: see offer()
        while ((inFlight = offersInFlight.get()) != 0) {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return inFlight;
            }
            OFFERS_WAIT.idleAt(parks++, remaining);
        }
        return 0L;
    }

    /**
     * Items waiting in the queue; as costly as the queue's {@code size()} (linear for some queues).
     *
     * @return the backlog
     */
    public int backlog() {
        return queue.size();
    }

    /**
     * Configures a {@link QueueWorkerPool}.
     *
     * <pre>{@code
     * QueueWorkerPool<Job> pool = QueueWorkerPool.builder(queue).handlers(a, b).wakePolicy(WakePolicy.UNBIASED).build();
     * }</pre>
     *
     * @param <T> the item type
     */
    public static final class Builder<T> extends WorkPool.Settings<T, Builder<T>> {
        private final Queue<T> queue;
        private ThreadFactory threadFactory = Lifecycle::daemonThread;

        private Builder(final Queue<T> queue) {
            super("queue-pool");
            this.queue = queue;
        }

        /**
         * Makes the worker threads, named {@code <pool>-<index>}; by default daemon threads
         * that cannot keep the JVM alive: shut the pool down before {@code main} returns.
         *
         * @param factory the thread factory
         * @return this builder
         */
        public Builder<T> threadFactory(final ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "threadFactory must not be null");
            return this;
        }

        /**
         * Builds the pool.
         *
         * @return the pool, not started
         * @throws IllegalStateException if no handler was given
         */
        public QueueWorkerPool<T> build() {
            checkWorkers();
            return new QueueWorkerPool<>(this);
        }
    }

    @Override
    void stopAfterFailure() {
        // offers now throw, other workers stop after their item
        lifecycle.setState(RunState.STOPPING);
        markHalted();
        waker.wakeAll();
    }

    /** Whether a shutdown lets the workers end once the queue is empty. */
    boolean isDraining() {
        return draining;
    }

    Queue<T> queue() {
        return queue;
    }

    /** A failed worker had taken {@code items} it will not handle: counted as left by a shutdown. */
    void abandon(final int items) {
        abandoned.addAndGet(items);
    }
}
