package dev.slipstream.topology;

import dev.slipstream.processor.BatchRewindStrategy;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.sequence.WaitStrategy;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * A stage to be added to a pipeline, with its optional settings; unset ones fall back to the
 * pipeline's. A spec describes one stage and may be used once.
 *
 * <pre>{@code
 * pipeline.handleEventsWith(
 *         StageSpec.of("journal", journal).maxBatchSize(256).threadFactory(pinnedToCore(2)),
 *         StageSpec.workerPool("pricers", new Pricer(), new Pricer()).wakePolicy(WakePolicy.BIASED));
 * }</pre>
 *
 * @param <E> the event type its handlers accept
 */
public final class StageSpec<E> {
    // read by the pipeline's graph and nodes; unset settings are null (0 for maxBatchSize)
    final List<EventHandler<? super E>> handlers;
    private final boolean workerPool;
    String name;
    WaitStrategy waitStrategy;
    int maxBatchSize;
    ExceptionHandler<? super E> exceptionHandler;
    ThreadFactory threadFactory;
    BatchRewindStrategy rewindStrategy;
    WakePolicy wakePolicy = WakePolicy.BIASED;
    private boolean used;

    private StageSpec(final List<EventHandler<? super E>> handlers, final boolean workerPool) {
        this.handlers = handlers;
        this.workerPool = workerPool;
    }

    /**
     * A stage that runs one handler on its own thread, named by the pipeline.
     *
     * @param handler the handler
     * @param <E> the event type
     * @return the spec
     * @throws NullPointerException if {@code handler} is null
     */
    public static <E> StageSpec<E> of(final EventHandler<? super E> handler) {
        return new StageSpec<>(List.of(Objects.requireNonNull(handler, "handler must not be null")), false);
    }

    /**
     * A named stage that runs one handler on its own thread.
     *
     * @param name the stage name, unique in its pipeline
     * @param handler the handler
     * @param <E> the event type
     * @return the spec
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public static <E> StageSpec<E> of(final String name, final EventHandler<? super E> handler) {
        return StageSpec.<E>of(handler).name(name);
    }

    /**
     * A pool of workers, one per handler, in which each event goes to exactly one worker.
     *
     * @param name the stage name, unique in its pipeline
     * @param workers the workers' handlers, distinct instances
     * @param <E> the event type
     * @return the spec
     * @throws NullPointerException if an argument or a worker is null
     * @throws IllegalArgumentException if {@code name} is blank, no worker is given, or one twice
     */
    @SafeVarargs
    public static <E> StageSpec<E> workerPool(final String name, final EventHandler<? super E>... workers) {
        return new StageSpec<E>(WorkerPool.<EventHandler<? super E>>checkHandlers(workers,
                "worker pool '" + name + "'"), true).name(name);
    }

    /**
     * A pool of {@code workers} workers, each with its own handler from {@code handlerFactory}.
     *
     * <pre>{@code
     * pipeline.handleEventsWith(StageSpec.workerPool("pricers", 4, Pricer::new));
     * }</pre>
     *
     * @param name the stage name, unique in its pipeline
     * @param workers how many workers, at least 1
     * @param handlerFactory called once per worker; must return a new instance each time
     * @param <E> the event type
     * @return the spec
     * @throws IllegalArgumentException if {@code workers} is below 1 or the factory returns an
     *     instance twice
     * @throws NullPointerException if an argument is null or the factory returns null
     */
    public static <E> StageSpec<E> workerPool(final String name, final int workers,
                                              final Supplier<? extends EventHandler<? super E>> handlerFactory) {
        Objects.requireNonNull(handlerFactory, "handlerFactory must not be null");
        if (workers < 1) {
            throw new IllegalArgumentException("a worker pool needs at least 1 worker, got " + workers);
        }
        @SuppressWarnings("unchecked")
        final EventHandler<? super E>[] handlers = new EventHandler[workers];
        for (int i = 0; i < workers; i++) {
            final EventHandler<? super E> handler = Objects.requireNonNull(handlerFactory.get(),
                    "handlerFactory of worker pool '" + name + "' returned null for worker " + i);
            for (int j = 0; j < i; j++) {
                if (handlers[j] == handler) {
                    throw new IllegalArgumentException("handlerFactory of worker pool '" + name
                            + "' returned the same handler for workers " + j + " and " + i + ", so it is given twice ("
                            + handler + "): each worker is its own thread and needs its own instance. A lambda that"
                            + " captures nothing, such as () -> (event, seq, end) -> ..., or a factory that"
                            + " returns a field, gives one shared object; create the handler in the factory,"
                            + " e.g. Pricer::new, or give distinct instances to workerPool(name, handlers...)");
                }
            }
            handlers[i] = handler;
        }
        return workerPool(name, handlers);
    }

