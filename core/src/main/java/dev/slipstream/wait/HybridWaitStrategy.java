package dev.slipstream.wait;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/** 56 bytes before the waiter count; the int fills the gap after the header, where a subclass field would go. */
abstract class HybridLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

/** Parked consumers, read on every publish; a long, so it stays inside the padding. */
abstract class HybridWaiterCount extends HybridLhsPadding {
    volatile long parkedWaiters;
}

/** 56 bytes after the waiter count. */
abstract class HybridRhsPadding extends HybridWaiterCount {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * Spins only while spinning has recently paid off, then yields, then parks, and wakes parked
 * consumers only when one is actually parked: busy-spin latency while events arrive close
 * together, and about the CPU of a blocking strategy while they arrive far apart.
 *
 * <p>Like a kernel's optimistic spinning on a lock, each consumer thread keeps a <em>spin
 * window</em>: a wait spins up to it, yields up to a matching yield window, then registers and
 * parks until a producer signals. An event caught spinning grows the window; a wait that had to
 * park halves both windows, down to a small floor. At a high rate the window covers the gap
 * between events (busy-spin latency); at a low rate it shrinks within a few waits.
 * {@code spinTries} and {@code yieldTries} are the largest windows.
 *
 * <p>A spin is also bounded in time ({@code maxSpinNanos}, 50 us by default), because one
 * {@link Thread#onSpinWait()} costs about 10 to 140 cycles depending on the CPU: without the
 * bound, a window longer than the gap at a low rate would never shrink and the consumer would
 * spin through every gap. The same bound tells a wait that parked whether spinning would have
 * paid: an event within {@code maxSpinNanos} of the wait's start opens the window to the
 * largest, a later one halves it. Otherwise a consumer at 100,000 events per second whose window
 * once fell to the floor would park on every gap, each late wake-up looking like a failure.
 *
 * <p>For producers, signalling costs a fence and one load of a counter when nobody is parked.
 * Upstream stages do not signal, so a consumer that waits only for a slow upstream stage parks
 * for short intervals instead.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new HybridWaitStrategy();                 // defaults
 * WaitStrategy eager = new HybridWaitStrategy(10_000, 50_000, 100, 10_000); // allow longer spins
 * RingBuffer<Tick> ring = RingBuffer.createSingleProducer(Tick::new, 1024, waitStrategy);
 * }</pre>
 */
public final class HybridWaitStrategy extends HybridRhsPadding implements WaitStrategy {
    /** The largest spin window, when none is given (where a pause takes over 12.5 ns, the time bound ends a spin first). */
    public static final int DEFAULT_SPIN_TRIES = 4_000;
    /** The longest a wait spins, when none is given: closer events are met spinning, further ones parked. */
    public static final long DEFAULT_MAX_SPIN_NANOS = 50_000L;
    /** The largest yield window, when none is given. */
    public static final int DEFAULT_YIELD_TRIES = 50;
    /** How long one park lasts while only an upstream stage is behind, when none is given. */
    public static final long DEFAULT_UPSTREAM_PARK_NANOS = 20_000L;

    /** The clock is read once every this many spins (a power of two): a read costs about one spin. */
    private static final int SPINS_PER_CLOCK_READ = 64;

    private static final VarHandle PARKED_WAITERS = FieldHandles.of(HybridWaiterCount.class, "parkedWaiters", long.class);

    /** Each consumer thread's own windows: waits of different stages do not share a cache line. */
    private static final ThreadLocal<SpinWindow> WINDOWS = ThreadLocal.withInitial(SpinWindow::new);

    private final int spinTries;
    private final long maxSpinNanos;
    private final int yieldTries;
    private final long upstreamParkNanos;

    /** Guards the registry below; taken only by parking consumers and by signals that find one. */
    private final ReentrantLock registryLock = new ReentrantLock();
    /** Threads parked (or about to park) on the cursor; grows by doubling, never per wait. */
    private Thread[] parked = new Thread[4];
    private int parkedCount;
    /** How many times a signal found a registered waiter and unparked; for tests and diagnosis. */
    private long wakeUps;

