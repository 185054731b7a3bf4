package dev.slipstream.topology;

import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * A stage as the pipeline manages it: its place in the graph, its threads, and the sequences it
 * publishes its progress through. Two kinds: one handler ({@link HandlerNode}) or a work pool
 * ({@link PoolNode}).
 *
 * @param <E> the event type
 */
abstract class StageNode<E> implements Stage, StageMetrics {
    final Slipstream<E> pipeline;
    final String name;
    final List<StageNode<E>> upstreamNodes;
    /** Guarded by the pipeline's lock. */
    final List<StageNode<E>> downstreamNodes = new ArrayList<>();
    /** The stage's own wait strategy, registered with the ring's signal fan-out; null if it uses the ring's. */
    final WaitStrategy ownWaitStrategy;
    final SequenceBarrier barrier;
    final TrackingExceptionHandler<E> exceptions;
    /** Guarded by the pipeline's lock. */
    final List<Thread> threads = new ArrayList<>();
    /** Set when the stage is created, under the pipeline's lock. */
    ThreadFactory threadFactory;
    /** Graph membership only, nothing about its threads. */
    volatile boolean removed;
    /** Set while a removal waits for the stage's threads; guarded by the pipeline's lock. */
    boolean removing;
    /** Set when a removal gave up waiting for the stage's threads: it stays in the graph, gating. */
    boolean stuck;
    /** Set before the stage is asked to stop: its threads' end is expected (a failure still counts). */
    private volatile boolean stopRequested;
    /** First fatal exception recorded by the tracking exception handler, with its sequence. */
    private volatile StageFailure failure;
    private final List<Object> handlers;
    private final boolean workerPool;

    StageNode(final Slipstream<E> pipeline, final String name, final List<StageNode<E>> upstreamNodes,
              final WaitStrategy ownWaitStrategy, final SequenceBarrier barrier, final StageSpec<? super E> spec,
              final TrackingExceptionHandler<E> exceptions) {
        this.pipeline = pipeline;
        this.handlers = List.copyOf(spec.handlers);
        this.workerPool = spec.isWorkerPool();
        this.exceptions = exceptions;
        this.name = name;
        this.upstreamNodes = List.copyOf(upstreamNodes);
        this.ownWaitStrategy = ownWaitStrategy;
        this.barrier = barrier;
        exceptions.attach(this);
    }

    /** The sequences a downstream stage or the producers gate on, in the order they must be read. */
    abstract Sequence[] sequences();

    /** The runnables to put on threads, one per thread. */
    abstract Runnable[] runnables();

    /** Sets the sequence the stage starts after; only before its threads start. */
    abstract void startAfter(long sequence);

    /** Stops the stage's threads after their current batch. */
    abstract void halt();

    /** Marks the stage's end as expected, then halts it. */
    final void requestStop() {
        // volatile store before the halt: a thread that ends because of the halt sees it
        stopRequested = true;
        halt();
    }

    /** Whether the stage was asked to stop: its threads ending is no surprise. */
    final boolean stopRequested() {
        return stopRequested;
    }

    /** The handler objects of this stage. */
    final List<Object> handlerObjects() {
        return handlers;
    }

    /** Creates the threads, named {@code <pipeline>-<stage>[-<worker>]}, under the pipeline's lock. */
    final void createThreads(final Lifecycle lifecycle) {
        final Runnable[] bodies = runnables();
        threads.clear();
        for (int i = 0; i < bodies.length; i++) {
            final Runnable body = bodies[i];
            final Thread thread = threadFactory.newThread(() -> runBody(body, lifecycle));
            if (thread == null) {
                throw new IllegalStateException("the thread factory of stage '" + name + "' returned null");
            }
            thread.setName(bodies.length == 1 ? pipeline.name() + "-" + name : pipeline.name() + "-" + name + "-" + i);
            threads.add(thread);
        }
    }

    final void startThreads() {
        threads.forEach(Thread::start);
    }

    private void runBody(final Runnable body, final Lifecycle lifecycle) {
        Throwable thrown = null;
        try {
            body.run();
        } catch (Throwable t) {
            thrown = t;
        } finally {
            try {
                // the exceptions the log has not reported yet: a summary now, not never
                exceptions.stageStopped();
            } catch (RuntimeException | Error e) {
                if (thrown == null) {
                    thrown = e;
                } else {
                    thrown.addSuppressed(e);
                }
            }
            lifecycle.threadEnded(name, failure, thrown, stopRequested);
        }
    }

    void recordFailure(final long sequence, final Throwable cause) {
        if (failure == null) {
            // volatile store (one writer: the stage's thread): read by the pipeline when that thread ends
            failure = new StageFailure(name, sequence, cause);
        }
    }

    // ---------------------------------------------------------------- Stage

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<String> upstream() {
        return upstreamNodes.stream().map(node -> node.name).toList();
    }

    @Override
    public final StageMetrics metrics() {
        return this;
    }

    @Override
    public final boolean isWorkerPool() {
        return workerPool;
    }

    @Override
    public final int workers() {
        return handlers.size();
    }

    // ---------------------------------------------------------------- StageMetrics

    @Override
    public final String stageName() {
        return name;
    }

    @Override
    public final long lag() {
        return Math.max(0L, pipeline.ringBuffer().getCursor() - sequence());
    }

    /** Batches handled again after a rewindable exception (only a handler stage rewinds). */
    long batchRewinds() {
        return 0L;
    }

    /** "stage 'journal' of pipeline 'orders': sequence 41, lag 3, 42 events, 1 exception". */
    @Override
    public String toString() {
        final long exceptionCount = exceptionsHandled();
        return (isWorkerPool() ? "pool '" : "stage '") + name + "' of pipeline '" + pipeline.name() + "': sequence "
                + sequence() + ", lag " + lag() + ", " + eventsProcessed() + " events, " + exceptionCount
                + (exceptionCount == 1 ? " exception" : " exceptions");
    }
}
