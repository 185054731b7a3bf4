package dev.slipstream.topology;

import dev.slipstream.agent.Agent;
import dev.slipstream.agent.AgentErrorHandler;
import dev.slipstream.agent.AgentRunner;
import dev.slipstream.agent.RunState;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.queue.LscqBlockingQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.QueueClosedException;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.InsufficientCapacityException;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An unbounded front door for a ring buffer: any number of producer threads {@link #offer} items
 * to an {@link LscqQueue} and never wait, whatever the ring's consumers are doing; one
 * sequencing thread drains the queue in batches and publishes each batch into the
 * {@link RingBuffer} with an {@link EventTranslatorOneArg}. Downstream stages keep everything the
 * ring gives them: one total order, batching, preallocated events.
 *
 * <p><b>When to choose it.</b> Producers that must never stall (network threads, callbacks of
 * other libraries, bursty sources) in front of a pipeline whose consumers may fall behind for a
 * while. Publishing straight to a multi-producer ring makes a producer wait when the ring is
 * full; behind the ingress it returns at once and the backlog waits in the queue instead.
 *
 * <p><b>What it costs.</b> One more hop: each item is offered to the queue, polled by the
 * sequencing thread and translated into the ring, which adds latency (a few hundred nanoseconds
 * when the sequencing thread is awake; a wake-up when it was parked) and one thread. Memory
 * grows with the backlog: a segment of {@code 36 * segmentCapacity + 2008} bytes with compressed
 * references (see {@link LscqQueue}) is allocated each time the backlog outgrows the segments it
 * has (nothing is allocated while the sequencing thread keeps up). The sequencing thread is the ring's producer: with a single-producer ring,
 * nothing else may publish to it.
 *
 * <pre>{@code
 * RingBuffer<Order> ring = RingBuffer.createSingleProducer(Order::new, 4096, new HybridWaitStrategy());
 * UnboundedIngress<OrderMessage, Order> ingress =
 *         UnboundedIngress.builder(ring, (Order o, long seq, OrderMessage m) -> o.copyFrom(m)).build();
 * ingress.start();
 * ingress.offer(message);                              // any thread, never waits
 * long lost = ingress.stop(Duration.ofSeconds(5));     // drains every accepted item into the ring
 * }</pre>
 *
 * <p>Lifecycle: items may be offered before {@link #start()} (they wait in the queue);
 * {@link #stop(Duration)} refuses new items and moves every accepted one into the ring before
 * the thread ends; {@link #halt()} ends it after the current batch and discards the rest. Both
 * report how many accepted items did not reach the ring. Interrupting the sequencing thread does
 * not end it (the interrupt is cleared); a translator that throws has its exception passed to the
 * {@linkplain Builder#exceptionHandler exception handler} and its ring slot published as the
 * translator left it, and the thread goes on with the next item. When the thread ends, the
 * handler's {@link ExceptionHandler#stageStopped()} is called (the default handler writes its
 * last summary there).
 *
 * <p>The queue is an {@link LscqBlockingQueue}: the sequencing thread waits for items in its
 * {@code take()}, with the builder's {@linkplain Builder#waitStrategy wait strategy}, and a stop
 * or a halt closes it, which releases that wait; so the thread needs no barrier of its own to be
 * woken. The states are the pipeline's ({@code Lifecycle}): new, started, stopping or halting,
 * stopped. The sequencing thread's loop is an {@link AgentRunner}'s, as for every thread the
 * library owns: one step is one batch taken from the queue and published.
 *
 * @param <T> the items producers offer
 * @param <E> the ring's event type
 */
public final class UnboundedIngress<T, E> {
    /** The largest batch the sequencing thread publishes at once, unless set. */
    public static final int DEFAULT_MAX_BATCH = 256;

    private static final System.Logger LOG = System.getLogger(UnboundedIngress.class.getName());
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final RingBuffer<E> ring;
    private final EventTranslatorOneArg<E, T> translator;
    /** Producers offer to it; the sequencing thread polls it, and waits in its take() when empty. */
    private final LscqBlockingQueue<T> queue;
    private final ProducerWaitStrategy onRingFull;
    private final ExceptionHandler<? super E> exceptionHandler;
    private final ThreadFactory threadFactory;
    private final int maxBatch;
    /**
     * Moved by start (to started), stop (to stopping), halt (to halting) and the thread's end (to
     * stopped); the sequencing thread reads it between batches and while the ring is full.
     */
    private final Lifecycle lifecycle = new Lifecycle("ingress", () -> { });
    /** Owns the sequencing thread's loop; a halt ends it after the batch in hand. */
    private final AgentRunner runner;
    private volatile Thread thread;
    /**
     * Opened by start() once the thread is started (or its start failed): a stop or halt that
     * finds the ingress running waits for it before it looks at {@link #thread}.
     */
    private final CountDownLatch launched = new CountDownLatch(1);
    /** Written by the sequencing thread only, read by monitoring threads. */
    private volatile long transferred;
    private volatile long failed;
    /** Items the thread held or found after a halt, not published: set before it ends. */
    private long discarded;

    private UnboundedIngress(final Builder<T, E> b) {
        this.ring = b.ring;
        this.translator = b.translator;
        this.queue = new LscqBlockingQueue<>(b.segmentCapacity, b.waitStrategy);
        this.onRingFull = b.onRingFull;
        this.exceptionHandler = b.exceptionHandler;
        this.threadFactory = b.threadFactory;
        this.maxBatch = Math.min(b.maxBatch, ring.getBufferSize());
        // never idles in the runner: an empty queue is waited for in its take()
        this.runner = new AgentRunner(new Sequencing(), new Backoff(0, 0, 0L, 0L), AgentErrorHandler.STOP);
    }

    /**
     * Starts building an ingress into {@code ring}.
     *
     * @param <T> the items producers offer
     * @param <E> the ring's event type
     * @param ring the ring the sequencing thread publishes to
     * @param translator copies an item into a ring event
     * @return a builder with the defaults: segments of {@link LscqQueue#DEFAULT_SEGMENT_CAPACITY},
     *     batches of up to {@link #DEFAULT_MAX_BATCH}, a {@link HybridWaitStrategy} while idle,
     *     {@link ProducerWaitStrategies#defaultStrategy()} while the ring is full, a daemon thread
     * @throws NullPointerException if an argument is null
     */
    public static <T, E> Builder<T, E> builder(final RingBuffer<E> ring, final EventTranslatorOneArg<E, T> translator) {
        return new Builder<>(ring, translator);
    }

    /**
     * Hands an item to the ingress; never waits.
     *
     * @param item the item
     * @return true if accepted (it will reach the ring unless the ingress is halted, or the ring
     *     closed, first); false once {@link #stop} or {@link #halt} has been called
     * @throws NullPointerException if {@code item} is null
     */
    public boolean offer(final T item) {
        // signals the sequencing thread only if it waits in take()
        return queue.offer(item);
    }

    /**
     * Starts the sequencing thread.
     *
     * @throws IllegalStateException if already started, stopped or halted
     */
    public void start() {
        if (!lifecycle.casState(RunState.NEW, RunState.RUNNING)) {
            throw new IllegalStateException("ingress already started or stopped (state " + stateName() + ")");
        }
        try {
            final Thread t = Objects.requireNonNull(threadFactory.newThread(this::runThread),
                    "threadFactory returned null");
            t.start();
            // volatile store, before the latch opens: a stop or halt joins this thread
            thread = t;
        } finally {
            // also when the factory or Thread.start threw: then thread stays null and a stop
            // or halt discards the items itself instead of waiting for a thread that never ran
            launched.countDown();
        }
    }

    /**
     * Refuses new items, lets the sequencing thread move every accepted item into the ring, and
     * waits up to {@code timeout} for it to end; if it has not ended by then, halts it. An
     * ingress that was never started is closed and its items discarded.
     *
     * @param timeout how long to wait for the drain
     * @return how many accepted items did not reach the ring: 0 after a complete drain
     * @throws InterruptedException if interrupted while waiting (the thread keeps draining)
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalStateException if already stopped or halted
     */
    public long stop(final Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout must not be null");
        final Thread t = beginShutdown(RunState.STOPPING);
        if (t != null) {
            t.join(Math.max(1L, timeout.toMillis()));
            if (t.isAlive()) {
                // the thread stops after its current batch; the queue is closed, so it is not waiting
                // for items (a closed queue's take() only waits for offers in progress, briefly)
                lifecycle.casState(RunState.STOPPING, RunState.HALTING);
                runner.halt();
                t.join();
            }
        }
        return discarded;
    }

    /**
     * Refuses new items and ends the sequencing thread after its current batch (or at once if it
     * is idle or waiting for room in the ring), discarding what is left.
     *
     * @return how many accepted items did not reach the ring
     * @throws InterruptedException if interrupted while waiting for the thread to end
     * @throws IllegalStateException if already stopped or halted
     */
    public long halt() throws InterruptedException {
        final Thread t = beginShutdown(RunState.HALTING);
        if (t != null) {
            t.join();
        }
        return discarded;
    }

    /**
     * Moves the state to {@code next} (one shutdown wins), closes the queue, and finds the
     * sequencing thread once {@link #start()} has launched it (a shutdown racing a start waits
     * for the few instructions between the state change and {@code Thread.start}).
     *
     * @return the thread to join; null if none runs, the accepted items then discarded here
     */
    private Thread beginShutdown(final RunState next) throws InterruptedException {
        RunState s;
        do {
            s = lifecycle.state();
            if (s != RunState.NEW && s != RunState.RUNNING) {
                throw new IllegalStateException("ingress already stopped or halted (state " + stateName() + ")");
            }
        } while (!lifecycle.casState(s, next));
        if (next == RunState.HALTING) {
            // before the close: the thread leaves its loop at the end of the batch in hand
            runner.halt();
        }
        // refuses later offers and releases the sequencing thread from take()
        queue.close();
        if (s == RunState.RUNNING) {
            launched.await();
            // volatile load, written before the latch opened; null if the start failed
            final Thread t = thread;
            if (t != null) {
                return t;
            }
        }
        discarded = drainQueue();
        // volatile store: publishes the count to later readers
        lifecycle.setState(RunState.STOPPED);
        return null;
    }

    /** Polls the closed queue until it is drained. @return how many items it held */
    private long drainQueue() {
        long n = 0;
        while (!queue.isDrained()) {
            if (queue.poll() != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Items moved into the ring so far.
     *
     * @return the count
     */
    public long transferred() {
        return transferred;
    }

    /**
     * Items whose translation threw (each reported to the exception handler; its ring slot was
     * published as the translator left it).
     *
     * @return the count
     */
    public long failed() {
        return failed;
    }

    /**
     * Items waiting in the queue: an estimate while producers and the thread run.
     *
     * @return the backlog
     */
    public int backlog() {
        return queue.size();
    }

    /**
     * Whether the sequencing thread has been started and has not ended.
     *
     * @return true while started, stopping or halting
     */
    public boolean isRunning() {
        final Thread t = thread;
        return t != null && t.isAlive();
    }

    private String stateName() {
        return Lifecycle.stateName(lifecycle.state());
    }

    /**
     * The sequencing thread: the runner's loop, then what is left is counted and the handler told,
     * also when a halt came before the runner could start.
     */
    private void runThread() {
        try {
            runner.run();
        } finally {
            finish();
        }
        final Throwable failure = runner.failure();
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
    }

    /**
     * One step of the sequencing thread: takes a batch from the queue (waiting in its
     * {@code take()} if it is empty) and publishes it into the ring.
     */
    private final class Sequencing implements Agent {
        /** The batch in hand, allocated once; this thread only. */
        @SuppressWarnings("unchecked")
        final T[] batch = (T[]) new Object[maxBatch];
        /** Items of the batch in hand not yet published: discarded if the thread ends now. */
        int held;
        /** Set when the ring refuses claims: the thread ends, discarding the rest. */
        boolean ringClosed;

        @Override
        public int doWork() {
            int k = pollInto(batch, 0);
            if (k == 0) {
                final T first = awaitItem();
                if (first == null) {
                    // stopped, and every accepted item is in the ring; or interrupted: look again
                    return queue.isDrained() ? DONE : 1;
                }
                batch[0] = first;
                k = pollInto(batch, 1);
            }
            held = k;
            held = k - publish(this, k);
            // halted, or the ring was closed: the rest is discarded
            return held > 0 || ringClosed ? DONE : k;
        }

        @Override
        public String roleName() {
            return "ingress";
        }
    }

    /** After the loop: closes the queue, counts what was not published, tells the handler. */
    private void finish() {
        final Sequencing sequencing = (Sequencing) runner.agent();
        Arrays.fill(sequencing.batch, null);
        queue.close();
        discarded = sequencing.held + drainQueue();
        try {
            exceptionHandler.stageStopped();
        } finally {
            // volatile store: publishes discarded to the thread that joins
            lifecycle.setState(RunState.STOPPED);
        }
    }

    /** Polls items into {@code batch} from {@code from} until it is full or the queue is empty. */
    private int pollInto(final T[] batch, final int from) {
        int k = from;
        T item;
        while (k < maxBatch && (item = queue.poll()) != null) {
            batch[k++] = item;
        }
        return k;
    }

    /**
     * Waits with the wait strategy until a producer offers, or the ingress is stopped.
     *
     * @return the next item; null once the queue is closed and drained, or if the thread was
     *     interrupted (not a way to stop the ingress: the caller looks again)
     */
    private T awaitItem() {
        try {
            return queue.take();
        } catch (QueueClosedException closed) {
            return null; // stopped or halted, and every accepted item was taken
        } catch (InterruptedException interrupted) {
            // the status is cleared; stop and halt end the thread, an interrupt does not
            LOG.log(System.Logger.Level.DEBUG, "ingress thread interrupted; use stop() or halt() to end it");
            return null;
        }
    }

    /**
     * Publishes {@code batch[0 .. k)} into the ring, waiting for room with the ring-full
     * strategy; translator failures are reported and their slots published as they are.
     *
     * @return how many items were published: {@code k} unless the ingress was halted
     */
    private int publish(final Sequencing sequencing, final int k) {
        final T[] batch = sequencing.batch;
        int done = 0;
        int attempt = 0;
        while (done < k) {
            final int n = (int) Math.min(k - done, ring.remainingCapacity());
            if (n > 0) {
                final long hi;
                try {
                    hi = ring.tryNext(n);
                } catch (SequencerClosedException closed) {
                    LOG.log(System.Logger.Level.WARNING, "ring closed under the ingress: " + closed.getMessage());
                    sequencing.ringClosed = true;
                    return done;
                } catch (InsufficientCapacityException full) {
                    onRingFull.idle(attempt++);
                    if (isHalting()) {
                        return done;
                    }
                    continue;
                }
                final long lo = hi - (n - 1);
                try {
                    for (int i = 0; i < n; i++) {
                        final long seq = lo + i;
                        final E event = ring.get(seq);
                        try {
                            translator.translateTo(event, seq, batch[done + i]);
                        } catch (RuntimeException ex) {
                            // volatile write by the only writer: monitoring threads read it
                            failed++;
                            exceptionHandler.handleEventException(ex, seq, event);
                        }
                        batch[done + i] = null;
                    }
                } finally {
                    // release (inside publish): the events written above become visible
                    ring.publish(lo, hi);
                }
                done += n;
                // volatile write by the only writer: monitoring threads read it
                transferred += n;
                attempt = 0;
                continue;
            }
            if (isHalting()) {
                return done;
            }
            onRingFull.idle(attempt++);
        }
        return done;
    }

    private boolean isHalting() {
        // volatile load of the runner's state: a halt ends the thread after its current batch
        return runner.state() == RunState.HALTING;
    }


    /**
     * Builds an {@link UnboundedIngress}.
     *
     * <pre>{@code
     * UnboundedIngress<Msg, Event> ingress = UnboundedIngress.builder(ring, Event::copyFrom)
     *         .segmentCapacity(1 << 14)
     *         .maxBatch(512)
     *         .waitStrategy(new BlockingWaitStrategy())
     *         .build();
     * }</pre>
     *
     * @param <T> the items producers offer
     * @param <E> the ring's event type
     */
    public static final class Builder<T, E> {
        private final RingBuffer<E> ring;
        private final EventTranslatorOneArg<E, T> translator;
        private int segmentCapacity = LscqQueue.DEFAULT_SEGMENT_CAPACITY;
        private int maxBatch = DEFAULT_MAX_BATCH;
        private WaitStrategy waitStrategy;
        private ProducerWaitStrategy onRingFull = ProducerWaitStrategies.defaultStrategy();
        private ExceptionHandler<? super E> exceptionHandler = ExceptionHandlers.logAndContinue((String) null);
        private ThreadFactory threadFactory = r -> {
            final Thread t = new Thread(r, "slipstream-ingress-" + THREAD_IDS.incrementAndGet());
            t.setDaemon(true);
            return t;
        };

        private Builder(final RingBuffer<E> ring, final EventTranslatorOneArg<E, T> translator) {
            this.ring = Objects.requireNonNull(ring, "ring must not be null");
            this.translator = Objects.requireNonNull(translator, "translator must not be null");
        }

        /**
         * Elements per queue segment.
         *
         * @param capacity a power of two from 1 to {@link ScqQueue#MAX_CAPACITY}
         * @return this builder
         * @throws IllegalArgumentException if {@code capacity} is not such a power of two
         */
        public Builder<T, E> segmentCapacity(final int capacity) {
            if (capacity < 1 || capacity > ScqQueue.MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
                throw new IllegalArgumentException("segmentCapacity must be a power of two between 1 and "
                        + ScqQueue.MAX_CAPACITY + ", got " + capacity);
            }
            this.segmentCapacity = capacity;
            return this;
        }

        /**
         * The most items published into the ring at once (capped at the ring's size).
         *
         * @param max at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code max} is less than 1
         */
        public Builder<T, E> maxBatch(final int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxBatch must be >= 1, got " + max);
            }
            this.maxBatch = max;
            return this;
        }

        /**
         * How the sequencing thread waits while the queue is empty.
         *
         * @param strategy the wait strategy
         * @return this builder
         * @throws NullPointerException if {@code strategy} is null
         */
        public Builder<T, E> waitStrategy(final WaitStrategy strategy) {
            this.waitStrategy = Objects.requireNonNull(strategy, "waitStrategy must not be null");
            return this;
        }

        /**
         * How the sequencing thread waits while the ring is full.
         *
         * @param strategy the producer wait strategy
         * @return this builder
         * @throws NullPointerException if {@code strategy} is null
         */
        public Builder<T, E> onRingFull(final ProducerWaitStrategy strategy) {
            this.onRingFull = Objects.requireNonNull(strategy, "onRingFull must not be null");
            return this;
        }

        /**
         * Told about items whose translation threw; the default,
         * {@link ExceptionHandlers#logAndContinue(String)} naming the sequencing thread, logs the
         * first in full and then a summary at most every 10 s.
         *
         * @param handler the handler
         * @return this builder
         * @throws NullPointerException if {@code handler} is null
         */
        public Builder<T, E> exceptionHandler(final ExceptionHandler<? super E> handler) {
            this.exceptionHandler = Objects.requireNonNull(handler, "exceptionHandler must not be null");
            return this;
        }

        /**
         * Makes the sequencing thread; the default makes a daemon thread named
         * {@code slipstream-ingress-N}.
         *
         * @param factory the thread factory
         * @return this builder
         * @throws NullPointerException if {@code factory} is null
         */
        public Builder<T, E> threadFactory(final ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "threadFactory must not be null");
            return this;
        }

        /**
         * Builds the ingress (not started).
         *
         * @return the ingress
         */
        public UnboundedIngress<T, E> build() {
            if (waitStrategy == null) {
                waitStrategy = new HybridWaitStrategy();
            }
            return new UnboundedIngress<>(this);
        }
    }
}
