package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * 56 bytes before the waiter count, so that no other object's hot field shares its cache line.
 * The int fills the gap after a compressed object header, where the JVM would otherwise place a
 * small field of a subclass, on the cache line of whatever object precedes this one.
 */
abstract class HybridLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

/**
 * The count producers read on every publish; written only when a consumer parks or leaves. A
 * long, so that the JVM cannot move it into a 4-byte gap outside the padding.
 */
abstract class HybridWaiterCount extends HybridLhsPadding {
    volatile long parkedWaiters;
}

/** 56 bytes after the waiter count. */
abstract class HybridRhsPadding extends HybridWaiterCount {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * Spins while an event is likely to arrive soon, then yields, then parks, and wakes parked
 * consumers only when one is actually parked: near busy-spin latency under load, and no CPU
 * while the stream is idle. Use it as the default for consumers that share cores with other
 * work or that see bursts separated by quiet periods. A waiter first spins for a bounded number
 * of tries ({@link Thread#onSpinWait()}), and starts the count again each time it sees the
 * sequence it waits on move (progress means the next event is probably close); then it yields a
 * bounded number of times; then it registers itself and parks until a producer signals. While
 * idle it burns nothing once parked (after about {@code spinTries + yieldTries} looks, some tens
 * of microseconds); for producers, signalling costs a fence and one load of a counter when nobody
 * is parked. Upstream stages do not signal, so a consumer that waits only for a slow upstream
 * stage (the cursor is already past) parks for short intervals instead of indefinitely.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new HybridWaitStrategy();                 // defaults
 * WaitStrategy eager = new HybridWaitStrategy(10_000, 100, 10_000);      // spin longer before parking
 * RingBuffer<Tick> ring = RingBuffer.createSingleProducer(Tick::new, 1024, waitStrategy);
 * }</pre>
 */
public final class HybridWaitStrategy extends HybridRhsPadding implements WaitStrategy {
    /** Spins before yielding, when none is given (some microseconds). */
    public static final int DEFAULT_SPIN_TRIES = 1_000;
    /** Yields before parking, when none is given. */
    public static final int DEFAULT_YIELD_TRIES = 50;
    /** How long one park lasts while only an upstream stage is behind, when none is given. */
    public static final long DEFAULT_UPSTREAM_PARK_NANOS = 20_000L;

    private static final VarHandle PARKED_WAITERS;

    static {
        try {
            PARKED_WAITERS = MethodHandles.lookup()
                    .findVarHandle(HybridWaiterCount.class, "parkedWaiters", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int spinTries;
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
     * Creates the strategy with {@value #DEFAULT_SPIN_TRIES} spins, {@value #DEFAULT_YIELD_TRIES}
     * yields and {@value #DEFAULT_UPSTREAM_PARK_NANOS} ns parks while an upstream stage is behind.
     */
    public HybridWaitStrategy() {
        this(DEFAULT_SPIN_TRIES, DEFAULT_YIELD_TRIES, DEFAULT_UPSTREAM_PARK_NANOS);
    }

    /**
     * Creates the strategy.
     *
     * @param spinTries spins before yielding, {@code >= 0}; restarted whenever the awaited
     *     sequence is seen to move
     * @param yieldTries yields before parking, {@code >= 0}
     * @param upstreamParkNanos how long each park lasts when the cursor has passed but an
     *     upstream stage has not (upstream stages do not signal), {@code > 0}
     * @throws IllegalArgumentException if a count is negative or {@code upstreamParkNanos} is not positive
     */
    public HybridWaitStrategy(final int spinTries, final int yieldTries, final long upstreamParkNanos) {
        this.spinTries = Checks.nonNegative("spinTries", spinTries);
        this.yieldTries = Checks.nonNegative("yieldTries", yieldTries);
        this.upstreamParkNanos = Checks.positive("upstreamParkNanos", upstreamParkNanos);
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        // acquire: seeing the sequence past a slot means seeing the event written before it
        long available = dependentSequence.get();
        if (available >= sequence) {
            return available;
        }
        long lastSeen = available;
        int spinsLeft = spinTries;
        int yieldsLeft = yieldTries;
        while (true) {
            barrier.checkAlert();
            if (spinsLeft > 0) {
                spinsLeft--;
                Thread.onSpinWait();
            } else if (yieldsLeft > 0) {
                yieldsLeft--;
                Thread.yield();
            } else if (cursor.get() < sequence) {
                // acquire load; nothing is published for us yet, so sleep until a producer signals
                parkUntilPublished(sequence, cursor, barrier);
                // woken by a publication: the producer is active, so spin again before parking
                spinsLeft = spinTries;
                yieldsLeft = yieldTries;
            } else {
                // published, but an upstream stage is behind and will not signal: nap briefly
                LockSupport.parkNanos(this, upstreamParkNanos);
                UpstreamWait.throwIfInterrupted();
            }
            // acquire: as above
            available = dependentSequence.get();
            if (available >= sequence) {
                return available;
            }
            if (available != lastSeen) {
                // progress: the sequence moves, so ours is likely close; keep the core a bit longer
                lastSeen = available;
                spinsLeft = spinTries;
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
            PARKED_WAITERS.setVolatile(this, (long) parkedCount);
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
            PARKED_WAITERS.setRelease(this, (long) parkedCount);
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
        // full fence (StoreLoad): the caller's publishing store is visible before the count is read
        VarHandle.fullFence();
        // volatile load: zero unless a consumer has registered to park
        if ((long) PARKED_WAITERS.getVolatile(this) != 0L) {
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
     * @return the number of registered waiters, from 0
     */
    public int parkedWaiters() {
        // volatile load: a monitoring read of the current count
        return (int) (long) PARKED_WAITERS.getVolatile(this);
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
        return "HybridWaitStrategy[spinTries=" + spinTries + ", yieldTries=" + yieldTries
                + ", upstreamParkNanos=" + upstreamParkNanos + "]";
    }
}