    /**
     * Creates the strategy with windows of at most {@value #DEFAULT_SPIN_TRIES} spins (and
     * {@value #DEFAULT_MAX_SPIN_NANOS} ns) and {@value #DEFAULT_YIELD_TRIES} yields, and
     * {@value #DEFAULT_UPSTREAM_PARK_NANOS} ns parks while an upstream stage is behind.
     */
    public HybridWaitStrategy() {
        this(DEFAULT_SPIN_TRIES, DEFAULT_MAX_SPIN_NANOS, DEFAULT_YIELD_TRIES, DEFAULT_UPSTREAM_PARK_NANOS);
    }

    /**
     * Creates the strategy with spin windows of at most {@value #DEFAULT_MAX_SPIN_NANOS} ns.
     *
     * @param spinTries the largest spin window: spins before yielding, {@code >= 0}
     * @param yieldTries the largest yield window: yields before parking, {@code >= 0}
     * @param upstreamParkNanos how long each park lasts when the cursor has passed but an
     *     upstream stage has not (upstream stages do not signal), {@code > 0}
     * @throws IllegalArgumentException if a count is negative or {@code upstreamParkNanos} is not positive
     */
    public HybridWaitStrategy(final int spinTries, final int yieldTries, final long upstreamParkNanos) {
        this(spinTries, DEFAULT_MAX_SPIN_NANOS, yieldTries, upstreamParkNanos);
    }

    /**
     * Creates the strategy.
     *
     * @param spinTries the largest spin window: spins before yielding, {@code >= 0}
     * @param maxSpinNanos the longest a wait spins, whatever its window (checked every
     *     {@value #SPINS_PER_CLOCK_READ} spins), and the longest wait after which a park counts as
     *     one that spinning would have avoided, {@code > 0}
     * @param yieldTries the largest yield window: yields before parking, {@code >= 0}
     * @param upstreamParkNanos how long each park lasts when the cursor has passed but an
     *     upstream stage has not (upstream stages do not signal), {@code > 0}
     * @throws IllegalArgumentException if a count is negative or a duration is not positive
     */
    public HybridWaitStrategy(final int spinTries, final long maxSpinNanos, final int yieldTries,
                              final long upstreamParkNanos) {
        this.spinTries = Checks.nonNegative("spinTries", spinTries);
        this.maxSpinNanos = Checks.positive("maxSpinNanos", maxSpinNanos);
        this.yieldTries = Checks.nonNegative("yieldTries", yieldTries);
        this.upstreamParkNanos = Checks.positive("upstreamParkNanos", upstreamParkNanos);
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        long available = dependentSequence.get();
        if (available >= sequence) {
            return available;
        }
        // only a thread that has to wait looks up its windows (a thread-local read, no allocation
        // after its first wait)
        final SpinWindow window = WINDOWS.get();
        int spins = 0;
        int yields = 0;
        int spinLimit = Math.min(window.spins, spinTries);
        final int yieldLimit = Math.min(window.yields, yieldTries);
        // the clock, read once per wait that has to wait: it bounds the spin phase and tells
        // a wait that parked whether a spin as long as allowed would have caught its event
        final long waitStart = System.nanoTime();
        boolean parked = false;
        while (true) {
            barrier.checkAlert();
            if (spins < spinLimit) {
                spins++;
                Thread.onSpinWait();
                if ((spins & (SPINS_PER_CLOCK_READ - 1)) == 0 && System.nanoTime() - waitStart >= maxSpinNanos) {
                    // this CPU spins slower than the window assumed: end the spin phase, and keep
                    // the window to what fits in the time (the rules below may raise it again;
                    // the next long wait clamps it again)
                    spinLimit = spins;
                    window.clamp(spins);
                }
            } else if (yields < yieldLimit) {
                yields++;
                Thread.yield();
            } else if (cursor.get() < sequence) {
                // acquire load; nothing is published for us yet, so sleep until a producer signals
                parked = true;
                parkUntilPublished(sequence, cursor, barrier);
            } else {
                // published, but an upstream stage is behind and will not signal: nap briefly
                LockSupport.parkNanos(this, upstreamParkNanos);
                UpstreamWait.throwIfInterrupted();
            }
            available = dependentSequence.get();
            if (available >= sequence) {
                final boolean brief = parked && System.nanoTime() - waitStart <= maxSpinNanos;
                window.learn(parked, yields > 0, brief, spinTries, yieldTries);
                return available;
            }
        }
    }