    /**
     * A pool of workers named by the pipeline.
     *
     * @param workers the workers' handlers, distinct instances
     * @param <E> the event type
     * @return the spec
     * @throws NullPointerException if the array or a worker is null
     * @throws IllegalArgumentException if no worker is given, or one twice
     */
    @SafeVarargs
    public static <E> StageSpec<E> workerPool(final EventHandler<? super E>... workers) {
        return new StageSpec<E>(WorkerPool.<EventHandler<? super E>>checkHandlers(workers, "worker pool"), true);
    }

    /**
     * Names the stage.
     *
     * @param stageName unique in the pipeline, not blank
     * @return this spec
     */
    public StageSpec<E> name(final String stageName) {
        this.name = WorkerPool.checkName(stageName, "stage name");
        return this;
    }

    /**
     * How this stage waits for events, instead of the pipeline's; producers signal it too.
     *
     * @param strategy the wait strategy, used by this stage only
     * @return this spec
     */
    public StageSpec<E> waitStrategy(final WaitStrategy strategy) {
        this.waitStrategy = Objects.requireNonNull(strategy, "waitStrategy must not be null");
        return this;
    }

    /**
     * The most events handed to the handler in one batch (a handler stage), or claimed at once by
     * a worker (a pool, default {@value WorkerPool#DEFAULT_BATCH_SIZE}).
     *
     * @param size at least 1
     * @return this spec
     * @throws IllegalArgumentException if {@code size} is below 1
     */
    public StageSpec<E> maxBatchSize(final int size) {
        if (size < 1) {
            throw new IllegalArgumentException("maxBatchSize must be at least 1, got " + size);
        }
        this.maxBatchSize = size;
        return this;
    }

    /**
     * What happens when this stage's handler throws, instead of the pipeline's default.
     *
     * @param handler the exception handler
     * @return this spec
     */
    public StageSpec<E> exceptionHandler(final ExceptionHandler<? super E> handler) {
        this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
        return this;
    }

    /**
     * Makes this stage's threads (for example pinned to a core); the pipeline names them.
     *
     * @param factory the thread factory
     * @return this spec
     */
    public StageSpec<E> threadFactory(final ThreadFactory factory) {
        this.threadFactory = Objects.requireNonNull(factory, "threadFactory must not be null");
        return this;
    }

    /**
     * How a batch is retried when the handler throws a {@code RewindableException}.
     *
     * @param strategy the rewind strategy
     * @return this spec
     * @throws IllegalStateException if this spec is a worker pool
     */
    public StageSpec<E> rewindStrategy(final BatchRewindStrategy strategy) {
        Objects.requireNonNull(strategy, "rewindStrategy must not be null");
        if (workerPool) {
            throw new IllegalStateException("rewindStrategy applies to handler stages; "
                    + (name != null ? "worker pool '" + name + "'" : "this worker pool") + " does not rewind batches");
        }
        this.rewindStrategy = strategy;
        return this;
    }

    /**
     * Which idle workers wait for new events (pools only; default {@link WakePolicy#BIASED}).
     *
     * @param policy the policy
     * @return this spec
     * @throws IllegalStateException if this spec is a single-handler stage
     */
    public StageSpec<E> wakePolicy(final WakePolicy policy) {
        Objects.requireNonNull(policy, "wakePolicy must not be null");
        if (!workerPool) {
            throw new IllegalStateException("wakePolicy applies to worker pools; "
                    + (name != null ? "stage '" + name + "'" : "this stage (" + handlers.get(0) + ")")
                    + " is a single handler");
        }
        this.wakePolicy = policy;
        return this;
    }

    /**
     * Whether this spec is a worker pool.
     *
     * @return true for a pool
     */
    public boolean isWorkerPool() {
        return workerPool;
    }

    /** Refuses a spec that was added before. */
    void checkUnused() {
        if (used) {
            throw new IllegalArgumentException("stage spec " + this + " was already added; a spec describes one stage");
        }
    }

    /** Undoes {@link #markUsed()} when adding its stage failed after all. */
    void unmarkUsed() {
        used = false;
    }

    /** Once its stage was added: a failed add leaves it unused. */
    void markUsed() {
        checkUnused();
        used = true;
    }

    @Override
    public String toString() {
        return (workerPool ? "workerPool" : "stage") + "('" + (name != null ? name : "unnamed") + "', "
                + handlers.size() + (handlers.size() == 1 ? " handler)" : " handlers)");
    }
}
