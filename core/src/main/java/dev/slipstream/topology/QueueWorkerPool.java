package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
public final class QueueWorkerPool<T> implements AutoCloseable {
    /** Default number of items a worker takes at once; more than this waiting means overload. */
    public static final int DEFAULT_BATCH_SIZE = 32;
    /** How long {@link #close()} waits for the workers to drain the queue. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private static final VarHandle PHASE;
    private static final System.Logger LOG = System.getLogger(QueueWorkerPool.class.getName());

    static {
        try {
            PHASE = MethodHandles.lookup().findVarHandle(QueueWorkerPool.class, "phase", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int NEW = 0;
    private static final int STARTED = 1;
    private static final int STOPPING = 2;

    private final String name;
    private final Queue<T> queue;
    private final ExceptionHandler<? super T> exceptionHandler;
    private final WakePolicy wakePolicy;
    private final int batchSize;
    private final ThreadFactory threadFactory;
    private final QueueWorker<T>[] workers;
    private final List<Thread> threads = new ArrayList<>();
    /** Failures: recorded at any time, logged once; the first one stops the pool. */
    private final Lifecycle lifecycle;
    /**
     * Offers between their check of the phase and the end of their queue offer. A shutdown sets
     * the phase, then waits for this to reach 0 before it lets the workers end on an empty queue:
     * an offer that passed the check is in the queue by then (the queue's claims in flight).
     */
    private final AtomicLong offersInFlight = new AtomicLong();
    /** Items a failed worker had taken from the queue but not handled. */
    private final AtomicLong abandoned = new AtomicLong();

    /** Written by start and shutdown; read by {@link #offer}. */
    private volatile int phase = NEW;
    /** Workers exit once the queue is empty instead of parking. */
    private volatile boolean draining;
    /** Workers exit after the item they are handling. */
    private volatile boolean halted;
    /** Wakes parked workers: the same waker as the ring-fed pool's. */
    private final BiasedWaker waker;
    private ShutdownResult result;