    /**
     * Registers the calling thread, re-checks the cursor, and parks until it has reached
     * {@code sequence}. The order is what prevents a lost wake-up; see signalAllWhenBlocking.
     */
    private void parkUntilPublished(final long sequence, final Sequence cursor, final SequenceBarrier barrier)
            throws AlertException, InterruptedException {
        final Thread self = Thread.currentThread();
        register(self);
        try {
            // Full fence after register()'s store of the waiter count, then the load of the cursor:
            // a StoreLoad pair that holds whatever access mode the given cursor's getVolatile()
            // uses (a view may implement it as an acquire load, which may pass an earlier store).
            // A producer stores the cursor, fences, then loads the count, so at least one of us
            // sees the other's store: either this load sees the publication (no park) or the
            // producer sees the count and unparks us (an unpark before park makes park return).
            VarHandle.fullFence();
            while (cursor.getVolatile() < sequence) {
                // alert() stores its flag and then signals like a producer: same reasoning
                barrier.checkAlert();
                LockSupport.park(this);
                UpstreamWait.throwIfInterrupted();
            }
        } finally {
            deregister(self);
        }
    }

    private void register(final Thread self) {
        registryLock.lock();
        try {
            if (parkedCount == parked.length) {
                parked = Arrays.copyOf(parked, parkedCount * 2);
            }
            parked[parkedCount++] = self;
            // volatile store: announces the waiter before its re-check of the cursor (StoreLoad)
            svParkedWaiters(parkedCount);
        } finally {
            registryLock.unlock();
        }
    }

    private void deregister(final Thread self) {
        registryLock.lock();
        try {
            for (int i = 0; i < parkedCount; i++) {
                if (parked[i] == self) {
                    parked[i] = parked[--parkedCount];
                    parked[parkedCount] = null;
                    break;
                }
            }
            // release: a producer that still reads the old, higher count only pays a useless signal
            soParkedWaiters(parkedCount);
        } finally {
            registryLock.unlock();
        }
    }

    /**
     * Unparks every parked consumer, if there is one. With nobody parked this is a fence and one
     * volatile load of a counter that only parking consumers write: no lock, no store.
     */
    @Override
    public void signalAllWhenBlocking() {
        VarHandle.fullFence();
        // volatile load: zero unless a consumer has registered to park
        if (lvParkedWaiters() != 0L) {
            unparkAll();
        }
    }

    private void unparkAll() {
        registryLock.lock();
        try {
            for (int i = 0; i < parkedCount; i++) {
                LockSupport.unpark(parked[i]);
                wakeUps++;
            }
        } finally {
            registryLock.unlock();
        }
    }

    /**
     * How many consumers are parked, or about to park, waiting for a publication.
     *
     * @return from 0
     */
    public int parkedWaiters() {
        return (int) lvParkedWaiters();
    }

    /** Unparks issued so far by signals; 0 means no signal ever found a parked waiter. */
    long wakeUps() {
        registryLock.lock();
        try {
            return wakeUps;
        } finally {
            registryLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "HybridWaitStrategy[spinTries=" + spinTries + ", maxSpinNanos=" + maxSpinNanos
                + ", yieldTries=" + yieldTries + ", upstreamParkNanos=" + upstreamParkNanos + "]";
    }

    private long lvParkedWaiters() {
        return (long) PARKED_WAITERS.getVolatile(this);
    }

    private void svParkedWaiters(final int count) {
        PARKED_WAITERS.setVolatile(this, (long) count);
    }

    private void soParkedWaiters(final int count) {
        PARKED_WAITERS.setRelease(this, (long) count);
    }
}
