package dev.slipstream.bench.hotpath;

import dev.slipstream.bench.ring.LmaxRing;
import dev.slipstream.bench.ring.SlipstreamRing;
import dev.slipstream.bench.support.ValueEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The cost of the ring's hot path on one thread, without another thread to wait for: claim,
 * write, publish, then read the event back through a barrier and release the slot. With no
 * cross-core traffic and no waiting, the score is the instruction cost of each library's
 * publish and consume path, and it is far less sensitive to a noisy machine than the threaded
 * topologies: when Slipstream and LMAX differ in a threaded benchmark, this one says whether
 * the code path is the reason.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar HotPathBench -f 3
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(3)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HotPathBench {
    /** Events per invocation of the batched benchmarks. */
    public static final int BATCH = 64;

    /** One ring of each library, with a consumer sequence this same thread advances. */
    @State(Scope.Thread)
    public static class Rings {
        /** single (one producer) or multi (the multi-producer sequencer, used by one thread). */
        @Param({"single", "multi"})
        public String producers;

        /** The ring size. */
        @Param({"1024"})
        public int ringSize;

        dev.slipstream.ring.RingBuffer<ValueEvent> slip;
        dev.slipstream.sequence.SequenceBarrier slipBarrier;
        dev.slipstream.sequence.Sequence slipRead;
        com.lmax.disruptor.RingBuffer<ValueEvent> lmax;
        com.lmax.disruptor.SequenceBarrier lmaxBarrier;
        com.lmax.disruptor.Sequence lmaxRead;
        long value;

        /** Builds both rings with a yielding strategy (it never waits here: the event is published). */
        @Setup(Level.Trial)
        public void setUp() {
            final boolean multi = producers.equals("multi");
            slip = SlipstreamRing.INSTANCE.ring(multi, ringSize, "yielding");
            slipRead = new dev.slipstream.sequence.Sequence();
            slip.addGatingSequences(slipRead);
            slipBarrier = slip.newBarrier();
            lmax = LmaxRing.INSTANCE.ring(multi, ringSize, "yielding");
            lmaxRead = new com.lmax.disruptor.Sequence();
            lmax.addGatingSequences(lmaxRead);
            lmaxBarrier = lmax.newBarrier();
        }
    }

    /** Slipstream: claim one, write, publish, wait for it through the barrier, read, release. */
    @Benchmark
    public long slipstreamOne(final Rings r) throws Exception {
        final dev.slipstream.ring.RingBuffer<ValueEvent> ring = r.slip;
        final long seq = ring.next();
        ring.get(seq).value = ++r.value;
        ring.publish(seq);
        final long available = r.slipBarrier.waitFor(seq);
        final long v = ring.get(available).value;
        r.slipRead.set(available);
        return v;
    }

    /** LMAX: the same steps. */
    @Benchmark
    public long lmaxOne(final Rings r) throws Exception {
        final com.lmax.disruptor.RingBuffer<ValueEvent> ring = r.lmax;
        final long seq = ring.next();
        ring.get(seq).value = ++r.value;
        ring.publish(seq);
        final long available = r.lmaxBarrier.waitFor(seq);
        final long v = ring.get(available).value;
        r.lmaxRead.set(available);
        return v;
    }

    /** Slipstream: claim and publish {@value #BATCH} slots as one range, then read them back. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long slipstreamBatch(final Rings r) throws Exception {
        final dev.slipstream.ring.RingBuffer<ValueEvent> ring = r.slip;
        final long hi = ring.next(BATCH);
        final long lo = hi - BATCH + 1;
        for (long s = lo; s <= hi; s++) {
            ring.get(s).value = ++r.value;
        }
        ring.publish(lo, hi);
        final long available = r.slipBarrier.waitFor(lo);
        long sum = 0;
        for (long s = lo; s <= available; s++) {
            sum += ring.get(s).value;
        }
        r.slipRead.set(available);
        return sum;
    }

    /** LMAX: the same steps. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lmaxBatch(final Rings r) throws Exception {
        final com.lmax.disruptor.RingBuffer<ValueEvent> ring = r.lmax;
        final long hi = ring.next(BATCH);
        final long lo = hi - BATCH + 1;
        for (long s = lo; s <= hi; s++) {
            ring.get(s).value = ++r.value;
        }
        ring.publish(lo, hi);
        final long available = r.lmaxBarrier.waitFor(lo);
        long sum = 0;
        for (long s = lo; s <= available; s++) {
            sum += ring.get(s).value;
        }
        r.lmaxRead.set(available);
        return sum;
    }
}
