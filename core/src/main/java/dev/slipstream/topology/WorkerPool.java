package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.DataProvider;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.Sequencer;
import dev.slipstream.sequence.Sequences;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A stage of N workers over a ring in which <b>each event is handled by exactly one worker</b>.
 *
 * <p>Workers claim batches from a shared work sequence with a CAS. Before claiming from
 * {@code w + 1} a worker sets its own sequence to {@code w}, and to {@link Long#MAX_VALUE} while
 * idle. The stage's progress is the minimum of the work sequence and every worker sequence, read
 * in that order ({@link #getSequences()}), so gating on them never passes an unfinished event
 * although workers finish batches out of order. Waking follows the {@link WakePolicy}.
 *
 * <p>A hand-wired pool whose worker fails stops: the failure is in {@link #failures()}, the other
 * workers halt, and the ring is <b>closed</b>, so a producer waiting for space gets
 * {@link dev.slipstream.sequence.SequencerClosedException} instead of waiting forever. Inside a
 * {@link Slipstream} the pipeline does this.
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
public final class WorkerPool<E> extends WorkPool<E> {
    /** Default number of sequences a worker claims at once. */
    public static final int DEFAULT_BATCH_SIZE = WorkPool.DEFAULT_BATCH_SIZE;

    private final RingBuffer<E> ring;
    /** Part of a pipeline: the pipeline handles failures. Hand-wired: the pool does. */
    private final boolean embedded;
    private final Sequencer sequencer;
    private final SequenceBarrier barrier;
    /** Next claim starts after this value; advanced by CAS. Its own padded line. */
    private final Sequence workSequence = new Sequence();
    /** The work sequence first, then each worker's: the order a reader must take the minimum in. */
    private final Sequence[] sequences;

    private WorkerPool(final Builder<E> builder) {
        super("worker pool", builder, builder.exceptionHandler != null
                ? builder.exceptionHandler : ExceptionHandlers.logAndContinue(builder.name));
        this.ring = builder.ring;
        this.embedded = builder.embedded;
        this.sequencer = builder.ring.sequencer();
        this.barrier = builder.barrier != null ? builder.barrier : builder.ring.newBarrier();
        this.sequences = Stream.concat(Stream.of(workSequence),
                Arrays.stream(workers).map(worker -> ((RingWorker<E>) worker).sequence)).toArray(Sequence[]::new);
    }

    @Override
    PoolWorker<E> newWorker(final int index, final EventHandler<? super E> handler) {
        return new RingWorker<>(this, index, handler);
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
        // in array order, work sequence first: see the class comment for why the order matters
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
        for (final PoolWorker<E> worker : workers) {
            if (worker.runner.state() != RunState.NEW) {
                throw new IllegalStateException("worker " + worker.index + " of pool '" + name
                        + "' was already started; a pool starts once");
            }
        }
        final List<Thread> threads = newThreads(threadFactory, worker -> worker);
        threads.forEach(Thread::start);
        return threads;
    }

    /**
     * Stops every worker after the batch it is handling now; parked and waiting workers wake and
     * stop. Events not yet claimed stay unprocessed.
     */
    public void halt() {
        markHalted();
        barrier.alert();
        Arrays.stream(workers).map(worker -> worker.thread).filter(Objects::nonNull).forEach(LockSupport::unpark);
    }

    /** Inside a pipeline, rethrown on the worker's thread for the pipeline to record; else recorded here. */
    @Override
    void workerStopped(final int index, final Throwable failure) {
        if (embedded) {
            if (failure instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure;
        }
        super.workerStopped(index, failure);
    }

    @Override
    void stopAfterFailure() {
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
        return Arrays.stream(workers).anyMatch(worker -> worker.runner.isRunning());
    }

    SequenceBarrier barrier() {
        return barrier;
    }

    /** The shared claim counter: the next claim starts after its value. */
    Sequence workSequence() {
        return workSequence;
    }

    DataProvider<E> dataProvider() {
        return ring;
    }

    /** Sets where the pool starts: the next claim is {@code sequence + 1}. Only before any worker runs. */
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

    @Override
    String details() {
        return ", sequence=" + getSequence();
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
    public static final class Builder<E> extends WorkPool.Settings<E, Builder<E>> {
        private final RingBuffer<E> ring;
        private SequenceBarrier barrier;
        private boolean embedded;

        private Builder(final RingBuffer<E> ring) {
            super("worker-pool");
            this.ring = ring;
        }

        /** Part of a pipeline, which handles the pool's failures. */
        Builder<E> embedded() {
            this.embedded = true;
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
         * Builds the pool.
         *
         * @return the pool
         * @throws IllegalStateException if no handler was given
         */
        public WorkerPool<E> build() {
            checkWorkers();
            return new WorkerPool<>(this);
        }
    }
}
