package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.Threads;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Helper producer threads for the multi-producer shape: each batch, the benchmark thread
 * releases them with a round number and each publishes its share, while the benchmark thread
 * publishes its own. Idle helpers spin, yield, then park briefly, the same for every
 * implementation.
 *
 * <pre>{@code
 * ProducerCrew crew = new ProducerCrew(2, topology::publishRange, "lmax sequencer", topology::abort);
 * crew.start();
 * crew.release(nextValues, share);   // producers 1 and 2 publish 'share' events each
 * }</pre>
 */
final class ProducerCrew {
    /** What a helper does per round. */
    interface Publisher {
        void publishRange(int producer, long first, int n);
    }

    private static final VarHandle ROUND;

    static {
        try {
            ROUND = MethodHandles.lookup().findVarHandle(Helper.class, "round", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Helper[] helpers;
    private final java.util.function.Consumer<Throwable> onFailure;
    private volatile Throwable failure;
    private final Thread[] threads;

    ProducerCrew(final int count, final Publisher publisher, final String label,
                 final java.util.function.Consumer<Throwable> onFailure) {
        this.onFailure = onFailure;
        helpers = new Helper[count];
        threads = new Thread[count];
        for (int i = 0; i < count; i++) {
            helpers[i] = new Helper(i + 1, publisher, this);
            threads[i] = new Thread(helpers[i], label + " producer " + (i + 1));
            threads[i].setDaemon(true);
        }
    }

    void start() {
        for (Thread t : threads) {
            t.start();
        }
    }

    /** Hands each helper its first value and share, then releases the round. */
    void release(final long[] nextValue, final int share) {
        for (Helper h : helpers) {
            h.first = nextValue[h.producer];
            h.share = share;
            // release: publishes first and share written above to the helper
            ROUND.setRelease(h, h.issued + 1);
            h.issued++;
        }
    }

    /** Keeps the first failure (the cause); later ones are its consequences. */
    synchronized boolean recordFirstFailure(final Throwable e) {
        if (failure != null) {
            return false;
        }
        // volatile store: the benchmark thread's wait sees it and fails the batch
        failure = e;
        return true;
    }

    /** The first exception a helper died of, or null. */
    Throwable failure() {
        return failure;
    }

    /** Stops the helpers and joins them, failing loudly if one does not stop (see {@link Threads#joinAll}). */
    void stop() {
        for (Helper h : helpers) {
            h.stopped = true;
            // release: the helper sees 'stopped' after it sees the new round
            ROUND.setRelease(h, Long.MAX_VALUE);
        }
        Threads.joinAll(threads);
    }

    /** Padded so the round flag of one helper shares no line with another's. */
    static final class Helper implements Runnable {
        long p01, p02, p03, p04, p05, p06, p07;
        final int producer;
        final Publisher publisher;
        final ProducerCrew crew;
        long first;
        int share;
        long issued;
        volatile boolean stopped;
        long round;
        long p11, p12, p13, p14, p15, p16, p17;

        Helper(final int producer, final Publisher publisher, final ProducerCrew crew) {
            this.producer = producer;
            this.publisher = publisher;
            this.crew = crew;
        }

        @Override
        public void run() {
            long done = 0;
            while (true) {
                int spins = 0;
                long r;
                // acquire: pairs with release() so first and share are this round's
                while ((r = (long) ROUND.getAcquire(this)) == done) {
                    if (spins < 100) {
                        Thread.onSpinWait();
                    } else if (spins < 200) {
                        Thread.yield();
                    } else {
                        LockSupport.parkNanos(20_000L);
                    }
                    spins++;
                }
                if (stopped) {
                    return;
                }
                try {
                    publisher.publishRange(producer, first, share);
                } catch (RuntimeException | Error e) {
                    if (crew.recordFirstFailure(e)) {
                        // release the other producers, which may wait for space that will never come
                        crew.onFailure.accept(e);
                    }
                    throw e;
                }
                done = r;
            }
        }
    }
}
