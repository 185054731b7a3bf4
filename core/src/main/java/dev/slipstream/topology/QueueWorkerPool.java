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
 * A pool of N workers fed by a {@link Queue}: producers {@link #offer(Object) offer} and never
 * block (with an unbounded lock-free queue such as {@code LscqQueue} or
 * {@link java.util.concurrent.ConcurrentLinkedQueue}); each item is taken by exactly one worker.
 *
 * <p>A worker takes up to a batch of items, then handles them. Wake-up is
 * {@link WakePolicy#BIASED} by default: only worker 0 waits on the queue, and a producer wakes it
 * only if it is parked (one volatile read per offer otherwise); a worker that takes a full batch
 * and still finds the queue non-empty (it is overloaded) wakes the next worker before handling
 * its batch. With
 * {@link WakePolicy#UNBIASED} a producer wakes any parked worker.
 *
 * <p>The queue must be thread-safe, with {@code offer} and {@code poll} that synchronise (volatile
 * or locked accesses), as every {@code java.util.concurrent} queue does. Only this pool's
 * {@code offer} wakes workers: items added to the queue directly are found only by a worker that
 * is awake.
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
    /**
     * How much longer than its timeout a {@link #shutdown(Duration)} may take: after the timeout
     * the workers are halted, those still running are interrupted, and the call waits at most
     * this long for them. Also how long {@link #halt()} lets the workers end by themselves before
     * it interrupts them.
     */
    public static final Duration STOP_GRACE = Slipstream.STOP_GRACE;
    /** After a halt, how long a worker gets to leave its wait before it is interrupted. */
    private static final long HALT_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * A shutdown waiting for offers in flight parks only: from 1 us, doubling up to 1 ms. Shared:
     * each wait counts its own parks.
     */
    private static final Backoff OFFERS_WAIT = new Backoff(0, 0, 1_000L, 1_000_000L);

    private static final System.Logger LOG = System.getLogger(QueueWorkerPool.class.getName());

    private final Queue<T> queue;
    /** The workers' exception handler, named for the pool; counts the items it lets pass. */
    private final TrackingExceptionHandler<T> tracking;
    private final ThreadFactory threadFactory;
    private final List<Thread> threads = new ArrayList<>();
    /**
     * Offers between their check of the state and the end of their queue offer. A shutdown sets
     * the state, then waits for this to reach 0 before it lets the workers end on an empty queue:
     * an offer that passed the check is in the queue by then (the queue's claims in flight).
     */
    private final AtomicLong offersInFlight = new AtomicLong();
    /** Items a failed worker had taken from the queue but not handled. */
    private final AtomicLong abandoned = new AtomicLong();

    /**
     * Workers exit once the queue is empty instead of parking. Apart from the state: a shutdown
     * sets it only after the offers in flight have reached the queue.
     */
    private volatile boolean draining;
    private ShutdownResult result;

    private QueueWorkerPool(final Builder<T> builder) {
        super("pool", builder, tracking(builder));
        this.queue = builder.queue;
        this.tracking = (TrackingExceptionHandler<T>) exceptionHandler;
        this.threadFactory = builder.threadFactory;
    }

    /** The workers' exception handler: named for the pool, with its own log summary; the pool logs a stop itself, once. */
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
            for (final Thread thread : threads) {
                thread.start();
            }
        }
    }

    private void runWorker(final PoolWorker<T> worker) {
        try {
            worker.run();
        } finally {
            // the exceptions the log has not reported yet: a summary now, not never
            tracking.stageStopped();
        }
    }

    /**
     * Adds an item and wakes a worker if the policy says so. Never blocks.
     *
     * <p>Accounting: an offer that returns true was accepted, and is either handled by a worker
     * before a shutdown reports clean, or counted in the result's {@code eventsLeft}; an offer
     * that throws was not accepted. An offer racing a shutdown is one or the other, never lost.
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
            // volatile: the item, if offered, is in the queue before a shutdown sees 0 here
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
     * Stops accepting items, lets the workers empty the queue, and waits for them to end. It
     * returns within {@code timeout} plus {@link #STOP_GRACE}: after the timeout the workers are
     * halted, and a worker still running a moment later (inside its handler) is interrupted.
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
        // volatile store: offers that read the state after this throw (and are not accepted)
        lifecycle.setState(RunState.STOPPING);
        // offers that passed the check before it finish their queue offer: wait for them, so the
        // workers below cannot end on an empty queue that an accepted item is about to enter
        final long unsettled = awaitOffersInFlight(deadline);
        if (halt) {
            markHalted();
        }
        // volatile store: a worker that finds the queue empty from now on ends instead of parking
        draining = true;
        waker.wakeAll();
        List<String> alive;
        synchronized (threads) {
            if (halt) {
                final long now = System.nanoTime();
                alive = Lifecycle.stopThreads(threads, now + STOP_GRACE.toNanos(), deadline);
            } else {
                alive = Lifecycle.join(threads, deadline);
                if (!alive.isEmpty()) {
                    // volatile store: out of time, stop after the current batch; a worker still
                    // running a moment later is inside its handler and is interrupted
                    markHalted();
                    waker.wakeAll();
                    final long now = System.nanoTime();
                    alive = Lifecycle.stopThreads(threads, now + HALT_SETTLE_NANOS, now + STOP_GRACE.toNanos());
                }
            }
        }
        long holding = 0;
        for (final PoolWorker<T> worker : workers) {
            holding += ((QueueWorker<T>) worker).holding;
        }
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
     * Waits until no offer that may have passed the state check is still inside {@code offer()}.
     * Offers that start later see the state and are refused (they also pass through the count, so
     * the count is read only here, never added to the result once it reached 0).
     *
     * @return 0, or the count when the deadline passed (an upper bound on accepted offers not yet
     *     in the queue)
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
         * Makes the worker threads (for example to pin them to cores); they are then named
         * {@code <pool>-<index>}. By default daemon threads, so that a worker stuck in its
         * handler cannot keep the JVM alive after {@code main} returns: shut the pool down
         * before then. A factory of yours decides for itself.
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

    /** The first failure: offers are refused from now on, other workers stop after their item. */
    @Override
    void stopAfterFailure() {
        // volatile stores: producers' offers now throw, other workers stop after their item
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
