package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.DataProvider;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.Sequencer;
import dev.slipstream.sequence.Sequences;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * A stage of N workers over a ring in which <b>each event is handled by exactly one worker</b>.
 *
 * <p>Workers claim batches of sequences from a shared work sequence with a CAS, so a batch goes to
 * exactly one worker. Each worker also has its own sequence: before it claims from
 * {@code w + 1} it sets its sequence to {@code w}, and while idle it sets it to
 * {@link Long#MAX_VALUE} (it holds nothing back). The stage's progress is the minimum of the work
 * sequence and every worker sequence, read in that order ({@link #getSequences()}): a downstream
 * stage or a producer that gates on these sequences never passes an event whose worker has not
 * finished it, although workers finish batches out of order.
 *
 * <p>Waking follows the {@link WakePolicy}: with {@link WakePolicy#BIASED} (the default) only
 * worker 0 waits on the source, and a worker that finds more than one batch waiting wakes the
 * next one.
 *
 * <p>A hand-wired pool (the recipe below) whose exception handler gives up (rethrow or halt
 * policy), or whose worker fails in any other way, stops: the failure is recorded in
 * {@link #failures()} and logged once, the other workers halt, and the ring is <b>closed</b>, so
 * a producer waiting for space gets {@link dev.slipstream.sequence.SequencerClosedException}
 * instead of waiting forever behind the event the failed worker never finished. Inside a
 * {@link Slipstream} pipeline the pipeline does this for the whole pipeline.
 *
 * <pre>{@code
 * RingBuffer<Job> ring = RingBuffer.createSingleProducer(Job::new, 1024, new YieldingWaitStrategy());
 * WorkerPool<Job> pool = WorkerPool.builder(ring)
 *         .handlers(new Pricer(), new Pricer(), new Pricer())
 *         .name("pricers")
 *         .build();
 * ring.addGatingSequences(pool.getSequences());
 * pool.start(Thread::new);
 * // ... publish ...
 * pool.halt();
 * }</pre>
 *
 * @param <E> the event type
 */
public final class WorkerPool<E> {
    /** Default number of sequences a worker claims at once. */
    public static final int DEFAULT_BATCH_SIZE = 32;

    private final String name;
    private final RingBuffer<E> ring;
    /** Part of a pipeline: the pipeline handles failures. Hand-wired: the pool does. */
    private final boolean embedded;
    /** Failures of a hand-wired pool: recorded, logged once; the first one stops the pool. */
    private final Lifecycle lifecycle;
    private final DataProvider<E> dataProvider;
    private final Sequencer sequencer;
    private final SequenceBarrier barrier;
    private final ExceptionHandler<? super E> exceptionHandler;
    private final WakePolicy wakePolicy;
    private final int batchSize;
    /** Next claim starts after this value; advanced by CAS. Its own padded line. */
    private final Sequence workSequence = new Sequence();
    private final RingWorker<E>[] workers;
    /** Wakes parked workers: the same waker as the queue-fed pool's. */
    private final BiasedWaker waker;
    /** The work sequence first, then each worker's: the order a reader must take the minimum in. */
    private final Sequence[] sequences;
    /** Written once by {@link #halt()}; read by each worker once per batch. */
    private volatile boolean halted;

    @SuppressWarnings("unchecked")
    private WorkerPool(final Builder<E> builder) {
        this.name = builder.name;
        this.ring = builder.ring;
        this.embedded = builder.embedded;
        this.lifecycle = new Lifecycle("worker pool '" + builder.name + "'", this::stopAfterFailure);
        this.dataProvider = builder.ring;
        this.sequencer = builder.ring.sequencer();
        this.barrier = builder.barrier != null ? builder.barrier : builder.ring.newBarrier();
        this.exceptionHandler = builder.exceptionHandler != null
                ? builder.exceptionHandler : ExceptionHandlers.logAndContinue(builder.name);
        this.wakePolicy = builder.wakePolicy;
        this.batchSize = builder.batchSize;
        this.workers = new RingWorker[builder.handlers.size()];
        this.sequences = new Sequence[workers.length + 1];
        sequences[0] = workSequence;
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new RingWorker<>(this, i, builder.handlers.get(i));
            sequences[i + 1] = workers[i].sequence;
        }
        this.waker = new BiasedWaker(workers);
    }

    /**
     * Starts building a pool over a ring.
     *
     * @param ring the ring the workers read
     * @param <E> the event type
     * @return a builder
     * @throws NullPointerException if {@code ring} is null
     */
    public static <E> Builder<E> builder(final RingBuffer<E> ring) {
        return new Builder<>(Objects.requireNonNull(ring, "ring must not be null"));
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
     * The sequences to gate producers or downstream stages on: the work sequence first, then each
     * worker's. Pass them all, in this order, to {@code addGatingSequences} or {@code newBarrier}.
     *
     * @return a copy of the sequences
     */
    public Sequence[] getSequences() {
        return sequences.clone();
    }

    /**
     * The stage's progress: the highest sequence below which every event is finished.
     *
     * @return the minimum of the work sequence and the worker sequences
     */
    public long getSequence() {
        // work sequence first: see the class comment for why the order matters
        return Sequences.minimum(sequences, Long.MAX_VALUE);
    }

    /**
     * The runnable of one worker, for a caller that manages its own threads.
     *
     * @param index the worker, 0 to {@code size() - 1}
     * @return its runnable; it may run once
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public Runnable worker(final int index) {
        Objects.checkIndex(index, workers.length);
        return workers[index];
    }

    /**
     * Starts every worker on a thread from {@code threadFactory}, named {@code <pool>-<index>}.
     *
     * @param threadFactory makes the threads
     * @return the started threads, for joining
     * @throws IllegalStateException if a worker was already started
     */
    public List<Thread> start(final ThreadFactory threadFactory) {
        Objects.requireNonNull(threadFactory, "threadFactory must not be null");
        final List<Thread> threads = new ArrayList<>(workers.length);
        for (final RingWorker<E> worker : workers) {
            if (worker.runState() != RunState.NEW) {
                throw new IllegalStateException("worker " + worker.index + " of pool '" + name
                        + "' was already started; a pool starts once");
            }
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
        return threads;
    }

    /**
     * Stops every worker after the batch it is handling now; parked and waiting workers wake and
     * stop. Events not yet claimed stay unprocessed.
     */
    public void halt() {
        // volatile store: workers check it between batches and after every wake-up
        halted = true;
        barrier.alert();
        for (final RingWorker<E> worker : workers) {
            final Thread thread = worker.thread;
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
    }

    /**
     * Failures of a hand-wired pool: workers whose exception handler gave up or that failed
     * otherwise, in order. (In a pipeline, see {@link Slipstream#failures()}.)
     *
     * @return the failures, empty if none
     */
    public List<StageFailure> failures() {
        return lifecycle.failures();
    }

    /**
     * Worker {@code index} stopped on {@code failure} (a RuntimeException or an Error). Inside a
     * pipeline it is rethrown on the worker's thread, where the pipeline records it with the
     * sequence its tracking handler saw and stops; a hand-wired pool records and logs it, and the
     * first one stops the pool.
     */
    void workerStopped(final int index, final Throwable failure) {
        if (embedded) {
            if (failure instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure;
        }
        lifecycle.fail(new StageFailure(name + "-" + index, -1L, failure));
    }

    private void stopAfterFailure() {
        halt();
        // producers waiting behind the unfinished event are told instead of waiting forever
        ring.close("worker pool '" + name + "' stopped after a failure: " + lifecycle.firstFailure());
    }

    /**
     * Whether any worker is running.
     *
     * @return true while at least one worker's {@code run()} executes
     */
    public boolean isRunning() {
        for (final RingWorker<E> worker : workers) {
            if (worker.runner.isRunning()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Events handled by all workers so far.
     *
     * @return the count
     */
    public long eventsProcessed() {
        return PoolWorker.total(workers, PoolWorker::lrEvents);
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
     * Events handled by one worker so far: how the load spread.
     *
     * @param index the worker
     * @return its count
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public long eventsProcessed(final int index) {
        Objects.checkIndex(index, workers.length);
        // opaque: one writer; a whole value
        return workers[index].lrEvents();
    }

    /**
     * How many times workers were woken by a peer (biased policy only): a measure of how often
     * the pool had to fan out.
     *
     * @return the count
     */
    public long wakeUps() {
        return PoolWorker.total(workers, PoolWorker::lrWakeUps);
    }

    /** The wake-up policy. @return the policy */
    WakePolicy wakePolicy() {
        return wakePolicy;
    }

    SequenceBarrier barrier() {
        return barrier;
    }

    /** The shared claim counter: the next claim starts after its value. */
    Sequence workSequence() {
        return workSequence;
    }

    int batchSize() {
        return batchSize;
    }

    DataProvider<E> dataProvider() {
        return dataProvider;
    }

    ExceptionHandler<? super E> exceptionHandler() {
        return exceptionHandler;
    }

    /**
     * Sets where the pool starts: the next claim is {@code sequence + 1}. Only before any worker runs.
     */
    void startAfter(final long sequence) {
        // release: a worker thread started after this sees the value
        workSequence.set(sequence);
    }

    /** Highest sequence readable now without waiting, or at most {@code w} if none. */
    long availableNow(final long w) {
        // acquire: the cursor, or the slowest upstream stage
        final long dependent = barrier.getCursor();
        if (dependent <= w) {
            return dependent;
        }
        return sequencer.getHighestPublishedSequence(w + 1, dependent);
    }

    /** Wakes worker {@code index + 1} if it is parked (biased policy: {@code index} is overloaded). */
    void wakeAfter(final int index) {
        waker.wakeAfter(index);
    }

    boolean isHalted() {
        return halted;
    }

    /** Whether worker {@code index} is parked (biased policy): for tests that wait for a quiet pool. */
    boolean isParked(final int index) {
        return waker.isParked(index);
    }

    @Override
    public String toString() {
        return "WorkerPool{name=" + name + ", workers=" + workers.length + ", wakePolicy=" + wakePolicy
                + ", batchSize=" + batchSize + ", sequence=" + getSequence() + '}';
    }

    /**
     * Configures a {@link WorkerPool}.
     *
     * <pre>{@code
     * WorkerPool<Job> pool = WorkerPool.builder(ring).handlers(a, b).batchSize(16).build();
     * }</pre>
     *
     * @param <E> the event type
     */
    public static final class Builder<E> {
        private final RingBuffer<E> ring;
        private final List<EventHandler<? super E>> handlers = new ArrayList<>();
        private SequenceBarrier barrier;
        private ExceptionHandler<? super E> exceptionHandler;
        private WakePolicy wakePolicy = WakePolicy.BIASED;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private String name = "worker-pool";
        private boolean embedded;

        private Builder(final RingBuffer<E> ring) {
            this.ring = ring;
        }

        /**
         * The workers' handlers, one per worker, each a distinct instance (a handler is called by
         * one thread only).
         *
         * @param workerHandlers the handlers
         * @return this builder
         * @throws NullPointerException if the array or an element is null
         * @throws IllegalArgumentException if none is given or one is given twice
         */
        @SafeVarargs
        public final Builder<E> handlers(final EventHandler<? super E>... workerHandlers) {
            handlers.clear();
            handlers.addAll(checkHandlers(workerHandlers, "pool '" + name + "'"));
            return this;
        }

        /** Part of a pipeline, which handles the pool's failures. */
        Builder<E> embedded() {
            this.embedded = true;
            return this;
        }

        Builder<E> handlersFrom(final List<? extends EventHandler<? super E>> workerHandlers) {
            handlers.clear();
            handlers.addAll(workerHandlers);
            return this;
        }

        /**
         * The barrier the workers wait on; by default {@code ring.newBarrier()} (straight behind the
         * producers). Give a barrier over upstream stages to place the pool after them.
         *
         * @param sequenceBarrier the barrier, used by this pool only
         * @return this builder
         */
        public Builder<E> barrier(final SequenceBarrier sequenceBarrier) {
            this.barrier = Objects.requireNonNull(sequenceBarrier, "barrier must not be null");
            return this;
        }

        /**
         * What happens when a handler throws; by default log and continue.
         *
         * @param handler the exception handler, shared by the workers
         * @return this builder
         */
        public Builder<E> exceptionHandler(final ExceptionHandler<? super E> handler) {
            this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
            return this;
        }

        /**
         * Which idle workers wait for new events; by default {@link WakePolicy#BIASED}.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder<E> wakePolicy(final WakePolicy policy) {
            this.wakePolicy = Objects.requireNonNull(policy, "wakePolicy must not be null");
            return this;
        }

        /**
         * How many sequences a worker claims at once (default {@value #DEFAULT_BATCH_SIZE}). It is
         * also the overload threshold of the biased policy: a worker that sees more than one batch
         * waiting wakes the next.
         *
         * @param size at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code size} is below 1
         */
        public Builder<E> batchSize(final int size) {
            if (size < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * The pool's name, used in thread names and log messages.
         *
         * @param poolName the name, not blank
         * @return this builder
         */
        public Builder<E> name(final String poolName) {
            this.name = checkName(poolName, "pool name");
            return this;
        }

        /**
         * Builds the pool.
         *
         * @return the pool
         * @throws IllegalStateException if no handler was given
         */
        public WorkerPool<E> build() {
            if (handlers.isEmpty()) {
                throw new IllegalStateException("pool '" + name + "' has no workers: call handlers(...) with at least one");
            }
            return new WorkerPool<>(this);
        }
    }

    static <H> List<H> checkHandlers(final H[] handlers, final String owner) {
        Objects.requireNonNull(handlers, "handlers must not be null");
        if (handlers.length == 0) {
            throw new IllegalArgumentException(owner + " needs at least one handler, got none");
        }
        final List<H> list = new ArrayList<>(handlers.length);
        for (int i = 0; i < handlers.length; i++) {
            final H handler = Objects.requireNonNull(handlers[i], "handler " + i + " of " + owner + " is null");
            for (final H seen : list) {
                if (seen == handler) {
                    throw new IllegalArgumentException("handler " + handler + " is given twice to " + owner
                            + "; each worker needs its own instance" + HandlerOwners.sharedObjectHint(handler));
                }
            }
            list.add(handler);
        }
        return list;
    }

    static String checkName(final String name, final String what) {
        Objects.requireNonNull(name, what + " must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank, got '" + name + "'");
        }
        return name;
    }
}
