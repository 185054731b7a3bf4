package dev.slipstream.topology;

import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.ring.EventFactory;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The settings of a {@link Slipstream} pipeline, checked as they are given, and the assembly of
 * its ring. Users see it as {@link Slipstream.Builder}; {@code B} lets every setter return that.
 *
 * <pre>{@code
 * Slipstream<Tick> pipeline = Slipstream.builder(Tick::new).name("ticks").ringSize(8192).build();
 * }</pre>
 *
 * @param <E> the event type
 * @param <B> the public builder type the setters return
 */
abstract class PipelineBuilder<E, B extends PipelineBuilder<E, B>> {
    private static final AtomicInteger UNNAMED = new AtomicInteger();

    private final EventFactory<E> factory;
    private String name;
    private int ringSize = 1024;
    private ProducerType producerType = ProducerType.MULTI;
    private WaitStrategy waitStrategy;
    private ProducerWaitStrategy producerWaitStrategy;
    private ThreadFactory threadFactory = Lifecycle::daemonThread;
    private ExceptionHandler<? super E> exceptionHandler;
    private Duration stallThreshold = Duration.ofSeconds(1);

    PipelineBuilder(final EventFactory<E> factory) {
        this.factory = Objects.requireNonNull(factory, "factory must not be null");
    }

    /** This builder, as the public type. */
    abstract B self();

    /**
     * The pipeline's name, used in thread names, errors and metrics (default {@code slipstream-<n>}).
     *
     * @param pipelineName not blank
     * @return this builder
     */
    public B name(final String pipelineName) {
        this.name = WorkerPool.checkName(pipelineName, "pipeline name");
        return self();
    }

    /**
     * The number of slots in the ring (default 1024).
     *
     * @param size a power of two
     * @return this builder
     * @throws IllegalArgumentException if {@code size} is not a positive power of two
     */
    public B ringSize(final int size) {
        if (size < 1 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("ringSize must be a power of two, got " + size);
        }
        this.ringSize = size;
        return self();
    }

    /**
     * One publishing thread, or many (default {@link ProducerType#MULTI}, always safe).
     *
     * @param type the producer type
     * @return this builder
     */
    public B producers(final ProducerType type) {
        this.producerType = Objects.requireNonNull(type, "producer type must not be null");
        return self();
    }

    /**
     * How stages wait for events, unless a stage sets its own (default
     * {@link HybridWaitStrategy}: spin briefly, yield, then park).
     *
     * @param strategy the wait strategy
     * @return this builder
     */
    public B waitStrategy(final WaitStrategy strategy) {
        this.waitStrategy = Objects.requireNonNull(strategy, "waitStrategy must not be null");
        return self();
    }

    /**
     * How producers wait when the ring is full (default
     * {@link ProducerWaitStrategies#defaultStrategy()}: spin, yield, then park briefly).
     *
     * @param strategy the producer wait strategy
     * @return this builder
     */
    public B producerWaitStrategy(final ProducerWaitStrategy strategy) {
        this.producerWaitStrategy = Objects.requireNonNull(strategy, "producerWaitStrategy must not be null");
        return self();
    }

    /**
     * Makes the stages' threads unless a stage sets its own, named
     * {@code <pipeline>-<stage>[-<worker>]}. The default makes <b>daemon</b> threads, so a stuck
     * handler cannot keep the JVM alive: shut the pipeline down before {@code main} returns, or
     * pass a factory of non-daemon threads.
     *
     * @param factory the thread factory
     * @return this builder
     */
    public B threadFactory(final ThreadFactory factory) {
        this.threadFactory = Objects.requireNonNull(factory, "threadFactory must not be null");
        return self();
    }

    /**
     * What a stage does when its handler throws, unless the stage sets its own (default: log and continue).
     *
     * @param handler the exception handler
     * @return this builder
     */
    public B exceptionHandler(final ExceptionHandler<? super E> handler) {
        this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
        return self();
    }

    /**
     * How long a stage may have a backlog without progress before JFR reports a stall
     * ({@link dev.slipstream.monitor.StageStallEvent}; default 1 s).
     *
     * @param threshold positive
     * @return this builder
     * @throws IllegalArgumentException if {@code threshold} is not positive
     */
    public B stallThreshold(final Duration threshold) {
        Objects.requireNonNull(threshold, "stallThreshold must not be null");
        if (threshold.isNegative() || threshold.isZero()) {
            throw new IllegalArgumentException("stallThreshold must be positive, got " + threshold);
        }
        this.stallThreshold = threshold;
        return self();
    }

    /**
     * Builds the pipeline and its ring; add stages, then {@link Slipstream#start()}.
     *
     * @return the pipeline
     */
    public Slipstream<E> build() {
        if (name == null) {
            name = "slipstream-" + UNNAMED.incrementAndGet();
        }
        final SignalFanOut signal = new SignalFanOut(waitStrategy != null ? waitStrategy : new HybridWaitStrategy());
        final RingBuffer<E> ring = RingBuffer.create(producerType, factory, ringSize, signal,
                producerWaitStrategy != null ? producerWaitStrategy : ProducerWaitStrategies.defaultStrategy());
        return new Slipstream<>(name, producerType, ring, signal, threadFactory, exceptionHandler, stallThreshold);
    }
}
