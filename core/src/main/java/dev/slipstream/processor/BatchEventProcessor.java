package dev.slipstream.processor;

import dev.slipstream.agent.Agent;
import dev.slipstream.agent.AgentRunner;
import dev.slipstream.agent.RunState;
import dev.slipstream.ring.DataProvider;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Runs one {@link EventHandler} on its own thread over every event of a ring, in order and in
 * batches: each wake takes everything available (up to an optional maximum batch size), hands it
 * to the handler, then advances its {@link Sequence} once per batch, so a consumer that falls
 * behind catches up in bigger batches at no extra synchronisation cost. After a batch of 2 to
 * 256 events (it is chasing its producer closely) it yields once, whatever the wait strategy, so
 * that the producer runs ahead and the next batches are larger.
 *
 * <p>Handler exceptions go to an {@link ExceptionHandler} (by default
 * {@link ExceptionHandlers#logAndContinue(String)}, which logs and skips the event). A
 * {@link RewindableException} processes the batch again from its start under a
 * {@link BatchRewindStrategy} (by default at most {@value #DEFAULT_REWIND_RETRIES} retries), so
 * such a handler must be idempotent. A {@link dev.slipstream.sequence.TimeoutException} of the
 * wait strategy becomes {@link EventHandler#onTimeout(long)}.
 *
 * <p>A processor runs once: configure it before {@link #run()}. {@link #halt()} (or an alert of
 * its barrier, or an interrupt while it waits) makes {@code run()} return after the batch in
 * hand; a second {@code run()} throws {@link IllegalStateException}, which keeps
 * {@code onStart} and {@code onShutdown} paired. To resume a halted stage, run a new processor
 * whose sequence is set to the old one's. The counters ({@link #eventsProcessed()} and the
 * others) are allocation-free getters for monitoring threads. The loop, lifecycle and halt are
 * an {@link AgentRunner}'s; this class supplies the step: one wait, one batch.
 *
 * <pre>{@code
 * RingBuffer<Trade> ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());
 * BatchEventProcessor<Trade> journal =
 *         new BatchEventProcessor<>(ring, ring.newBarrier(), (trade, seq, endOfBatch) -> write(trade))
 *                 .setName("journal")
 *                 .setMaxBatchSize(256)
 *                 .setExceptionHandler(ExceptionHandlers.halt("journal"));
 * ring.addGatingSequences(journal.getSequence());
 * Thread thread = new Thread(journal, "journal");
 * thread.start();
 * // ... publish ...
 * journal.halt();
 * thread.join();
 * }</pre>
 *
 * @param <E> the event type
 */
public final class BatchEventProcessor<E> implements EventProcessor {
    /** Retries of a rewound batch when no rewind strategy is set. */
    public static final int DEFAULT_REWIND_RETRIES = 3;

    /** After an early return of the barrier: spins, then yields (never parks: the barrier waits). */
    private static final int EMPTY_WAIT_SPINS = 63;

    /** The smallest batch that shows a stage chasing its producer (see letTheProducerAhead). */
    private static final long CHASE_MIN = 2L;
    /** The largest batch that shows a stage chasing: about what a producer writes during one yield. */
    private static final long CHASE_MAX = 256L;

    private final DataProvider<E> dataProvider;
    private final SequenceBarrier barrier;
    private final EventHandler<? super E> handler;
    /** Padded on its own: producers and downstream stages read it all the time. */
    private final Sequence sequence = new Sequence(Sequence.INITIAL_VALUE);
    private final ProcessorCounters counters = new ProcessorCounters();
    /** Owns the thread's loop and the lifecycle; its idle back-off serves the barrier's early returns. */
    private final AgentRunner runner =
            new AgentRunner(new Steps(), new Backoff(EMPTY_WAIT_SPINS, 0, 0L, 0L), failure -> false);
    /**
     * An {@code onShutdown} failure after a policy's {@link HaltProcessorException}: that halt is
     * a clean stop, so this is the stage's failure, as it would be alone. Written once by the
     * running thread before run() returns.
     */
    private volatile Throwable shutdownFailedAfterHalt;

    // Settings: written before run(), read by the thread that runs it; Thread.start() or the
    // executor's hand-off of the task orders the writes before the reads.
    private String name;
    private long maxBatchSize = Integer.MAX_VALUE;
    private ExceptionHandler<? super E> exceptionHandler;
    private BatchRewindStrategy rewindStrategy = BatchRewindStrategies.atMost(DEFAULT_REWIND_RETRIES);

    /**
     * Creates a processor.
     *
     * @param dataProvider where the events are, usually the ring buffer
     * @param barrier what the processor waits on: the ring's cursor and any upstream stages
     * @param handler the stage's code
     * @throws NullPointerException if an argument is null
     */
    public BatchEventProcessor(final DataProvider<E> dataProvider, final SequenceBarrier barrier,
                               final EventHandler<? super E> handler) {
        this.dataProvider = requireNonNull(dataProvider,
                "dataProvider must not be null: pass the ring buffer the processor reads from");
        this.barrier = requireNonNull(barrier,
                "barrier must not be null: pass ringBuffer.newBarrier(upstream sequences...)");
        this.handler = requireNonNull(handler, "handler must not be null: pass the stage's EventHandler");
    }

    /**
     * Names the stage, for log messages and error reports.
     *
     * @param name the stage's name
     * @return this processor
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalStateException if the processor has started
     */
    public BatchEventProcessor<E> setName(final String name) {
        checkNotStarted("name");
        this.name = requireNonNull(name, "name must not be null");
        return this;
    }

    /**
     * Caps the number of events handed to the handler in one batch; the sequence then advances
     * at least every {@code maxBatchSize} events, so downstream stages and producers see
     * progress sooner. The default is unlimited (everything available).
     *
     * @param maxBatchSize the most events per batch, {@code >= 1}
     * @return this processor
     * @throws IllegalArgumentException if {@code maxBatchSize} is below 1
     * @throws IllegalStateException if the processor has started
     */
    public BatchEventProcessor<E> setMaxBatchSize(final int maxBatchSize) {
        checkNotStarted("maxBatchSize");
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("maxBatchSize must be >= 1, got " + maxBatchSize);
        }
        this.maxBatchSize = maxBatchSize;
        return this;
    }

    /**
     * Sets what happens when the handler throws. The default logs and skips the event, naming
     * this stage.
     *
     * @param exceptionHandler the policy, for example one of {@link ExceptionHandlers}
     * @return this processor
     * @throws NullPointerException if {@code exceptionHandler} is null
     * @throws IllegalStateException if the processor has started
     */
    public BatchEventProcessor<E> setExceptionHandler(final ExceptionHandler<? super E> exceptionHandler) {
        checkNotStarted("exceptionHandler");
        this.exceptionHandler = requireNonNull(exceptionHandler,
                "exceptionHandler must not be null: use ExceptionHandlers.logAndContinue() for the default");
        return this;
    }

    /**
     * Sets whether and how often a batch is retried when the handler throws
     * {@link RewindableException}. The default retries a batch at most
     * {@value #DEFAULT_REWIND_RETRIES} times.
     *
     * @param rewindStrategy the strategy, for example one of {@link BatchRewindStrategies}
     * @return this processor
     * @throws NullPointerException if {@code rewindStrategy} is null
     * @throws IllegalStateException if the processor has started
     */
    public BatchEventProcessor<E> setRewindStrategy(final BatchRewindStrategy rewindStrategy) {
        checkNotStarted("rewindStrategy");
        this.rewindStrategy = requireNonNull(rewindStrategy,
                "rewindStrategy must not be null: use BatchRewindStrategies.atMost(0) to never retry");
        return this;
    }

    /**
     * The stage's name.
     *
     * @return the name given to {@link #setName(String)}, or null
     */
    public String getName() {
        return name;
    }

    @Override
    public Sequence getSequence() {
        return sequence;
    }

    /**
     * Stops the processor: it finishes the batch in hand (a rewound batch is abandoned before
     * its next retry), calls {@code onShutdown}, and {@code run()} returns. Called before
     * {@code run()}, it makes {@code run()} return at once without calling the handler at all.
     * Returns without waiting; join the thread to wait.
     */
    @Override
    public void halt() {
        // the runner moves its state, then calls Steps.onHaltRequested, which alerts the barrier;
        // Steps.onStart clears the alert before the runner's first look at the state, so a halt
        // is never lost between the two
        runner.halt();
    }

    @Override
    public boolean isRunning() {
        return runner.isRunning();
    }

    /**
     * How many events this stage has finished with, including those whose exception was
     * handled and skipped; a rewound batch counts once.
     *
     * @return the count, read without locking or allocation
     */
    public long eventsProcessed() {
        return counters.lrEvents();
    }

    /**
     * How many batches this stage has completed.
     *
     * @return the count
     */
    public long batchesProcessed() {
        return counters.lrBatches();
    }

    /**
     * How many exceptions from the handler (in events, batch starts and timeouts) went to the
     * exception handler.
     *
     * @return the count
     */
    public long exceptionsHandled() {
        return counters.lrExceptions();
    }

    /**
     * How many times a batch was processed again after a {@link RewindableException}.
     *
     * @return the count
     */
    public long batchRewinds() {
        return counters.lrRewinds();
    }

    /**
     * Why the processor stopped, if an exception handler stopped it.
     *
     * @return the {@link HaltProcessorException} of a halting policy, the exception that
     *     escaped from {@code run()}, or null if it has not stopped or stopped through
     *     {@link #halt()}
     */
    public Throwable getFailure() {
        final Throwable afterHalt = shutdownFailedAfterHalt;
        return afterHalt != null ? afterHalt : runner.failure();
    }

    /**
     * Processes events until halted. Call it once, on the stage's own thread.
     *
     * @throws IllegalStateException if the processor is already running or has already run
     * @throws RuntimeException whatever an exception handler threw to stop the stage, other than
     *     {@link HaltProcessorException}, once {@code onShutdown} has run
     */
    @Override
    public void run() {
        runner.run();
        final Throwable failure = getFailure();
        if (failure instanceof RuntimeException && !(failure instanceof HaltProcessorException)) {
            throw (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
    }

    /**
     * One step of the runner: one wait on the barrier, then at most one batch. The per-event loop
     * is {@link #processBatch}'s; the runner only wraps it, once per batch.
     */
    private final class Steps implements Agent {
        /** The exception policy, fixed at start. */
        private ExceptionHandler<? super E> policy;

        @Override
        public void onStart() {
            // volatile store, then the runner's volatile load of its state: a halt() that came
            // earlier has moved the state by now, and one that comes later alerts after this clear
            barrier.clearAlert();
            policy = exceptionHandler != null ? exceptionHandler : ExceptionHandlers.logAndContinue(name);
            notifyStart(policy);
        }

        @Override
        public int doWork() {
            // Plain load: this thread is the only writer of the sequence. The next sequence is
            // read back from it rather than kept in a field of this object: the sequence's line
            // is padded and already written once per batch, while a field here would be one more
            // store per batch to a line that objects allocated beside it may share with the
            // producer (the cell then depended on where the allocator happened to put them).
            final long next = sequence.getPlain() + 1L;
            final long available;
            try {
                available = barrier.waitFor(next);
            } catch (AlertException alerted) {
                return DONE;
            } catch (InterruptedException interrupted) {
                // whoever owns the thread wants it back: stop, and keep the interrupt for them
                Thread.currentThread().interrupt();
                return DONE;
            } catch (TimeoutException timeout) {
                notifyTimeout(next - 1L, policy);
                return 1;
            }
            if (available < next) {
                // The wait ended early: only a barrier other than the ring's own can do that (the
                // ring's barrier waits, the way its strategy waits, for a claimed slot to be
                // published). The runner spins a little, then yields, and this asks again.
                return 0;
            }
            final long last = Math.min(available, next + maxBatchSize - 1L);
            if (!processBatch(next, last, available, policy)) {
                return DONE;
            }
            if (last - next >= CHASE_MIN - 1L && last - next < CHASE_MAX) {
                letTheProducerAhead();
            }
            // at most maxBatchSize (an int) events
            return (int) (last - next + 1L);
        }

        @Override
        public void onHaltRequested() {
            // volatile store and a signal: a waitFor in progress throws AlertException
            barrier.alert();
        }

        @Override
        public void onClose() {
            try {
                notifyShutdown(policy);
            } catch (HaltProcessorException ignored) {
                // already stopping: nothing left to halt
            } catch (RuntimeException | Error failed) {
                if (runner.failure() instanceof HaltProcessorException) {
                    shutdownFailedAfterHalt = failed;
                    return;
                }
                throw failed;
            }
        }

        @Override
        public String roleName() {
            return label();
        }
    }

    /**
     * A batch of {@value #CHASE_MIN} to {@value #CHASE_MAX} events means this stage chases its
     * producer closely, and the two share lines: the producer writes slots this stage has just
     * read and stores the cursor it has just loaded, so both pay cache misses. Stepping aside lets
     * the producer run ahead; the next batch is a few hundred events, read far from its writes.
     * A batch of one (the latency case) or over {@value #CHASE_MAX} (running behind) never yields.
     *
     * <p>One {@link Thread#yield()}, not a spin: with a core to spare it returns within about a
     * microsecond; with more runnable threads than cores it hands the core to one with work, often
     * the producer. Measured against a pause of 8 {@link Thread#onSpinWait()} after batches of 2-7
     * events, and the bound 256 against 7: see {@code docs/benchmarks/continuous.md}.
     */
    private static void letTheProducerAhead() {
        Thread.yield();
    }

    /**
     * Hands {@code first..last} to the handler, retrying on a rewind, then advances the
     * sequence. Returns false if the processor was halted during a rewind, leaving the sequence
     * before the batch.
     */
    private boolean processBatch(final long first, final long last, final long available,
                                 final ExceptionHandler<? super E> policy) {
        final long size = last - first + 1L;
        final long queueDepth = available - first + 1L;
        notifyBatchStart(first, size, queueDepth, policy);
        int failures = 0;
        long s = first;
        // A try around each event's call, not one around the loop: the loop with its try outside
        // and the catches resuming it ran slower per event (docs/benchmarks/history/speed-study.md,
        // eighteenth series)
        while (s <= last) {
            final E event = dataProvider.get(s);
            try {
                handler.onEvent(event, s, s == last);
            } catch (RewindableException rewind) {
                if (retry(rewind, ++failures, s, event, first, policy)) {
                    if (runner.state() != RunState.RUNNING) {
                        return false;
                    }
                    counters.rewound();
                    s = first;
                    notifyBatchStart(first, size, queueDepth, policy);
                    continue;
                }
            } catch (Throwable ex) {
                handleEventException(ex, s, event, first, policy);
            }
            s++;
        }
        // release: downstream stages and producers that read this value see everything the
        // handler wrote while processing first..last; one store per batch, not per event
        sequence.set(last);
        counters.batchDone(size);
        return true;
    }

    /** Asks the rewind strategy; on GIVE_UP the exception goes to the policy as the event's. */
    private boolean retry(final RewindableException rewind, final int failures, final long s, final E event,
                          final long first, final ExceptionHandler<? super E> policy) {
        final BatchRewindStrategy.Decision decision;
        try {
            decision = rewindStrategy.decide(rewind, failures);
        } catch (RuntimeException | Error broken) {
            broken.addSuppressed(rewind);
            handleEventException(broken, s, event, first, policy);
            return false;
        }
        if (decision == BatchRewindStrategy.Decision.RETRY) {
            return true;
        }
        handleEventException(rewind, s, event, first, policy);
        return false;
    }

    /**
     * Passes a handler's exception to the policy. If the policy throws, the stage stops: the
     * events of the batch before {@code s} are done, {@code s} is not.
     */
    private void handleEventException(final Throwable ex, final long s, final E event, final long first,
                                      final ExceptionHandler<? super E> policy) {
        counters.exceptionHandled();
        try {
            policy.handleEventException(ex, s, event);
        } catch (RuntimeException | Error stop) {
            if (s > first) {
                // release: as at the end of a batch, for the part of it that was processed
                sequence.set(s - 1L);
                counters.eventsDone(s - first);
            }
            throw stop;
        }
    }

    private void notifyBatchStart(final long first, final long size, final long queueDepth,
                                  final ExceptionHandler<? super E> policy) {
        try {
            handler.onBatchStart(size, queueDepth);
        } catch (Throwable ex) {
            // reported against the batch's first event, which is still processed if the policy returns
            handleEventException(ex, first, dataProvider.get(first), first, policy);
        }
    }

    private void notifyTimeout(final long lastProcessed, final ExceptionHandler<? super E> policy) {
        try {
            handler.onTimeout(lastProcessed);
        } catch (Throwable ex) {
            counters.exceptionHandled();
            policy.handleEventException(ex, lastProcessed, null);
        }
    }

    private void notifyStart(final ExceptionHandler<? super E> policy) {
        try {
            handler.onStart();
        } catch (Throwable ex) {
            policy.handleOnStartException(ex);
        }
    }

    private void notifyShutdown(final ExceptionHandler<? super E> policy) {
        try {
            handler.onShutdown();
        } catch (Throwable ex) {
            policy.handleOnShutdownException(ex);
        }
    }

    private void checkNotStarted(final String setting) {
        if (runner.state() != RunState.NEW) {
            throw new IllegalStateException("cannot change " + setting + " of " + label()
                    + " after it has started: configure a processor before run()");
        }
    }

    private String label() {
        return name != null ? "BatchEventProcessor '" + name + "'" : "BatchEventProcessor";
    }

    @Override
    public String toString() {
        return label() + "[sequence=" + sequence.get() + ", running=" + isRunning() + "]";
    }
}
