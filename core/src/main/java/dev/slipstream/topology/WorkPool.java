package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

/**
 * What the ring-fed {@link WorkerPool} and the queue-fed {@link QueueWorkerPool} share: workers
 * and their {@link BiasedWaker}, the halt flag, failures ({@link Lifecycle}), thread names,
 * counters and the builder's common settings. Starting and stopping is each pool's own.
 *
 * <pre>{@code
 * // a pool over another source fills in its workers and what its first failure stops:
 * final class QueueWorkerPool<T> extends WorkPool<T> {
 *     PoolWorker<T> newWorker(int index, EventHandler<? super T> handler) { return new QueueWorker<>(this, index, handler); }
 *     void stopAfterFailure() { ... refuse offers, markHalted(), wake the workers ... }
 * }
 * }</pre>
 *
 * @param <E> the event or item type
 */
abstract class WorkPool<E> {
    /** Default number of events or items a worker takes at once. */
    static final int DEFAULT_BATCH_SIZE = 32;

    final String name;
    final WakePolicy wakePolicy;
    final int batchSize;
    final ExceptionHandler<? super E> exceptionHandler;
    final Lifecycle lifecycle;
    final PoolWorker<E>[] workers;
    final BiasedWaker waker;
    /** Written once by a halt (or the first failure); read by each worker once per batch. */
    private volatile boolean halted;

