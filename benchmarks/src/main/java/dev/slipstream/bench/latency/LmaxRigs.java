package dev.slipstream.bench.latency;

import com.lmax.disruptor.BatchEventProcessor;
import com.lmax.disruptor.BatchEventProcessorBuilder;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.wait.LmaxWaits;

import java.util.ArrayList;
import java.util.List;

/**
 * Latency rigs on LMAX Disruptor 4.0.0 (ring buffer, barriers and batch event processors).
 *
 * <pre>{@code
 * OneWayRig rig = LmaxRigs.oneWay("blocking", true, 65536);
 * }</pre>
 */
public final class LmaxRigs {
    private LmaxRigs() {
    }

    /**
     * A one-way rig.
     *
     * @param wait the wait strategy name
     * @param pipeline three stages (true) or one (false)
     * @param ringSize the ring size
     * @return the rig, not started
     */
    public static OneWayRig oneWay(final String wait, final boolean pipeline, final int ringSize) {
        return new OneWay(wait, pipeline, ringSize);
    }

    /**
     * A ping-pong rig.
     *
     * @param wait the wait strategy of both rings
     * @param ringSize the size of both rings
     * @return the rig, not started
     */
    public static PingPongRig pingPong(final String wait, final int ringSize) {
        return new PingPong(wait, ringSize);
    }

    private static Thread[] start(final List<BatchEventProcessor<ValueEvent>> processors, final String name) {
        final Thread[] threads = new Thread[processors.size()];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(processors.get(i), name + "-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        return threads;
    }

    private static void stop(final List<BatchEventProcessor<ValueEvent>> processors, final Thread[] threads) {
        for (BatchEventProcessor<ValueEvent> p : processors) {
            p.halt();
        }
        Rigs.joinAll(threads);
    }

    private static final class OneWay implements OneWayRig {
        private final RingBuffer<ValueEvent> ring;
        private final LatencySink sink = new LatencySink();
        private final List<BatchEventProcessor<ValueEvent>> processors = new ArrayList<>();
        private Thread[] threads = new Thread[0];

        OneWay(final String wait, final boolean pipeline, final int ringSize) {
            ring = RingBuffer.createSingleProducer(ValueEvent::new, ringSize, LmaxWaits.create(wait));
            final BatchEventProcessorBuilder b = new BatchEventProcessorBuilder();
            SequenceBarrier barrier = ring.newBarrier();
            if (pipeline) {
                final BatchEventProcessor<ValueEvent> a = b.build(ring, barrier, new PassA());
                final BatchEventProcessor<ValueEvent> bb = b.build(ring, ring.newBarrier(a.getSequence()), new PassB());
                processors.add(a);
                processors.add(bb);
                barrier = ring.newBarrier(bb.getSequence());
            }
            final BatchEventProcessor<ValueEvent> last = b.build(ring, barrier, new Record(sink));
            processors.add(last);
            ring.addGatingSequences(last.getSequence());
        }

        @Override
        public void start() {
            threads = LmaxRigs.start(processors, "lmax-latency");
        }

        @Override
        public void send(final long value, final long intendedNanos) {
            final long seq = ring.next();
            final ValueEvent e = ring.get(seq);
            e.value = value;
            e.intendedNanos = intendedNanos;
            ring.publish(seq);
        }

        @Override
        public LatencySink sink() {
            return sink;
        }

        @Override
        public Thread[] stageThreads() {
            return threads.clone();
        }

        @Override
        public void close() {
            stop(processors, threads);
        }
    }

    private static final class PingPong implements PingPongRig {
        private final RingBuffer<ValueEvent> ping;
        private final RingBuffer<ValueEvent> pong;
        private final SequenceBarrier pongBarrier;
        private final Sequence pongRead = new Sequence();
        private final List<BatchEventProcessor<ValueEvent>> processors = new ArrayList<>();
        private Thread[] threads = new Thread[0];
        private long next;

        PingPong(final String wait, final int ringSize) {
            ping = RingBuffer.createSingleProducer(ValueEvent::new, ringSize, LmaxWaits.create(wait));
            pong = RingBuffer.createSingleProducer(ValueEvent::new, ringSize, LmaxWaits.create(wait));
            final BatchEventProcessor<ValueEvent> echo =
                    new BatchEventProcessorBuilder().build(ping, ping.newBarrier(), new Echo(pong));
            ping.addGatingSequences(echo.getSequence());
            processors.add(echo);
            pongBarrier = pong.newBarrier();
            pong.addGatingSequences(pongRead);
        }

        @Override
        public void start() {
            threads = LmaxRigs.start(processors, "lmax-pingpong");
        }

        @Override
        public long roundTrip(final long value) {
            final long seq = ping.next();
            ping.get(seq).value = value;
            ping.publish(seq);
            final long want = next++;
            try {
                pongBarrier.waitFor(want);
            } catch (Exception e) {
                throw new IllegalStateException("waiting for the echo failed", e);
            }
            final long echoed = pong.get(want).value;
            pongRead.set(want);
            return echoed;
        }

        @Override
        public Thread[] stageThreads() {
            return threads.clone();
        }

        @Override
        public void close() {
            stop(processors, threads);
        }
    }

    /** Pipeline stage A: a trivial transformation, so the stage touches the event. */
    static final class PassA implements EventHandler<ValueEvent> {
        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.a = event.value + 1;
        }
    }

    /** Pipeline stage B. */
    static final class PassB implements EventHandler<ValueEvent> {
        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            event.b = event.a + 1;
        }
    }

    /** The recording stage. */
    static final class Record implements EventHandler<ValueEvent> {
        private final LatencySink sink;

        Record(final LatencySink sink) {
            this.sink = sink;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            sink.record(event.value, event.intendedNanos);
        }
    }

    /** Echoes each ping into the pong ring. */
    static final class Echo implements EventHandler<ValueEvent> {
        private final RingBuffer<ValueEvent> out;

        Echo(final RingBuffer<ValueEvent> out) {
            this.out = out;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            final long seq = out.next();
            out.get(seq).value = event.value;
            out.publish(seq);
        }
    }
}
