package dev.slipstream.bench.hotpath;

import dev.slipstream.bench.ring.LmaxRing;
import dev.slipstream.bench.ring.SlipstreamRing;
import dev.slipstream.bench.support.ValueEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The single producer's path alone: claim, write three fields, publish, {@value #BATCH} events per
 * invocation, on a ring with no consumer (no gating sequence, so a claim never waits). One thread
 * and no cache line shared with another core: the score is the cost of each library's producer
 * path per event, the part of a continuous stream that the producer pays whatever the consumer
 * does. Each library's loop lives in its own class, so each is compiled as a user's loop would be.
 *
 * <pre>{@code
 * benchmarks/scripts/interleaved.sh 10 ProducerPathBench - \
 *     lmax=benchmarks/target/benchmarks.jar:lmax slipstream=benchmarks/target/benchmarks.jar:slipstream
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(3)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@State(Scope.Thread)
public class ProducerPathBench {
    /** Events per invocation. */
    public static final int BATCH = 1024;

    /** slipstream or lmax. */
    @Param({"slipstream", "lmax"})
    public String impl;

    /** The ring size: 65536, as in the continuous stream, holds more events than the L2 cache. */
    @Param({"65536"})
    public int ringSize;

    private Producer producer;

    /** Builds the ring of the chosen library. */
    @Setup
    public void setUp() {
        producer = switch (impl) {
            case "slipstream" -> new SlipstreamProducer(ringSize);
            case "lmax" -> new LmaxProducer(ringSize);
            default -> throw new IllegalArgumentException("impl must be slipstream or lmax, got " + impl);
        };
    }

    /** Publishes {@value #BATCH} events one at a time. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long publish() {
        return producer.publish(BATCH);
    }

    /** One library's producer loop. */
    interface Producer {
        long publish(int events);
    }

    private static final class SlipstreamProducer implements Producer {
        private final dev.slipstream.ring.RingBuffer<ValueEvent> ring;
        private long value;

        SlipstreamProducer(final int ringSize) {
            ring = SlipstreamRing.INSTANCE.ring(false, ringSize, "yielding");
        }

        @Override
        public long publish(final int events) {
            long seq = -1;
            for (int i = 0; i < events; i++) {
                seq = ring.next();
                final ValueEvent e = ring.get(seq);
                e.value = ++value;
                e.a = seq;
                e.b = i;
                ring.publish(seq);
            }
            return seq;
        }
    }

    private static final class LmaxProducer implements Producer {
        private final com.lmax.disruptor.RingBuffer<ValueEvent> ring;
        private long value;

        LmaxProducer(final int ringSize) {
            ring = LmaxRing.INSTANCE.ring(false, ringSize, "yielding");
        }

        @Override
        public long publish(final int events) {
            long seq = -1;
            for (int i = 0; i < events; i++) {
                seq = ring.next();
                final ValueEvent e = ring.get(seq);
                e.value = ++value;
                e.a = seq;
                e.b = i;
                ring.publish(seq);
            }
            return seq;
        }
    }
}
