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
 * An unbounded front door for a ring buffer: producer threads {@link #offer} items to an
 * {@link LscqQueue} and never wait; one sequencing thread drains the queue in batches and
 * publishes them into the {@link RingBuffer} with an {@link EventTranslatorOneArg}, so stages
 * keep one total order, batching and preallocated events.
 *
 * <p>Choose it for producers that must never stall (network threads, callbacks, bursty sources)
 * in front of consumers that may fall behind: the backlog waits in the queue, not the producer.
 * It costs one hop (latency, plus a wake-up if the thread was parked), one thread, and memory
 * that grows with the backlog: a segment of {@code 36 * segmentCapacity + 2008} bytes with
 * compressed references each time the backlog outgrows the segments it has. The sequencing
 * thread is the ring's producer: with a single-producer ring, nothing else may publish to it.
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
 * <p>Items may be offered before {@link #start()}. {@link #stop(Duration)} moves every accepted
 * item into the ring before the thread ends; {@link #halt()} ends it after the current batch and
 * discards the rest; both return how many accepted items did not reach the ring. An interrupt
 * does not end the thread. A translator that throws goes to the
 * {@linkplain Builder#exceptionHandler exception handler}, its slot is published as left, and
 * the thread goes on; at the end, {@link ExceptionHandler#stageStopped()} is called.
 *
 * <p>The thread waits in the {@link LscqBlockingQueue}'s {@code take()}, which a stop or halt
 * releases by closing the queue, so it needs no barrier of its own. Its loop is an
 * {@link AgentRunner}'s: one step is one batch taken and published.
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
    private final LscqBlockingQueue<T> queue;
    private final ProducerWaitStrategy onRingFull;
    private final ExceptionHandler<? super E> exceptionHandler;
    private final ThreadFactory threadFactory;
    private final int maxBatch;
    private final Lifecycle lifecycle = new Lifecycle("ingress", () -> { });
    private final AgentRunner runner;
    private volatile Thread thread;
    /** Opened once start() has set {@link #thread} (or failed): a shutdown waits for it before reading it. */
    private final CountDownLatch launched = new CountDownLatch(1);
    /** Volatile: written by the sequencing thread only, read by monitoring threads. */
    private volatile long transferred;
    private volatile long failed;
    /** Accepted items that did not reach the ring; published by the volatile store of STOPPED after it. */
    private long discarded;

    private UnboundedIngress(final Builder<T, E> b) {
        this.ring = b.ring;
        this.translator = b.translator;
        this.queue = new LscqBlockingQueue<>(b.segmentCapacity,
                b.waitStrategy != null ? b.waitStrategy : new HybridWaitStrategy());
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
     * @return a builder with defaults: {@link LscqQueue#DEFAULT_SEGMENT_CAPACITY},
     *     {@link #DEFAULT_MAX_BATCH}, {@link HybridWaitStrategy} while idle,
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
        return queue.offer(item);
    }

    /**
     * Starts the sequencing thread.
     *
     * @throws IllegalStateException if already started, stopped or halted
     */
    public void start() {
        if (!lifecycle.casState(RunState.NEW, RunState.RUNNING)) {
            throw new IllegalStateException("ingress already started or stopped (state " + Lifecycle.stateName(lifecycle.state()) + ")");
        }
        try {
            final Thread t = Objects.requireNonNull(threadFactory.newThread(this::runThread),
                    "threadFactory returned null");
            t.start();
            thread = t; // before the latch opens: a stop or halt joins this thread
        } finally {
            // also on failure: thread stays null and a shutdown discards the items itself
            launched.countDown();
        }
    }

    /**
     * Refuses new items and waits up to {@code timeout} for the thread to move every accepted one
     * into the ring, then halts it. A never-started ingress discards its items.
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
                // a closed queue's take() waits only for offers in progress, so the halt ends it soon
                lifecycle.casState(RunState.STOPPING, RunState.HALTING);
                runner.halt();
                t.join();
            }
        }
        return discarded;
    }

    /**
     * Refuses new items and ends the thread after its current batch, discarding the rest.
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
     * Moves to {@code next} (one shutdown wins), closes the queue, and waits for a racing
     * {@link #start()} to set the thread.
     *
     * @return the thread to join; null if none runs, the items then discarded here
     */
    private Thread beginShutdown(final RunState next) throws InterruptedException {
        RunState s;
        do {
            s = lifecycle.state();
            if (s != RunState.NEW && s != RunState.RUNNING) {
                throw new IllegalStateException("ingress already stopped or halted (state " + Lifecycle.stateName(lifecycle.state()) + ")");
            }
        } while (!lifecycle.casState(s, next));
        if (next == RunState.HALTING) {
            // before the close: the thread leaves its loop at the end of the batch in hand
            runner.halt();
        }
        queue.close();
        if (s == RunState.RUNNING) {
            launched.await();
            final Thread t = thread; // null if the start failed
            if (t != null) {
                return t;
            }
        }
        discarded = drainQueue();
        lifecycle.setState(RunState.STOPPED);
        return null;
    }

    /** @return how many items the closed queue held */
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
     * Items whose translation threw.
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

    /** The runner's loop, then {@link #finish()}, also when a halt came before the loop began. */
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

    /** One step: a batch taken from the queue (waiting in {@code take()} if empty) and published. */
    private final class Sequencing implements Agent {
        /** Allocated once; this thread only. */
        @SuppressWarnings("unchecked")
        final T[] batch = (T[]) new Object[maxBatch];
        /** Items of the batch not yet published: discarded if the thread ends now. */
        int held;
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

    /** Counts what was not published and tells the handler. */
    private void finish() {
        final Sequencing sequencing = (Sequencing) runner.agent();
        Arrays.fill(sequencing.batch, null);
        queue.close();
        discarded = sequencing.held + drainQueue();
        try {
            exceptionHandler.stageStopped();
        } finally {
            // publishes discarded to the thread that joins
            lifecycle.setState(RunState.STOPPED);
        }
    }

    private int pollInto(final T[] batch, final int from) {
        int k = from;
        T item;
        while (k < maxBatch && (item = queue.poll()) != null) {
            batch[k++] = item;
        }
        return k;
    }

    /** @return the next item; null once the queue is closed and drained, or on an interrupt */
    private T awaitItem() {
        try {
            return queue.take();
        } catch (QueueClosedException closed) {
            return null;
        } catch (InterruptedException interrupted) {
            LOG.log(System.Logger.Level.DEBUG, "ingress thread interrupted; use stop() or halt() to end it");
            return null;
        }
    }

    /** @return how many of {@code batch[0 .. k)} were published: {@code k} unless halted or the ring closed */
    private int publish(final Sequencing sequencing, final int k) {
        final T[] batch = sequencing.batch;
        int done = 0;
        int attempt = 0;
        while (done < k) {
            final int n = (int) Math.min(k - done, ring.remainingCapacity());
            long hi = -1L;
            try {
                hi = n > 0 ? ring.tryNext(n) : hi;
            } catch (SequencerClosedException closed) {
                LOG.log(System.Logger.Level.WARNING, "ring closed under the ingress: " + closed.getMessage());
                sequencing.ringClosed = true;
                return done;
            } catch (InsufficientCapacityException full) {
                // another producer took the space first: wait as for a full ring
            }
            if (hi < 0) {
                if (runner.state() == RunState.HALTING) {
                    return done;
                }
                onRingFull.idle(attempt++);
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
                        failed++; // single writer
                        exceptionHandler.handleEventException(ex, seq, event);
                    }
                    batch[done + i] = null;
                }
            } finally {
                // release (inside publish): the events written above become visible
                ring.publish(lo, hi);
            }
            done += n;
            transferred += n; // single writer
            attempt = 0;
        }
        return done;
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
         * Told about items whose translation threw; default
         * {@link ExceptionHandlers#logAndContinue(String)}.
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
         * Makes the sequencing thread; default a daemon named {@code slipstream-ingress-N}.
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
            return new UnboundedIngress<>(this);
        }
    }
}
