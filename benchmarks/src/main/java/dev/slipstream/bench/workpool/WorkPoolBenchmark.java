package dev.slipstream.bench.workpool;

import dev.slipstream.bench.support.CommandLine;
import dev.slipstream.bench.support.Threads;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.topology.QueueWorkerPool;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.topology.WakePolicy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Work-pool benchmark: one producer, a pool of workers that each spend a few hundred nanoseconds
 * hashing per event, and four ways to run the pool:
 *
 * <ul>
 *   <li>{@code naive}: a {@link ThreadPoolExecutor} over an {@link ArrayBlockingQueue}, one
 *       {@code Runnable} per event, the producer blocking when the queue is full;</li>
 *   <li>{@code biased}: a Slipstream ring with a work-pool stage, {@link WakePolicy#BIASED};</li>
 *   <li>{@code unbiased}: the same with {@link WakePolicy#UNBIASED};</li>
 *   <li>{@code queue-biased}: a {@link QueueWorkerPool} over a {@link ConcurrentLinkedQueue}.</li>
 * </ul>
 *
 * <p>Each run reports throughput and the context switches (voluntary + involuntary, from
 * {@code /proc/self/task/*}{@code /status}) per million events, of the worker threads, of the
 * producer thread and of the whole process. Three load shapes: {@code max} (the producer publishes
 * as fast as the pool accepts), {@code steady} (one event every {@code 1/rate} s, the producer
 * spinning between sends) and {@code bursty} (the same rate in bursts, the producer parking about
 * 100 us between them). In the paced shapes every peer keeps up, so throughput is equal and only
 * the cost of waiting differs. Peers run interleaved, each repetition in a fresh pool; the median
 * of the repetitions is reported.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.workpool.WorkPoolBenchmark \
 *      --workers 4 --events 2000000 --paced-events 1000000 --paced-rate 500000 --repetitions 7
 * </pre>
 */
public final class WorkPoolBenchmark {
    private WorkPoolBenchmark() {
    }

    /** Options, from {@code --name value} arguments. */
    static final class Options {
        int workers = 4;
        long events = 2_000_000;
        long pacedEvents = 1_000_000;
        long pacedRate = 500_000;
        int repetitions = 7;
        int warmups = 2;
        int workRounds = 150;
        int ringSize = 4096;
        int batchSize = 32;
        String waitStrategy = "hybrid";
        List<String> peers = List.of("naive", "biased", "unbiased", "queue-biased");
        List<String> shapes = List.of("max", "steady", "bursty");

        static Options parse(final String[] args) {
            final Options o = new Options();
            CommandLine.parse(args, Set.of("workers", "events", "paced-events", "paced-rate", "repetitions", "warmups",
                    "work-rounds", "ring-size", "batch-size", "wait", "peers", "shapes")).forEach((name, value) -> {
                        switch (name) {
                            case "workers" -> o.workers = Integer.parseInt(value);
                            case "events" -> o.events = Long.parseLong(value);
                            case "paced-events" -> o.pacedEvents = Long.parseLong(value);
                            case "paced-rate" -> o.pacedRate = Long.parseLong(value);
                            case "repetitions" -> o.repetitions = Integer.parseInt(value);
                            case "warmups" -> o.warmups = Integer.parseInt(value);
                            case "work-rounds" -> o.workRounds = Integer.parseInt(value);
                            case "ring-size" -> o.ringSize = Integer.parseInt(value);
                            case "batch-size" -> o.batchSize = Integer.parseInt(value);
                            case "wait" -> o.waitStrategy = value;
                            case "peers" -> o.peers = List.of(value.split(","));
                            default -> o.shapes = List.of(value.split(","));
                        }
                    });
            return o;
        }

        WaitStrategy newWaitStrategy() {
            return switch (waitStrategy) {
                case "hybrid" -> new HybridWaitStrategy();
                case "blocking" -> new BlockingWaitStrategy();
                case "yielding" -> new YieldingWaitStrategy();
                default -> throw new IllegalArgumentException("--wait must be hybrid, blocking or yielding, got " + waitStrategy);
            };
        }
    }

    /** The work per event: {@code rounds} rounds of a 64-bit mix, a few nanoseconds each. */
    static long work(final long seed, final int rounds) {
        long h = seed;
        for (int i = 0; i < rounds; i++) {
            h ^= h >>> 33;
            h *= 0xFF51AFD7ED558CCDL;
            h ^= h >>> 29;
            h += i;
        }
        return h;
    }

    /** Keeps the work's result alive without sharing a hot line: rarely true. */
    static final LongAdder SINK = new LongAdder();

    /** A running pool under test: accepts events, says when all are done, stops. */
    interface Pool {
        void publish(long value);

        boolean allDone(long events);

        void stop();
    }

    /** The ring event. */
    static final class Job {
        long value;
    }

    /** A ring work-pool worker. */
    static final class RingWorker implements EventHandler<Job> {
        private final int rounds;

        RingWorker(final int rounds) {
            this.rounds = rounds;
        }

        @Override
        public void onEvent(final Job job, final long sequence, final boolean endOfBatch) {
            if (work(job.value, rounds) == 42) {
                SINK.increment();
            }
        }
    }

    static Pool ringPool(final Options o, final String name, final WakePolicy policy) {
        final Slipstream<Job> pipeline = Slipstream.builder(Job::new).name(name).ringSize(o.ringSize)
                .producers(ProducerType.SINGLE).waitStrategy(o.newWaitStrategy())
                .threadFactory(Threads::daemon).build();
        final RingWorker[] workers = new RingWorker[o.workers];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new RingWorker(o.workRounds);
        }
        pipeline.handleEventsWith(StageSpec.workerPool("w", workers).wakePolicy(policy).maxBatchSize(o.batchSize));
        pipeline.start();
        final var stage = pipeline.stage("w").metrics();
        return new Pool() {
            @Override
            public void publish(final long value) {
                pipeline.publishEvent((job, sequence, v) -> job.value = v, value);
            }

            @Override
            public boolean allDone(final long events) {
                return stage.sequence() >= events - 1;
            }

            @Override
            public void stop() {
                pipeline.shutdown(Duration.ofSeconds(30)).requireClean();
            }
        };
    }

    static Pool naivePool(final Options o, final String name) {
        final LongAdder done = new LongAdder();
        final int[] next = {0};
        final ThreadPoolExecutor executor = new ThreadPoolExecutor(o.workers, o.workers, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(o.ringSize), r -> Threads.daemon(r, name + "-w-" + next[0]++),
                (task, pool) -> {
                    // the queue is full: block the producer until there is room, like a full ring
                    try {
                        pool.getQueue().put(task);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        executor.prestartAllCoreThreads();
        final int rounds = o.workRounds;
        return new Pool() {
            @Override
            public void publish(final long value) {
                executor.execute(() -> {
                    if (work(value, rounds) == 42) {
                        SINK.increment();
                    }
                    done.increment();
                });
            }

            @Override
            public boolean allDone(final long events) {
                return done.sum() >= events;
            }

            @Override
            public void stop() {
                executor.shutdown();
                try {
                    executor.awaitTermination(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    static Pool queuePool(final Options o, final String name) {
        final QueueWorker[] workers = new QueueWorker[o.workers];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new QueueWorker(o.workRounds);
        }
        final QueueWorkerPool<Long> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Long>())
                .handlers(workers).name(name + "-w").batchSize(o.batchSize).threadFactory(Threads::daemon).build();
        pool.start();
        return new Pool() {
            @Override
            public void publish(final long value) {
                pool.offer(value);
            }

            @Override
            public boolean allDone(final long events) {
                return pool.eventsProcessed() >= events;
            }

            @Override
            public void stop() {
                pool.shutdown(Duration.ofSeconds(30)).requireClean();
            }
        };
    }

    /** A queue-fed worker. */
    static final class QueueWorker implements EventHandler<Long> {
        private final int rounds;

        QueueWorker(final int rounds) {
            this.rounds = rounds;
        }

        @Override
        public void onEvent(final Long value, final long sequence, final boolean endOfBatch) {
            if (work(value, rounds) == 42) {
                SINK.increment();
            }
        }
    }

    /** One measured run: switches of the worker threads, of the producer thread, and of the whole process. */
    record Run(double seconds, long events, ContextSwitches.Delta workers, ContextSwitches.Delta producer,
               ContextSwitches.Delta process) {
        double eventsPerSecond() {
            return events / seconds;
        }

        double perMillion(final long count) {
            return count * 1e6 / events;
        }
    }

    /** Runs one peer once: a fresh pool, a producer thread, counts taken while every thread is alive. */
    static Run runOnce(final Options o, final String peer, final String shape) throws InterruptedException {
        final String prefix = switch (peer) {
            case "naive" -> "n";
            case "biased" -> "b";
            case "unbiased" -> "u";
            case "queue-biased" -> "q";
            default -> throw new IllegalArgumentException("unknown peer " + peer
                    + "; known: naive, biased, unbiased, queue-biased");
        };
        final Pool pool = switch (peer) {
            case "naive" -> naivePool(o, prefix);
            case "biased" -> ringPool(o, prefix, WakePolicy.BIASED);
            case "unbiased" -> ringPool(o, prefix, WakePolicy.UNBIASED);
            default -> queuePool(o, prefix);
        };
        final boolean paced = !shape.equals("max");
        final long events = paced ? o.pacedEvents : o.events;
        final AtomicReference<Run> result = new AtomicReference<>();
        final Thread producer = new Thread(() -> {
            final Map<String, ContextSwitches.ThreadCounts> before = ContextSwitches.snapshot();
            final long start = System.nanoTime();
            switch (shape) {
                case "max" -> {
                    for (long i = 0; i < events; i++) {
                        pool.publish(i);
                    }
                }
                case "steady" -> publishSteady(pool, events, o.pacedRate, start);
                case "bursty" -> publishBursty(pool, events, o.pacedRate, start);
                default -> throw new IllegalArgumentException("--shapes takes max, steady, bursty; got " + shape);
            }
            awaitQuietly(() -> pool.allDone(events));
            final long end = System.nanoTime();
            final Map<String, ContextSwitches.ThreadCounts> after = ContextSwitches.snapshot();
            result.set(new Run((end - start) / 1e9, events,
                    ContextSwitches.between(before, after, prefix + "-"),
                    ContextSwitches.between(before, after, prefix + "p"),
                    ContextSwitches.between(before, after)));
        }, prefix + "p");
        producer.start();
        producer.join();
        pool.stop();
        return result.get();
    }

    /** One event every {@code 1/rate} seconds; the producer spins between sends, like a feed on its own core. */
    private static void publishSteady(final Pool pool, final long events, final long rate, final long start) {
        final double interval = 1e9 / rate;
        for (long i = 0; i < events; i++) {
            final long due = start + (long) (i * interval);
            while (System.nanoTime() - due < 0) {
                Thread.onSpinWait();
            }
            pool.publish(i);
        }
    }

    /** Publishes at {@code rate} events per second in bursts, parking about 100 microseconds in between. */
    private static void publishBursty(final Pool pool, final long events, final long rate, final long start) {
        final double perNano = rate / 1e9;
        long published = 0;
        while (published < events) {
            final long due = Math.min(events, (long) ((System.nanoTime() - start) * perNano) + 1);
            while (published < due) {
                pool.publish(published++);
            }
            LockSupport.parkNanos(100_000L);
        }
    }

    /** Waits for the pool to finish, parking (these few switches count for every peer alike). */
    private static void awaitQuietly(final BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            LockSupport.parkNanos(200_000L);
        }
    }

    static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * Runs the benchmark and prints a table per load shape.
     *
     * @param args options, see {@link Options}
     * @throws InterruptedException if interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        final Options o = Options.parse(args);
        if (!ContextSwitches.available()) {
            throw new IllegalStateException("this benchmark reads /proc/self/task: it needs Linux");
        }
        final long workStart = System.nanoTime();
        long h = 0;
        for (int i = 0; i < 1_000_000; i++) {
            h += work(i, o.workRounds);
        }
        final double workNanos = (System.nanoTime() - workStart) / 1e6;
        System.out.printf(Locale.ROOT, "work per event: %d rounds = %.0f ns (single thread)%s%n", o.workRounds,
                workNanos, h == 42 ? " " : "");
        System.out.printf(Locale.ROOT, "workers %d, ring/queue %d, batch %d, wait %s, %d available processors, %s %s%n",
                o.workers, o.ringSize, o.batchSize, o.waitStrategy, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"));
        for (final String shape : o.shapes) {
            final Map<String, List<Run>> runs = new LinkedHashMap<>();
            for (final String peer : o.peers) {
                runs.put(peer, new ArrayList<>());
            }
            for (int rep = 0; rep < o.warmups + o.repetitions; rep++) {
                for (final String peer : o.peers) {
                    final Run run = runOnce(o, peer, shape);
                    if (rep >= o.warmups) {
                        runs.get(peer).add(run);
                        System.out.printf(Locale.ROOT,
                                "RUN shape=%s peer=%s rep=%d events/s=%.0f workerCs/M=%.0f (vol %d, invol %d)"
                                        + " producerCs/M=%.0f processCs/M=%.0f%n",
                                shape, peer, rep - o.warmups, run.eventsPerSecond(),
                                run.perMillion(run.workers().total()), run.workers().voluntary(),
                                run.workers().involuntary(), run.perMillion(run.producer().total()),
                                run.perMillion(run.process().total()));
                    }
                }
            }
            printTable(shape, o, runs);
        }
    }

    private static void printTable(final String shape, final Options o, final Map<String, List<Run>> runs) {
        System.out.printf(Locale.ROOT, "%n== %s load (%s), median of %d ==%n", shape,
                shape.equals("max") ? "as fast as accepted" : o.pacedRate + " events/s offered", o.repetitions);
        System.out.printf(Locale.ROOT, "%-13s %12s %16s %11s %11s %14s %14s%n", "peer", "events/s",
                "worker cs / M", "voluntary", "involuntary", "producer cs/M", "process cs/M");
        final Map<String, double[]> medians = new LinkedHashMap<>();
        for (final Map.Entry<String, List<Run>> entry : runs.entrySet()) {
            final List<Run> list = entry.getValue();
            final double throughput = median(list.stream().mapToDouble(Run::eventsPerSecond).toArray());
            final double workers = median(list.stream().mapToDouble(r -> r.perMillion(r.workers().total())).toArray());
            final double vol = median(list.stream().mapToDouble(r -> r.perMillion(r.workers().voluntary())).toArray());
            final double invol = median(list.stream().mapToDouble(r -> r.perMillion(r.workers().involuntary())).toArray());
            final double producer = median(list.stream().mapToDouble(r -> r.perMillion(r.producer().total())).toArray());
            final double process = median(list.stream().mapToDouble(r -> r.perMillion(r.process().total())).toArray());
            medians.put(entry.getKey(), new double[] {throughput, workers, workers + producer});
            System.out.printf(Locale.ROOT, "%-13s %,12.0f %,16.0f %,11.0f %,11.0f %,14.0f %,14.0f%n", entry.getKey(),
                    throughput, workers, vol, invol, producer, process);
        }
        final double[] naive = medians.get("naive");
        if (naive != null) {
            for (final Map.Entry<String, double[]> entry : medians.entrySet()) {
                if (!entry.getKey().equals("naive")) {
                    final double[] m = entry.getValue();
                    System.out.printf(Locale.ROOT, "RATIO shape=%s peer=%s throughput_vs_naive=%.2f"
                                    + " worker_cs_naive_over_peer=%.1f worker_and_producer_cs_naive_over_peer=%.1f%n",
                            shape, entry.getKey(), m[0] / naive[0], naive[1] / Math.max(1e-9, m[1]),
                            naive[2] / Math.max(1e-9, m[2]));
                }
            }
        }
    }
}
