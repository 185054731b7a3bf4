package dev.slipstream.processor;

import dev.slipstream.ring.DataProvider;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one {@link EventHandler} on its own thread over every event of a ring, in order and in
 * batches: each time it wakes it takes everything available (up to an optional maximum batch
 * size), hands it to the handler, and only then advances its {@link Sequence}, once per batch.
 * A consumer that falls behind therefore catches up in bigger batches, with no more
 * synchronisation than when it keeps up. After a batch of 2 to 256 events, the sign that it is
 * chasing its producer closely, it calls {@link Thread#yield()} once before asking for more,
 * whatever the wait strategy: the producer then runs ahead and the next batches are larger.
 * Isolated events (batches of one) never yield.
 *
 * <p>Exceptions from the handler go to an {@link ExceptionHandler} (by default
 * {@link ExceptionHandlers#logAndContinue(String)}, which logs and skips the event). A handler
 * may throw {@link RewindableException} to have the batch processed again from its start, under
 * a {@link BatchRewindStrategy} (by default at most {@value #DEFAULT_REWIND_RETRIES} retries);
 * rewound events are delivered again, so such a handler must be idempotent. A
 * {@link dev.slipstream.sequence.TimeoutException} of the wait strategy becomes
 * {@link EventHandler#onTimeout(long)}.
 *
 * <p>A processor runs once. Configure it (name, maximum batch size, exception handler, rewind
 * strategy) before {@link #run()}; {@link #halt()} (or an alert of its barrier, or an interrupt
 * while it waits) makes {@code run()} return after the batch in hand, and a second
 * {@code run()}, concurrent or later, throws {@link IllegalStateException}. Not allowing a
 * restart keeps the lifecycle callbacks paired (one {@code onStart}, one {@code onShutdown}); to
 * resume a halted stage, create a new processor and set its sequence to the old one's before
 * running it. The counters ({@link #eventsProcessed()} and the others) are plain,
 * allocation-free getters for monitoring threads.
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

    /**
     * After an early return of the barrier: spins, then yields to a slow producer (never parks:
     * the barrier itself waits). Shared by the processors: each counts its own early returns.
     */
    private static final Backoff EMPTY_WAIT = new Backoff(63, 0, 0L, 0L);

    /** The smallest batch that shows a stage chasing its producer (see letTheProducerAhead). */
    private static final long CHASE_MIN = 2L;
    /**
     * The largest batch that shows a stage chasing its producer: about what a producer writes
     * while the stage yields once (see letTheProducerAhead).
     */
    private static final long CHASE_MAX = 256L;

    private static final int IDLE = 0;
    private static final int RUNNING = 1;
    private static final int STOPPED = 2;

    private final DataProvider<E> dataProvider;
    private final SequenceBarrier barrier;
    private final EventHandler<? super E> handler;
    /** Padded on its own: producers and downstream stages read it all the time. */
    private final Sequence sequence = new Sequence(Sequence.INITIAL_VALUE);
    private final ProcessorCounters counters = new ProcessorCounters();
    private final AtomicInteger state = new AtomicInteger(IDLE);
    private volatile boolean haltRequested;
    private volatile Throwable failure;

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
        // volatile store, then the barrier's alert (a volatile store and a signal); run() clears
        // the alert before it reads this flag, so a halt is never lost between the two
        haltRequested = true;
        barrier.alert();
    }

    @Override
    public boolean isRunning() {
        return state.get() == RUNNING;
    }

    /**
     * How many events this stage has finished with, including those whose exception was
     * handled and skipped; a rewound batch counts once.
     *
     * @return the count, read without locking or allocation
     */
    public long eventsProcessed() {
        return counters.events();
    }

    /**
     * How many batches this stage has completed.
     *
     * @return the count
     */
    public long batchesProcessed() {
        return counters.batches();
    }

    /**
     * How many exceptions from the handler (in events, batch starts and timeouts) went to the
     * exception handler.
     *
     * @return the count
     */
    public long exceptionsHandled() {
        return counters.exceptions();
    }

    /**
     * How many times a batch was processed again after a {@link RewindableException}.
     *
     * @return the count
     */
    public long batchRewinds() {
        return counters.rewinds();
    }

    /**
     * Why the processor stopped, if an exception handler stopped it.
     *
     * @return the {@link HaltProcessorException} of a halting policy, the exception that
     *     escaped from {@code run()}, or null if it has not stopped or stopped through
     *     {@link #halt()}
     */
    public Throwable getFailure() {
        return failure;
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
        if (!state.compareAndSet(IDLE, RUNNING)) {
            throw new IllegalStateException(state.get() == RUNNING
                    ? label() + " is already running: run() must be called by one thread only"
                    : label() + " has already started once; a processor runs only once, so create a new one"
                            + " (its sequence can be set to this one's) to resume");
        }
        try {
            // volatile store, then the volatile load below: a halt() that came before run() has
            // raised the flag by now, and one that comes later alerts the barrier after this clear
            barrier.clearAlert();
            if (!haltRequested) {
                runLifecycle();
            }
        } finally {
            state.set(STOPPED);
        }
    }

    private void runLifecycle() {
        final ExceptionHandler<? super E> policy =
                exceptionHandler != null ? exceptionHandler : ExceptionHandlers.logAndContinue(name);
        RuntimeException escaping = null;
        Error error = null;
        try {
            notifyStart(policy);
            processEvents(policy);
        } catch (HaltProcessorException halted) {
            failure = halted;   // a clean stop asked for by the policy
        } catch (RuntimeException e) {
            escaping = e;
        } catch (Error e) {
            error = e;
        }
        try {
            notifyShutdown(policy);
        } catch (HaltProcessorException ignored) {
            // already stopping: nothing left to halt
        } catch (RuntimeException | Error e) {
            final Throwable first = escaping != null ? escaping : error;
            if (first != null) {
                first.addSuppressed(e);
            } else if (e instanceof Error) {
                error = (Error) e;
            } else {
                escaping = (RuntimeException) e;
            }
        }
        if (error != null) {
            failure = error;
            throw error;
        }
        if (escaping != null) {
            failure = escaping;
            throw escaping;
        }
    }

    private void processEvents(final ExceptionHandler<? super E> policy) {
        final SequenceBarrier barrier = this.barrier;
        final long maxBatch = maxBatchSize;
        // plain load: this thread is the only writer of the sequence
        long next = sequence.getPlain() + 1L;
        int emptyWaits = 0;
        // volatile load once per batch: halt() also alerts the barrier, this catches a barrier
        // that hands out events without checking its alert
        while (!haltRequested) {
            final long available;
            try {
                available = barrier.waitFor(next);
            } catch (AlertException alerted) {
                return;
            } catch (InterruptedException interrupted) {
                // whoever owns the thread wants it back: stop, and keep the interrupt for them
                Thread.currentThread().interrupt();
                return;
            } catch (TimeoutException timeout) {
                notifyTimeout(next - 1L, policy);
                continue;
            }
            if (available < next) {
                // The wait ended early: only a barrier other than the ring's own can do that (the
                // ring's barrier waits, the way its strategy waits, for a claimed slot to be
                // published). Spin a little, then yield, and ask again.
                EMPTY_WAIT.idleAt(emptyWaits++);
                continue;
            }
            emptyWaits = 0;
            final long last = Math.min(available, next + maxBatch - 1L);
            if (!processBatch(next, last, available, policy)) {
                return;
            }
            if (last - next >= CHASE_MIN - 1L && last - next < CHASE_MAX) {
                letTheProducerAhead();
            }
            next = last + 1L;
        }
    }

    /**
     * A batch of {@value #CHASE_MIN} to {@value #CHASE_MAX} events means this stage is chasing its
     * producer closely: events arrive faster than one at a time, yet the stage catches up within
     * about a microsecond of the producer's work. Close behind, the two share lines: the producer
     * writes slots this stage has just read and stores the cursor this stage has just loaded, so
     * both pay cache misses, and the closer the chase the more of them. Stepping aside before
     * asking for more lets the producer run ahead on lines nobody else touches; the next batch is
     * a few hundred events long, read at once and far from the producer's writes: the state
     * every stage of a continuous stream should settle in. A batch of one (isolated events, the
     * latency case) or a batch over {@value #CHASE_MAX} (the stage runs behind) never steps aside.
     *
     * <p>One {@link Thread#yield()}, not a spin: with a core to spare it returns within about a
     * microsecond, and with more runnable threads than cores (three stages and a producer on two
     * cores) it hands the core to a thread that has work, often the producer itself. It was
     * measured against a pause of 8 {@link Thread#onSpinWait()} after batches of 2-7 events, and
     * the bound of 256 events against 7; what each choice gave per topology and wait strategy is
     * in {@code docs/benchmarks/continuous.md}.
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
        // and the catches resuming it ran slower per event (docs/benchmarks/speed-study.md,
        // eighteenth series)
        while (s <= last) {
            final E event = dataProvider.get(s);
            try {
                handler.onEvent(event, s, s == last);
            } catch (RewindableException rewind) {
                if (retry(rewind, ++failures, s, event, first, policy)) {
                    if (haltRequested) {
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
        if (state.get() != IDLE) {
            throw new IllegalStateException("cannot change " + setting + " of " + label()
                    + " after it has started: configure a processor before run()");
        }
    }

    private String label() {
        return name != null ? "BatchEventProcessor '" + name + "'" : "BatchEventProcessor";
    }

    private static <T> T requireNonNull(final T value, final String message) {
        if (value == null) {
            throw new NullPointerException(message);
        }
        return value;
    }

    @Override
    public String toString() {
        return label() + "[sequence=" + sequence.get() + ", running=" + isRunning() + "]";
    }
}
