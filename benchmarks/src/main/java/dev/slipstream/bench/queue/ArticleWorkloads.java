package dev.slipstream.bench.queue;

import dev.slipstream.queue.QueueCounters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Collectors;

/**
 * The LSCQ article's benchmark, as a plain program: T threads hammer one queue with no work in
 * between, each doing N operations of one workload, and the result is the wall time over all
 * operations of all threads, in nanoseconds per operation (lower is better).
 *
 * <ul>
 *   <li>{@code EnqueueOnly}: offer.</li>
 *   <li>{@code DequeueOnlyEmpty}: poll an empty queue.</li>
 *   <li>{@code Pair}: offer, then poll (one operation is the pair).</li>
 *   <li>{@code 50Enqueue50Dequeue}, {@code 30Enqueue70Dequeue}, {@code 70Enqueue30Dequeue}: offer
 *       with that probability, else poll, from a per-thread table of random draws made before
 *       the clock starts.</li>
 * </ul>
 * A backlog of 1,024 elements is offered before the Pair and mixed workloads. As in
 * {@link QueueShapes}, a thread whose own offers run {@link Queues#DRAIN_AT} ahead of its own polls
 * polls that many back inside the measured time, and an offer that a bounded queue refuses is
 * followed by one poll, so that no queue grows without bound and the bounded ones never stay
 * full; the same rules hold for every queue. Every element offered is one boxed Integer per
 * thread, created before the clock starts. {@code DequeueOnlyEmpty} runs
 * {@value #EMPTY_POLL_FACTOR} times as many operations as the others, so that its runs, too,
 * last longer than compilation.
 *
 * <p>For each thread count and workload given, a JVM makes {@code WARMUPS} unmeasured runs
 * (default 2) and then {@code RUNS} measured runs (default 3), each on a new queue and each of
 * the full length, so that what is measured is the compiled, steady loop and not its first
 * milliseconds. A run of a million operations lasts 10-400 ms here; a run much shorter than a
 * scheduler time slice measures thread start-up and compilation instead (a first version that
 * measured one run after a quarter-length warm-up reported 96 ns for a one-thread Pair that
 * costs 19 ns once compiled). Lines starting with {@code RESULT} give the median of the
 * measured runs, with each run listed. {@code benchmarks/scripts/queue-article.sh} runs this
 * program once per queue, workload, thread count and round, interleaved, as JMH forks one JVM
 * per benchmark and parameter: a queue's methods are compiled once per JVM, with the branch
 * profile of whatever ran before, so a JVM that runs several cells measures the later ones with
 * code shaped by the earlier ones.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.queue.ArticleWorkloads \
 *     LprqQueue 2 1000000 2 3 Pair
 * </pre>
 *
 * <p>With {@code -Dslipstream.queue.counters=true} ({@link QueueCounters}) each {@code RESULT}
 * line comes after a {@code COUNTERS} line: what Slipstream's queues did besides moving
 * elements in the measured runs (positions missed, cells passed, rings closed and added, CASes
 * lost), per million operations. Counting costs time when on: take the times from a run without it.
 *
 * <p>With {@code -Dslipstream.article.work=W} (W &gt; 0) each thread does a small random amount of
 * work after every operation, the LCRQ and LPRQ papers' method, so that threads do not hit the
 * queue back to back: a chain of {@code 0} to {@code W - 1} dependent multiply-adds (about a
 * nanosecond each), drawn from the thread's table before the clock starts. The times then include
 * the work, the same for every queue; the {@code RESULT} line names it ({@code work=W}).
 */
public final class ArticleWorkloads {
    /** Elements offered before the Pair and mixed workloads. */
    static final int BACKLOG = 1_024;
    /** How many times OPS an empty-poll run does (see {@link Workload#DEQUEUE_ONLY_EMPTY}). */
    static final int EMPTY_POLL_FACTOR = 64;
    /** Operations per call of a workload's loop (see {@link #work}). */
    static final int CHUNK = 1_024;
    /** Length of each thread's table of random draws, a power of two. */
    private static final int TABLE = 1 << 16;
    /** The papers' work between operations: up to this many multiply-adds; 0, none (the article's loop). */
    static final int WORK = Integer.getInteger("slipstream.article.work", 0);

