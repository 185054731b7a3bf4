package dev.slipstream.bench.layout;

import dev.slipstream.sequence.Sequence;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Does padding matter? Two threads each increment their own counter with a volatile store
 * (a store and a full fence, which waits until the core owns the line: without the fence the
 * store buffer would batch the writes and hide the effect). In {@code padded} the counters are two
 * {@link Sequence}s (each on its own cache line); in {@code atomicPair} two {@link AtomicLong}s
 * allocated back to back; in {@code adjacentFields} two volatile fields of one object. Without
 * padding the line holding both counters moves between the two cores on every write.
 *
 * <p>The score of a group is the sum of both threads' increments per second. Where two
 * unpadded counters happen to straddle a line boundary (the JVM decides the addresses) a fork
 * shows no false sharing, so read the median of several forks.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar FalseSharingBench -f 3
 * }</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(3)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FalseSharingBench {
    /** Two padded sequences. */
    @State(Scope.Group)
    public static class PaddedPair {
        /** Written by thread A. */
        public Sequence a;
        /** Written by thread B. */
        public Sequence b;

        /** Allocates the two counters back to back. */
        @Setup
        public void setUp() {
            a = new Sequence(0);
            b = new Sequence(0);
        }
    }

    /** Two AtomicLongs allocated back to back: 24 bytes each, usually on one line. */
    @State(Scope.Group)
    public static class AtomicPair {
        /** Written by thread A. */
        public AtomicLong a;
        /** Written by thread B. */
        public AtomicLong b;

        /** Allocates the two counters back to back. */
        @Setup
        public void setUp() {
            a = new AtomicLong();
            b = new AtomicLong();
        }
    }

    /** Two volatile fields of one object, 8 bytes apart. */
    @State(Scope.Group)
    public static class AdjacentFields {
        /** Written by thread A. */
        public volatile long a;
        /** Written by thread B. */
        public volatile long b;
        /** Update handles for release stores. */
        static final java.lang.invoke.VarHandle A;
        static final java.lang.invoke.VarHandle B;

        static {
            try {
                final java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
                A = l.findVarHandle(AdjacentFields.class, "a", long.class);
                B = l.findVarHandle(AdjacentFields.class, "b", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

    }

    /** Thread A of the padded pair. */
    @Benchmark
    @Group("padded")
    @GroupThreads(1)
    public long paddedA(final PaddedPair s) {
        final long v = s.a.getPlain() + 1;
        s.a.setVolatile(v);
        return v;
    }

    /** Thread B of the padded pair. */
    @Benchmark
    @Group("padded")
    @GroupThreads(1)
    public long paddedB(final PaddedPair s) {
        final long v = s.b.getPlain() + 1;
        s.b.setVolatile(v);
        return v;
    }

    /** Thread A of the AtomicLong pair. */
    @Benchmark
    @Group("atomicPair")
    @GroupThreads(1)
    public long atomicA(final AtomicPair s) {
        final long v = s.a.getPlain() + 1;
        s.a.set(v);
        return v;
    }

    /** Thread B of the AtomicLong pair. */
    @Benchmark
    @Group("atomicPair")
    @GroupThreads(1)
    public long atomicB(final AtomicPair s) {
        final long v = s.b.getPlain() + 1;
        s.b.set(v);
        return v;
    }

    /** Thread A of the adjacent fields. */
    @Benchmark
    @Group("adjacentFields")
    @GroupThreads(1)
    public long adjacentA(final AdjacentFields s) {
        final long v = (long) AdjacentFields.A.get(s) + 1;
        AdjacentFields.A.setVolatile(s, v);
        return v;
    }

    /** Thread B of the adjacent fields. */
    @Benchmark
    @Group("adjacentFields")
    @GroupThreads(1)
    public long adjacentB(final AdjacentFields s) {
        final long v = (long) AdjacentFields.B.get(s) + 1;
        AdjacentFields.B.setVolatile(s, v);
        return v;
    }
}