    @SuppressWarnings("unchecked")
    private QueueWorkerPool(final Builder<T> builder) {
        this.name = builder.name;
        this.lifecycle = new Lifecycle("pool '" + builder.name + "'", this::stopAfterFailure);
        this.queue = builder.queue;
        this.exceptionHandler = builder.exceptionHandler != null
                ? builder.exceptionHandler : ExceptionHandlers.logAndContinue(builder.name);
        this.wakePolicy = builder.wakePolicy;
        this.batchSize = builder.batchSize;
        this.threadFactory = builder.threadFactory;
        this.workers = new QueueWorker[builder.handlers.size()];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new QueueWorker<>(this, i, builder.handlers.get(i));
        }
        this.waker = new BiasedWaker(workers);
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
        if (!PHASE.compareAndSet(this, NEW, STARTED)) {
            throw new IllegalStateException("pool '" + name + "' was already "
                    + (phase == STARTED ? "started" : "shut down") + "; start() may be called once");
        }
        synchronized (threads) {
            for (final QueueWorker<T> worker : workers) {
                final Thread thread = threadFactory.newThread(worker);
                if (thread == null) {
                    throw new IllegalStateException("threadFactory returned null for worker " + worker.index
                            + " of pool '" + name + "'");
                }
                thread.setName(name + "-" + worker.index);
                threads.add(thread);
            }
            for (final Thread thread : threads) {
                thread.start();
            }
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
        // volatile read-modify-write before the volatile read of the phase: either a shutdown that
        // set the phase sees us in flight and waits, or we see its phase and refuse
        offersInFlight.getAndIncrement();
        try {
            if (phase == STOPPING) {
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
     * Stops accepting items, lets the workers empty the queue, and waits for them to end.
     *
     * @param timeout how long to wait; after it the workers are halted
     * @return what was left (in the queue, or taken by a worker that failed) and which threads
     *     did not end
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public ShutdownResult shutdown(final Duration timeout) {
        checkTimeout(timeout);
        return stop(false, timeout);
    }

    /**
     * Stops the workers after the batch each has taken, leaving the rest in the queue.
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

    /**
     * Workers that failed (their exception handler gave up, their {@code onStart} or
     * {@code onShutdown} failed under a rethrowing policy, or anything else escaped), in order, at
     * any time; each is also logged once. The first one stops the pool: offers are refused and the
     * other workers halt.
     *
     * @return the failures, empty if none
     */
    public List<StageFailure> failures() {
        return lifecycle.failures();
    }

    private synchronized ShutdownResult stop(final boolean halt, final Duration timeout) {
        if (result != null) {
            return result;
        }
        final long startNanos = System.nanoTime();
        final long deadline = startNanos + timeout.toNanos();
        // volatile store: offers that read the phase after this throw (and are not accepted)
        phase = STOPPING;
        // offers that passed the check before it finish their queue offer: wait for them, so the
        // workers below cannot end on an empty queue that an accepted item is about to enter
        final long unsettled = awaitOffersInFlight(deadline);
        if (halt) {
            // volatile store: workers check it before each batch and after each wake-up
            halted = true;
        }
        // volatile store: a worker that finds the queue empty from now on ends instead of parking
        draining = true;
        wakeAll();
        final List<String> alive = new ArrayList<>();
        synchronized (threads) {
            joinAll(deadline);
            if (!halt && anyAlive()) {
                // volatile store: out of time, stop after the current batch
                halted = true;
                wakeAll();
                joinAll(System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
            }
            for (final Thread thread : threads) {
                if (thread.isAlive()) {
                    alive.add(thread.getName());
                }
            }
        }
        final Map<String, Long> left = new LinkedHashMap<>();
        long holding = 0;
        for (final QueueWorker<T> worker : workers) {
            holding += worker.holding;
        }
        // in the queue, taken by a worker that gave up, held by a worker still running, or (only if
        // the wait for offers in flight ran out of time) possibly still being offered
        left.put(name, queue.size() + abandoned.get() + holding + unsettled);
        result = new ShutdownResult(name, halt, -1L, left, alive, lifecycle.failures(),
                Duration.ofNanos(System.nanoTime() - startNanos));
        return result;
    }

    /**
     * Waits until no offer that may have passed the phase check is still inside {@code offer()}.
     * Offers that start later see the phase and are refused (they also pass through the count, so
     * the count is read only here, never added to the result once it reached 0).
     *
     * @return 0, or the count when the deadline passed (an upper bound on accepted offers not yet
     *     in the queue)
     */
    private long awaitOffersInFlight(final long deadline) {
        long parkNanos = 1_000L;
        long inFlight;
        // volatile load, after our volatile phase store: see offer()
        while ((inFlight = offersInFlight.get()) != 0) {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return inFlight;
            }
            LockSupport.parkNanos(this, Math.min(parkNanos, remaining));
            parkNanos = Math.min(parkNanos * 2, 1_000_000L);
        }
        return 0L;
    }

    private void wakeAll() {
        waker.wakeAll();
    }

    private boolean anyAlive() {
        for (final Thread thread : threads) {
            if (thread.isAlive()) {
                return true;
            }
        }
        return false;
    }

    private void joinAll(final long deadline) {
        for (final Thread thread : threads) {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            try {
                TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void checkTimeout(final Duration timeout) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
    }

    /**
     * The pool's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The number of workers.
     *
     * @return the worker count
     */
    public int size() {
        return workers.length;
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
     * Items handled by all workers so far.
     *
     * @return the count
     */
    public long eventsProcessed() {
        long total = 0;
        for (final QueueWorker<T> worker : workers) {
            total += (long) QueueWorker.EVENTS.getOpaque(worker);
        }
        return total;
    }

    /**
     * Items handled by one worker so far.
     *
     * @param index the worker
     * @return the count
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public long eventsProcessed(final int index) {
        Objects.checkIndex(index, workers.length);
        return (long) QueueWorker.EVENTS.getOpaque(workers[index]);
    }

    /**
     * Batches taken by all workers so far.
     *
     * @return the count
     */
    public long batchesProcessed() {
        long total = 0;
        for (final QueueWorker<T> worker : workers) {
            total += (long) QueueWorker.BATCHES.getOpaque(worker);
        }
        return total;
    }

    /**
     * Handler exceptions passed to the exception handler so far.
     *
     * @return the count
     */
    public long exceptionsHandled() {
        long total = 0;
        for (final QueueWorker<T> worker : workers) {
            total += (long) QueueWorker.EXCEPTIONS.getOpaque(worker);
        }
        return total;
    }

    /**
     * How many times a parked worker was woken (by a producer or a peer).
     *
     * @return the count
     */
    public long wakeUps() {
        long total = 0;
        for (final QueueWorker<T> worker : workers) {
            total += (long) QueueWorker.WAKE_UPS.getOpaque(worker);
        }
        return total;
    }

    @Override
    public String toString() {
        return "QueueWorkerPool{name=" + name + ", workers=" + workers.length + ", wakePolicy=" + wakePolicy
                + ", batchSize=" + batchSize + '}';
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
    public static final class Builder<T> {
        private final Queue<T> queue;
        private final List<EventHandler<? super T>> handlers = new ArrayList<>();
        private ExceptionHandler<? super T> exceptionHandler;
        private WakePolicy wakePolicy = WakePolicy.BIASED;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private String name = "queue-pool";
        private ThreadFactory threadFactory = Thread::new;

        private Builder(final Queue<T> queue) {
            this.queue = queue;
        }

        /**
         * The workers' handlers, one distinct instance per worker. The {@code sequence} a handler
         * receives is its worker's own count of items, from 0.
         *
         * @param workerHandlers the handlers
         * @return this builder
         * @throws NullPointerException if the array or an element is null
         * @throws IllegalArgumentException if none is given or one is given twice
         */
        @SafeVarargs
        public final Builder<T> handlers(final EventHandler<? super T>... workerHandlers) {
            handlers.clear();
            handlers.addAll(WorkerPool.checkHandlers(workerHandlers, "pool '" + name + "'"));
            return this;
        }

        /**
         * What happens when a handler throws; by default log and continue.
         *
         * @param handler the exception handler, shared by the workers
         * @return this builder
         */
        public Builder<T> exceptionHandler(final ExceptionHandler<? super T> handler) {
            this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
            return this;
        }

        /**
         * Which idle workers a new item wakes; by default {@link WakePolicy#BIASED}.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder<T> wakePolicy(final WakePolicy policy) {
            this.wakePolicy = Objects.requireNonNull(policy, "wakePolicy must not be null");
            return this;
        }

        /**
         * How many items a worker takes before it checks whether it is overloaded (default
         * {@value #DEFAULT_BATCH_SIZE}).
         *
         * @param size at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code size} is below 1
         */
        public Builder<T> batchSize(final int size) {
            if (size < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * The pool's name, used in thread names and results.
         *
         * @param poolName not blank
         * @return this builder
         */
        public Builder<T> name(final String poolName) {
            this.name = WorkerPool.checkName(poolName, "pool name");
            return this;
        }

        /**
         * Makes the worker threads (for example to pin them to cores); they are then named
         * {@code <pool>-<index>}. By default plain non-daemon threads.
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
            if (handlers.isEmpty()) {
                throw new IllegalStateException("pool '" + name + "' has no workers: call handlers(...) with at least one");
            }
            return new QueueWorkerPool<>(this);
        }
    }

    // ------------------------------------------------------------------------------- the worker

    /** One queue worker: takes items in batches and hands each to its own handler. */
    static final class QueueWorker<T> extends WorkerPool.WorkerRhsPad implements Runnable {
        static final int AWAKE = BiasedWaker.AWAKE;
        static final int PARKED = BiasedWaker.PARKED;
        /** Polls of an empty queue before a worker parks. */
        private static final int SPINS_BEFORE_PARK = 100;
        /** Yields after the spins, before parking. */
        private static final int YIELDS_BEFORE_PARK = 2;

        static final VarHandle STATE;
        static final VarHandle EVENTS;
        static final VarHandle BATCHES;
        static final VarHandle EXCEPTIONS;
        static final VarHandle WAKE_UPS;
        static final VarHandle HOLDING;

        static {
            STATE = WorkerPool.Worker.STATE;
            EVENTS = WorkerPool.Worker.EVENTS;
            BATCHES = WorkerPool.Worker.BATCHES;
            EXCEPTIONS = WorkerPool.Worker.EXCEPTIONS;
            WAKE_UPS = WorkerPool.Worker.WAKE_UPS;
            try {
                HOLDING = MethodHandles.lookup().findVarHandle(QueueWorker.class, "holding", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final QueueWorkerPool<T> pool;
        private final int index;
        private final EventHandler<? super T> handler;
        private final boolean waitsOnSource;
        /**
         * Items taken from the queue and not yet handled; written opaque by this worker, read by a
         * shutdown to count what a stuck worker holds.
         */
        volatile long holding;

        QueueWorker(final QueueWorkerPool<T> pool, final int index, final EventHandler<? super T> handler) {
            this.pool = pool;
            this.index = index;
            this.handler = handler;
            this.waitsOnSource = pool.wakePolicy == WakePolicy.UNBIASED || index == 0;
        }

        @Override
        public void run() {
            // volatile store: wakers read it after seeing this worker PARKED
            thread = Thread.currentThread();
            try {
                try {
                    handler.onStart();
                } catch (Throwable t) {
                    pool.exceptionHandler.handleOnStartException(t);
                }
                takeItems();
            } catch (Throwable fatal) {
                // the exception handler gave up (on an item or on onStart), or something escaped:
                // recorded and logged once; the pool stops and refuses offers. Not rethrown: the
                // failure is reported, not printed by the thread's uncaught-exception handler.
                pool.lifecycle.fail(new StageFailure(pool.name + "-" + index, -1L, fatal));
            } finally {
                try {
                    handler.onShutdown();
                } catch (Throwable t) {
                    try {
                        pool.exceptionHandler.handleOnShutdownException(t);
                    } catch (Throwable fatal) {
                        pool.lifecycle.fail(new StageFailure(pool.name + "-" + index, -1L, fatal));
                    }
                }
            }
        }

        private void takeItems() {
            final Queue<T> queue = pool.queue;
            final int batchSize = pool.batchSize;
            final boolean biased = pool.wakePolicy == WakePolicy.BIASED;
            // the claimed batch, allocated once per worker
            final Object[] batch = new Object[batchSize];
            long count = 0;
            while (!pool.halted) {
                int taken = 0;
                T item;
                while (taken < batchSize && (item = queue.poll()) != null) {
                    batch[taken++] = item;
                }
                if (taken == 0) {
                    if (!awaitItems()) {
                        return;
                    }
                    continue;
                }
                // opaque: only a shutdown that finds this worker stuck reads it
                HOLDING.setOpaque(this, (long) taken);
                if (biased && taken == batchSize && !queue.isEmpty()) {
                    // overloaded: a full batch and more waiting
                    pool.wakeAfter(index);
                }
                for (int i = 0; i < taken; i++) {
                    @SuppressWarnings("unchecked")
                    final T next = (T) batch[i];
                    batch[i] = null;
                    try {
                        handler.onEvent(next, count, i == taken - 1);
                    } catch (Throwable t) {
                        EXCEPTIONS.setOpaque(this, exceptions + 1);
                        try {
                            pool.exceptionHandler.handleEventException(t, count, next);
                        } catch (RuntimeException | Error stop) {
                            // this item and the rest of the batch are out of the queue, unhandled
                            pool.abandoned.addAndGet(taken - i);
                            HOLDING.setOpaque(this, 0L);
                            EVENTS.setOpaque(this, events + i);
                            throw stop;
                        }
                    }
                    count++;
                    HOLDING.setOpaque(this, (long) (taken - i - 1));
                }
                // opaque: single writer; monitoring threads read whole values
                EVENTS.setOpaque(this, events + taken);
                BATCHES.setOpaque(this, batches + 1);
            }
        }

        /** Waits for items. @return false if the worker should stop */
        private boolean awaitItems() {
            final Queue<T> queue = pool.queue;
            // the source waiter rides out short gaps longer; a woken helper parks sooner
            final int tries = waitsOnSource ? SPINS_BEFORE_PARK + YIELDS_BEFORE_PARK : SPINS_BEFORE_PARK / 4;
            for (int i = 0; i < tries; i++) {
                if (!queue.isEmpty() || pool.halted) {
                    return !pool.halted;
                }
                if (i < SPINS_BEFORE_PARK) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
            if (pool.draining) {
                // shutting down and the queue was empty: done
                return !queue.isEmpty() && !pool.halted;
            }
            // volatile store, then read the queue: either a producer or peer sees PARKED, or we see its item
            state = PARKED;
            if (!queue.isEmpty() || pool.draining || pool.halted) {
                BiasedWaker.cancelPark(this);
                return !pool.halted;
            }
            do {
                LockSupport.park(this);
                if (pool.halted) {
                    // volatile store: no waker needs to unpark us any more
                    state = AWAKE;
                    return false;
                }
            } while (state == PARKED);
            return true;
        }
    }

    /** The first failure: offers are refused from now on, other workers stop after their item. */
    private void stopAfterFailure() {
        // volatile stores: producers' offers now throw, other workers stop after their item
        phase = STOPPING;
        halted = true;
        wakeAll();
    }

    /** Whether {@link #halt()} (or a failure) has told the workers to stop: for tests. */
    boolean isHalted() {
        return halted;
    }

    /** Whether worker {@code index} is parked: for tests that wait for a quiet pool. */
    boolean isParked(final int index) {
        return waker.isParked(index);
    }

    /** Wakes worker {@code index + 1} if it is parked. */
    void wakeAfter(final int index) {
        waker.wakeAfter(index);
    }
}
