package dev.slipstream.bench.support;

import java.util.List;

/**
 * The benchmarks' own threads: daemon threads (a stuck stage never keeps a benchmark JVM alive),
 * joined with a bound that fails loudly instead of hanging.
 *
 * <pre>{@code
 * List<Thread> threads = new ArrayList<>();
 * Threads.startDaemon(threads, stage, "slipstream-unicast-0");
 * ...
 * Threads.joinAll(threads.toArray(new Thread[0]));
 * }</pre>
 */
public final class Threads {
    private Threads() {
    }

    /**
     * Starts a daemon thread.
     *
     * @param threads where to remember it
     * @param body what it runs
     * @param name its name
     */
    public static void startDaemon(final List<Thread> threads, final Runnable body, final String name) {
        final Thread t = daemon(body, name);
        threads.add(t);
        t.start();
    }

    /** A daemon thread, not started. */
    public static Thread daemon(final Runnable body, final String name) {
        final Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    /** A daemon thread with the JVM's default name, not started: the libraries' thread factories. */
    public static Thread daemon(final Runnable body) {
        final Thread t = new Thread(body);
        t.setDaemon(true);
        return t;
    }

    /** Joins threads, failing loudly if one does not stop within 10 s. */
    public static void joinAll(final Thread... threads) {
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                throw new IllegalStateException("thread " + t.getName() + " did not stop within 10 s");
            }
        }
    }
}