    /** The article's six workloads. */
    enum Workload {
        ENQUEUE_ONLY("EnqueueOnly", 100, false, 1),
        // an empty poll costs about a nanosecond: a million of them last about a millisecond,
        // less than the compiler takes to finish the loop, and such runs measured which tier ran
        // (0.2-26 ns per poll for one queue in one JVM); EMPTY_POLL_FACTOR times as many last
        // tens of milliseconds, as the other workloads' runs do
        DEQUEUE_ONLY_EMPTY("DequeueOnlyEmpty", 0, false, EMPTY_POLL_FACTOR),
        PAIR("Pair", -1, true, 1),
        MIXED_50("50Enqueue50Dequeue", 50, true, 1),
        MIXED_30("30Enqueue70Dequeue", 30, true, 1),
        MIXED_70("70Enqueue30Dequeue", 70, true, 1);

        final String title;
        /** Per cent of offers; -1 for the pair. */
        final int offerPercent;
        final boolean backlog;
        /** Operations per thread of one run, as a multiple of the OPS argument. */
        final int opsFactor;

        Workload(final String title, final int offerPercent, final boolean backlog, final int opsFactor) {
            this.title = title;
            this.offerPercent = offerPercent;
            this.backlog = backlog;
            this.opsFactor = opsFactor;
        }