    /**
     * Builds the workers with {@link #newWorker}, which may read only the fields set here.
     *
     * @param kind how messages name this kind of pool, e.g. {@code worker pool}
     */
    @SuppressWarnings("unchecked")
    WorkPool(final String kind, final Settings<E, ?> settings, final ExceptionHandler<? super E> exceptionHandler) {
        this.name = settings.name;
        this.wakePolicy = settings.wakePolicy;
        this.batchSize = settings.batchSize;
        this.exceptionHandler = exceptionHandler;
        this.lifecycle = new Lifecycle(kind + " '" + settings.name + "'", this::stopAfterFailure);
        this.workers = new PoolWorker[settings.handlers.size()];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = newWorker(i, settings.handlers.get(i));
        }
        this.waker = new BiasedWaker(workers);
    }

    /** Makes worker {@code index}; called by the constructor, before the subclass's own fields are set. */
    abstract PoolWorker<E> newWorker(int index, EventHandler<? super E> handler);

    /** What the first failure stops: called once, on the failing worker's thread. */
    abstract void stopAfterFailure();

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
     * Workers that failed, in order; the first one stops the pool. A pool inside a pipeline
     * reports them to {@link Slipstream#failures()} instead.
     *
     * @return the failures, empty if none
     */
    public List<StageFailure> failures() {
        return lifecycle.failures();
    }

    /**
     * Events (or items) handled by all workers so far.
     *
     * @return the count
     */
    public long eventsProcessed() {
        return PoolWorker.total(workers, PoolWorker::lrEvents);
    }

    /**
     * Events (or items) handled by one worker so far: how the load spread.
     *
     * @param index the worker
     * @return its count
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public long eventsProcessed(final int index) {
        Objects.checkIndex(index, workers.length);
        return workers[index].lrEvents();
    }

    /**
     * Batches handled by all workers so far.
     *
     * @return the count
     */
    public long batchesProcessed() {
        return PoolWorker.total(workers, PoolWorker::lrBatches);
    }

    /**
     * Handler exceptions passed to the exception handler so far.
     *
     * @return the count
     */
    public long exceptionsHandled() {
        return PoolWorker.total(workers, PoolWorker::lrExceptions);
    }

    /**
     * How many times a parked worker was woken, by an overloaded peer or a producer.
     *
     * @return the count
     */
    public long wakeUps() {
        return PoolWorker.total(workers, PoolWorker::lrWakeUps);
    }

    /** Worker {@code index} stopped on {@code failure}: recorded; the first one stops the pool. */
    void workerStopped(final int index, final Throwable failure) {
        lifecycle.fail(new StageFailure(name + "-" + index, -1L, failure));
    }

    /**
     * One thread per worker from {@code threadFactory}, named {@code <pool>-<index>}, not started.
     *
     * @throws IllegalStateException naming the worker if the factory returned null
     */
    final List<Thread> newThreads(final ThreadFactory threadFactory, final Function<PoolWorker<E>, Runnable> body) {
        final List<Thread> threads = new ArrayList<>(workers.length);
        for (final PoolWorker<E> worker : workers) {
            final Thread thread = threadFactory.newThread(body.apply(worker));
            if (thread == null) {
                throw new IllegalStateException("threadFactory returned null for worker " + worker.index
                        + " of pool '" + name + "'");
            }
            thread.setName(name + "-" + worker.index);
            threads.add(thread);
        }
        return threads;
    }

    /** Workers read it between batches and after each wake-up. */
    final void markHalted() {
        halted = true;
    }

    /** Whether a halt (or a failure) has told the workers to stop. */
    final boolean isHalted() {
        return halted;
    }

    /** Whether worker {@code index} is parked: for tests that wait for a quiet pool. */
    final boolean isParked(final int index) {
        return waker.isParked(index);
    }

    /** Wakes worker {@code index + 1} if it is parked (biased policy: {@code index} is overloaded). */
    final void wakeAfter(final int index) {
        waker.wakeAfter(index);
    }

    final WakePolicy wakePolicy() {
        return wakePolicy;
    }

    final int batchSize() {
        return batchSize;
    }

    /** What {@link #toString()} adds after the settings; empty by default. */
    String details() {
        return "";
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{name=" + name + ", workers=" + workers.length + ", wakePolicy="
                + wakePolicy + ", batchSize=" + batchSize + details() + '}';
    }

    /** A pool's handlers, each given once; {@code owner} names the pool or stage in messages. */
    static <H> List<H> checkHandlers(final H[] handlers, final String owner) {
        Objects.requireNonNull(handlers, "handlers must not be null");
        if (handlers.length == 0) {
            throw new IllegalArgumentException(owner + " needs at least one handler, got none");
        }
        final List<H> list = new ArrayList<>(handlers.length);
        for (int i = 0; i < handlers.length; i++) {
            final H handler = Objects.requireNonNull(handlers[i], "handler " + i + " of " + owner + " is null");
            if (list.stream().anyMatch(seen -> seen == handler)) {
                throw new IllegalArgumentException("handler " + handler + " is given twice to " + owner
                        + "; each worker needs its own instance" + HandlerOwners.sharedObjectHint(handler));
            }
            list.add(handler);
        }
        return list;
    }

    /** A name that is neither null nor blank; {@code what} names it in messages. */
    static String checkName(final String name, final String what) {
        Objects.requireNonNull(name, what + " must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank, got '" + name + "'");
        }
        return name;
    }

    /**
     * The settings every pool's builder has.
     *
     * <pre>{@code
     * public static final class Builder<T> extends WorkPool.Settings<T, Builder<T>> {
     *     private Builder(Queue<T> queue) { super("queue-pool"); ... }
     * }
     * }</pre>
     *
     * @param <E> the event or item type
     * @param <B> the builder itself, which each setter returns
     */
    abstract static class Settings<E, B extends Settings<E, B>> {
        final List<EventHandler<? super E>> handlers = new ArrayList<>();
        ExceptionHandler<? super E> exceptionHandler;
        WakePolicy wakePolicy = WakePolicy.BIASED;
        int batchSize = DEFAULT_BATCH_SIZE;
        String name;

        Settings(final String defaultName) {
            this.name = defaultName;
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /**
         * The workers' handlers, one distinct instance per worker. Over a queue, a handler's
         * {@code sequence} is its worker's own item count, from 0.
         *
         * @param workerHandlers the handlers
         * @return this builder
         * @throws NullPointerException if the array or an element is null
         * @throws IllegalArgumentException if none is given or one is given twice
         */
        @SafeVarargs
        public final B handlers(final EventHandler<? super E>... workerHandlers) {
            handlers.clear();
            handlers.addAll(checkHandlers(workerHandlers, "pool '" + name + "'"));
            return self();
        }

        B handlersFrom(final List<? extends EventHandler<? super E>> workerHandlers) {
            handlers.clear();
            handlers.addAll(workerHandlers);
            return self();
        }

        /**
         * What happens when a handler throws; by default log and continue.
         *
         * @param handler the exception handler, shared by the workers
         * @return this builder
         */
        public B exceptionHandler(final ExceptionHandler<? super E> handler) {
            this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
            return self();
        }

        /**
         * Which idle workers wait for, or are woken by, new work; by default {@link WakePolicy#BIASED}.
         *
         * @param policy the policy
         * @return this builder
         */
        public B wakePolicy(final WakePolicy policy) {
            this.wakePolicy = Objects.requireNonNull(policy, "wakePolicy must not be null");
            return self();
        }

        /**
         * How many events or items a worker takes at once (default 32); more than this waiting
         * wakes the next worker under the biased policy.
         *
         * @param size at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code size} is below 1
         */
        public B batchSize(final int size) {
            if (size < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + size);
            }
            this.batchSize = size;
            return self();
        }

        /**
         * The pool's name, used in thread names, log messages and results.
         *
         * @param poolName the name, not blank
         * @return this builder
         */
        public B name(final String poolName) {
            this.name = checkName(poolName, "pool name");
            return self();
        }

        /** Before a build: at least one handler. */
        final void checkWorkers() {
            if (handlers.isEmpty()) {
                throw new IllegalStateException("pool '" + name + "' has no workers: call handlers(...) with at least one");
            }
        }
    }
}
