package dev.slipstream.examples.lscq;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.topology.QueueWorkerPool;
import dev.slipstream.topology.ShutdownResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A work pool fed by an unbounded lock-free queue: producer threads submit jobs and never block
 * (an {@link LscqQueue} never refuses an offer), and each job is handled by exactly one of the
 * pool's workers. Wake-up is biased: only worker 0 waits for new jobs, and a worker that finds
 * more than a batch waiting wakes the next one, so under a light load one warm thread does the
 * work and under a burst the pool fans out.
 *
 * <p>The run checks that every job was handled exactly once (a per-job counter) and that the
 * sum of the results is right, then prints how the jobs spread over the workers.
 *
 * <pre>
 * java -cp examples/target/examples.jar dev.slipstream.examples.lscq.LscqWorkPoolExample [jobs] [producers] [workers]
 * </pre>
 */
public final class LscqWorkPoolExample {
    /** A unit of work: an id and some input. Allocated per job: the queue carries references. */
    static final class Job {
        final int id;
        final long input;
        long output;

        Job(final int id, final long input) {
            this.id = id;
            this.input = input;
        }
    }

    /** One worker: computes the job's output and records that the job was done. One instance per worker. */
    static final class Worker implements EventHandler<Job> {
        private final AtomicIntegerArray handled;
        long jobs;
        long checksum;

        Worker(final AtomicIntegerArray handled) {
            this.handled = handled;
        }

        @Override
        public void onEvent(final Job job, final long sequence, final boolean endOfBatch) {
            job.output = work(job.input);
            checksum += job.output;
            jobs++;
            handled.incrementAndGet(job.id);
        }
    }

    /** What the run found. */
    record Summary(long jobs, long[] perWorker, long wakeUps, long elapsedNanos, boolean exactlyOnce,
                   boolean checksumOk, ShutdownResult shutdown) {
    }

    private LscqWorkPoolExample() {
    }

    static long work(final long input) {
        long x = input;
        for (int i = 0; i < 64; i++) {          // a little CPU per job
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /**
     * Runs the example.
     *
     * @param args optional: jobs (default 2,000,000), producer threads (default 2), workers (default 3)
     * @throws InterruptedException if interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        final int jobs = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 2_000_000;
        final int producers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        final int workers = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        final Summary s = run(jobs, producers, workers);
        System.out.printf("%,d jobs from %d producers to %d workers in %.2f s (%,.0f jobs/s)%n", s.jobs(),
                producers, workers, s.elapsedNanos() / 1e9, s.jobs() * 1e9 / s.elapsedNanos());
        for (int w = 0; w < s.perWorker().length; w++) {
            System.out.printf("  worker %d handled %,d%n", w, s.perWorker()[w]);
        }
        System.out.printf("workers woken %,d times; every job exactly once: %b; checksum ok: %b%n",
                s.wakeUps(), s.exactlyOnce(), s.checksumOk());
        System.out.println("shutdown clean (queue drained, workers ended): " + s.shutdown().isClean());
        System.exit(s.exactlyOnce() && s.checksumOk() && s.shutdown().isClean() ? 0 : 1);
    }

    static Summary run(final int jobs, final int producers, final int workerCount) throws InterruptedException {
        if (jobs < 1 || producers < 1 || workerCount < 1) {
            throw new IllegalArgumentException("jobs, producers and workers must be positive, got "
                    + jobs + ", " + producers + ", " + workerCount);
        }
        final AtomicIntegerArray handled = new AtomicIntegerArray(jobs);
        final Worker[] workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = new Worker(handled);
        }
        final QueueWorkerPool<Job> pool = QueueWorkerPool.builder(new LscqQueue<Job>())
                .handlers(workers)
                .name("jobs")
                .build();
        pool.start();

        final long start = System.nanoTime();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int first = p;
            final Thread producer = new Thread(() -> {
                for (int id = first; id < jobs; id += producers) {
                    pool.offer(new Job(id, id));          // never blocks, never refused
                }
            }, "producer-" + p);
            threads.add(producer);
            producer.start();
        }
        for (final Thread producer : threads) {
            producer.join();
        }
        final ShutdownResult shutdown = pool.shutdown(Duration.ofSeconds(30));   // drains the queue
        final long elapsed = System.nanoTime() - start;

        // the workers' threads have ended (shutdown joined them): their plain fields are visible
        boolean exactlyOnce = true;
        for (int id = 0; id < jobs; id++) {
            exactlyOnce &= handled.get(id) == 1;
        }
        long expected = 0;
        for (int id = 0; id < jobs; id++) {
            expected += work(id);
        }
        long checksum = 0;
        final long[] perWorker = new long[workerCount];
        for (int w = 0; w < workerCount; w++) {
            checksum += workers[w].checksum;
            perWorker[w] = workers[w].jobs;
        }
        return new Summary(jobs, perWorker, pool.wakeUps(), elapsed, exactlyOnce, checksum == expected, shutdown);
    }
}