        /** The workloads named by their titles, separated by commas, or all of them for "all". */
        static List<Workload> parse(final String titles) {
            if (titles.equals("all")) {
                return List.of(values());
            }
            final List<Workload> named = new ArrayList<>();
            for (final String title : titles.split(",")) {
                named.add(Arrays.stream(values()).filter(w -> w.title.equals(title.trim())).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown workload " + title
                                + "; expected all or some of " + Arrays.stream(values()).map(w -> w.title).toList())));
            }
            return named;
        }
    }

    private ArticleWorkloads() {
    }

    /**
     * Runs every workload at every thread count for one queue and prints one {@code RESULT}
     * line per measurement.
     *
     * @param args queue name (as {@link Queues#create}), thread counts separated by commas,
     *     operations per thread, then optionally warm-up runs, measured runs and the workloads
     *     (titles separated by commas, or {@code all})
     * @throws Exception if a thread fails
     */
    public static void main(final String[] args) throws Exception {
        if (args.length < 3 || args.length > 6) {
            throw new IllegalArgumentException("usage: ArticleWorkloads QUEUE THREADS OPS [WARMUPS [RUNS [WORKLOADS]]], "
                    + "e.g. ArticleWorkloads LprqQueue 1,2,4,8 1000000 2 3 Pair,EnqueueOnly; got " + args.length
                    + " arguments");
        }
        final String queue = args[0];
        final int ops = Integer.parseInt(args[2]);
        if (ops < 1) {
            throw new IllegalArgumentException("OPS must be >= 1, got " + ops);
        }
        final int warmups = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        final int runs = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        if (warmups < 0 || runs < 1) {
            throw new IllegalArgumentException("WARMUPS must be >= 0 and RUNS >= 1, got " + warmups + " and " + runs);
        }
        final List<Workload> workloads = Workload.parse(args.length > 5 ? args[5] : "all");
        Queues.create(queue, Queues.defaultOrder(queue), true); // fail fast on an unknown name
        for (final String t : args[1].split(",")) {
            final int threads = Integer.parseInt(t.trim());
            if (threads < 1) {
                throw new IllegalArgumentException("thread counts must be >= 1, got " + threads);
            }
            for (final Workload w : workloads) {
                final int n = Math.multiplyExact(ops, w.opsFactor);
                for (int i = 0; i < warmups; i++) {
                    run(queue, w, threads, n); // compiles and settles the loop; not reported
                }
                final double[] ns = new double[runs];
                QueueCounters.reset(); // counts the measured runs only (all zero unless switched on)
                for (int i = 0; i < runs; i++) {
                    ns[i] = run(queue, w, threads, n) / ((double) threads * n);
                }
                if (QueueCounters.enabled()) {
                    // per million operations of the measured runs (their threads are joined: exact)
                    final double millions = (double) runs * threads * n / 1e6;
                    final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                            "COUNTERS queue=%s workload=%s threads=%d per_million_ops", queue, w.title, threads));
                    QueueCounters.snapshot().forEach((event, count) -> line.append(String.format(Locale.ROOT,
                            " %s=%.1f", event.name().toLowerCase(Locale.ROOT), count / millions)));
                    System.out.println(line);
                }
                final String each = Arrays.stream(ns).mapToObj(x -> String.format(Locale.ROOT, "%.2f", x))
                        .collect(Collectors.joining(","));
                Arrays.sort(ns); // the middle run (of an even count, the upper middle one)
                System.out.printf(Locale.ROOT, "RESULT queue=%s workload=%s threads=%d ops=%d ns_per_op=%.2f runs=%s%s%n",
                        queue, w.title, threads, n, ns[runs / 2], each, WORK > 0 ? " work=" + WORK : "");
            }
        }
    }

    /** One measurement: wall nanoseconds from the common start to the last thread's end. */
    static long run(final String name, final Workload w, final int threads, final int ops) throws Exception {
        final Queue<Integer> q = Queues.create(name, Queues.defaultOrder(name), true);
        if (w.backlog) {
            for (int i = 0; i < BACKLOG; i++) {
                q.offer(-i - 1);
            }
        }
        final long[] start = new long[1];
        final CyclicBarrier go = new CyclicBarrier(threads, () -> start[0] = System.nanoTime());
        final List<Thread> workers = new ArrayList<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final long[] sink = new long[threads * 16];
        for (int i = 0; i < threads; i++) {
            final int id = i;
            final Thread thread = new Thread(() -> {
                try {
                    final Integer element = 1_000_000 + id; // outside the Integer cache
                    final SplittableRandom random = new SplittableRandom(0x5EED + id);
                    final boolean[] table = table(random, w.offerPercent);
                    final int[] delays = delays(random);
                    go.await();
                    sink[id * 16] = work(q, w, element, table, delays, ops);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "worker-" + i);
            workers.add(thread);
        }
        workers.forEach(Thread::start);
        for (final Thread t : workers) {
            t.join();
        }
        final long end = System.nanoTime();
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a worker failed", failures.get(0));
        }
        return end - start[0];
    }

    /** Each operation's work, 0 to {@link #WORK} - 1 multiply-adds; null when there is none. */
    private static int[] delays(final SplittableRandom random) {
        if (WORK <= 0) {
            return null;
        }
        final int[] d = new int[TABLE];
        for (int i = 0; i < TABLE; i++) {
            d[i] = random.nextInt(WORK);
        }
        return d;
    }

    /**
     * The work between operations: {@code n} dependent multiply-adds on a local value, which the
     * caller sinks, so the JIT can neither drop nor vectorise them.
     */
    static long spend(final long seed, final int n) {
        long x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    private static boolean[] table(final SplittableRandom random, final int offerPercent) {
        final boolean[] t = new boolean[TABLE];
        for (int i = 0; i < TABLE; i++) {
            t[i] = random.nextInt(100) < offerPercent;
        }
        return t;
    }

    /**
     * The per-thread loop: the workload's own method, called on chunks of {@value #CHUNK}
     * operations. Each workload's loop is then an ordinary method that the compiler compiles on
     * its own after a few hundred calls, not one long loop compiled on the stack mid-run and
     * shared with the other workloads, whose compiled form depended on what ran before it.
     * Returns a count the JIT cannot drop.
     */
    private static long work(final Queue<Integer> q, final Workload w, final Integer element,
                             final boolean[] table, final int[] delays, final int ops) {
        final long[] state = new long[3]; // the mixed workloads' balance and poll count; the work's sink
        long polled = 0;
        for (int done = 0; done < ops; done += CHUNK) {
            final int n = Math.min(CHUNK, ops - done);
            if (delays != null) {
                // the papers' method: a separate loop, so the article's own loops stay as they are
                switch (w) {
                    case PAIR -> polled += pairsWithWork(q, element, delays, done, n, state);
                    case DEQUEUE_ONLY_EMPTY -> polled += pollEmpty(q, n);
                    default -> mixedWithWork(q, element, table, delays, done, n, state);
                }
                continue;
            }
            switch (w) {
                case DEQUEUE_ONLY_EMPTY -> polled += pollEmpty(q, n);
                case PAIR -> polled += pairs(q, element, n);
                default -> mixed(q, element, table, done, n, state); // EnqueueOnly: every draw offers
            }
        }
        return polled + state[0] + state[1] + state[2];
    }

    /** {@link #pairs} with the work after each offer and each poll; {@code state[2]} sinks it. */
    private static long pairsWithWork(final Queue<Integer> q, final Integer element, final int[] delays,
                                      final int from, final int n, final long[] state) {
        long polled = 0;
        long sink = state[2];
        for (int i = from, end = from + n; i < end; i++) {
            q.offer(element);
            sink = spend(sink, delays[(2 * i) & (TABLE - 1)]);
            if (q.poll() != null) {
                polled++;
            }
            sink = spend(sink, delays[(2 * i + 1) & (TABLE - 1)]);
        }
        state[2] = sink;
        return polled;
    }

    /** {@link #mixed} with the work after each operation; {@code state[2]} sinks it. */
    private static void mixedWithWork(final Queue<Integer> q, final Integer element, final boolean[] table,
                                      final int[] delays, final int from, final int n, final long[] state) {
        long balance = state[0];
        long polled = state[1];
        long sink = state[2];
        for (int i = from, end = from + n; i < end; i++) {
            if (table[i & (TABLE - 1)]) {
                if (q.offer(element)) {
                    if (++balance >= Queues.DRAIN_AT) {
                        while (balance > 0 && q.poll() != null) {
                            balance--;
                        }
                        balance = 0;
                    }
                } else if (q.poll() != null) { // a full bounded queue: make room
                    polled++;
                }
            } else if (q.poll() != null) {
                balance--;
                polled++;
            }
            sink = spend(sink, delays[i & (TABLE - 1)]);
        }
        state[0] = balance;
        state[1] = polled;
        state[2] = sink;
    }

    private static long pollEmpty(final Queue<Integer> q, final int n) {
        long polled = 0;
        for (int i = 0; i < n; i++) {
            if (q.poll() != null) {
                polled++;
            }
        }
        return polled;
    }

    private static long pairs(final Queue<Integer> q, final Integer element, final int n) {
        long polled = 0;
        for (int i = 0; i < n; i++) {
            q.offer(element);
            if (q.poll() != null) {
                polled++;
            }
        }
        return polled;
    }

    /** {@code state[0]}: own offers not yet polled back; {@code state[1]}: polls that gave an element. */
    private static void mixed(final Queue<Integer> q, final Integer element, final boolean[] table,
                              final int from, final int n, final long[] state) {
        long balance = state[0];
        long polled = state[1];
        for (int i = from, end = from + n; i < end; i++) {
            if (table[i & (TABLE - 1)]) {
                if (q.offer(element)) {
                    if (++balance >= Queues.DRAIN_AT) {
                        while (balance > 0 && q.poll() != null) {
                            balance--;
                        }
                        balance = 0;
                    }
                } else if (q.poll() != null) { // a full bounded queue: make room
                    polled++;
                }
            } else if (q.poll() != null) {
                balance--;
                polled++;
            }
        }
        state[0] = balance;
        state[1] = polled;
    }
}
