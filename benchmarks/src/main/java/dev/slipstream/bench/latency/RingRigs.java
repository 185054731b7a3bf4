package dev.slipstream.bench.latency;

import dev.slipstream.bench.ring.ProcessorThreads;
import dev.slipstream.bench.ring.RingLibrary;
import dev.slipstream.bench.support.ValueEvent;

import java.util.List;

/**
 * The latency rigs of the ring libraries, written once: a ring buffer, barriers and batch event
 * processors of whichever library the {@link RingLibrary} adapter gives, wired the same way for
 * each, so that two rigs differ only in the library underneath.
 *
 * <pre>{@code
 * OneWayRig rig = new RingRigs.OneWay<>(SlipstreamRing.INSTANCE, "blocking", true, 65536);
 * PingPongRig peer = new RingRigs.PingPong<>(LmaxRing.INSTANCE, "blocking", 65536);
 * }</pre>
 */
final class RingRigs {
    private RingRigs() {
    }

    /** What both rigs share: their processors and threads, listed, joined and stopped alike. */
    private abstract static class Staged<P extends Runnable> {
        final ProcessorThreads<P> stages;

        Staged(final RingLibrary<?, ?, ?, ?, P> lib) {
            stages = new ProcessorThreads<>(lib);
        }

        public Thread[] stageThreads() {
            return stages.threads();
        }

        public void close() {
            stages.stop();
        }
    }

    /** A one-way rig (see {@link Rigs#oneWay}): the recording stage, after two others in a pipeline. */
    static final class OneWay<R, B, S, H, P extends Runnable> extends Staged<P> implements OneWayRig {
        private final RingLibrary<R, B, S, H, P> lib;
        private final R ring;
        private final LatencySink sink = new LatencySink();

        OneWay(final RingLibrary<R, B, S, H, P> lib, final String wait, final boolean pipeline, final int ringSize) {
            super(lib);
            this.lib = lib;
            ring = lib.ring(false, ringSize, wait);
            B barrier = lib.barrier(ring, List.of());
            if (pipeline) {
                final P a = stages.add(lib.processor(ring, barrier, lib.passA()));
                final P b = stages.add(lib.processor(ring, lib.barrier(ring, List.of(lib.sequenceOf(a))), lib.passB()));
                barrier = lib.barrier(ring, List.of(lib.sequenceOf(b)));
            }
            final P last = stages.add(lib.processor(ring, barrier, lib.record(sink)));
            lib.gate(ring, lib.sequenceOf(last));
        }

        @Override
        public void start() {
            stages.start("latency");
        }

        @Override
        public void send(final long value, final long intendedNanos) {
            final long seq = lib.next(ring);
            final ValueEvent e = lib.get(ring, seq);
            e.value = value;
            e.intendedNanos = intendedNanos;
            lib.publish(ring, seq);
        }

        @Override
        public LatencySink sink() {
            return sink;
        }

    }

    /** A ping-pong rig (see {@link Rigs#pingPong}): a stage echoes each ping into a second ring. */
    static final class PingPong<R, B, S, H, P extends Runnable> extends Staged<P> implements PingPongRig {
        private final RingLibrary<R, B, S, H, P> lib;
        private final R ping;
        private final R pong;
        private final B pongBarrier;
        private final S pongRead;
        private long next;

        PingPong(final RingLibrary<R, B, S, H, P> lib, final String wait, final int ringSize) {
            super(lib);
            this.lib = lib;
            ping = lib.ring(false, ringSize, wait);
            pong = lib.ring(false, ringSize, wait);
            final P echo = stages.add(lib.processor(ping, lib.barrier(ping, List.of()), lib.echo(pong)));
            lib.gate(ping, lib.sequenceOf(echo));
            pongBarrier = lib.barrier(pong, List.of());
            pongRead = lib.newSequence();
            lib.gate(pong, pongRead);
        }

        @Override
        public void start() {
            stages.start("pingpong");
        }

        @Override
        public long roundTrip(final long value) {
            final long seq = lib.next(ping);
            lib.get(ping, seq).value = value;
            lib.publish(ping, seq);
            final long want = next++;
            try {
                lib.waitFor(pongBarrier, want);
            } catch (Exception e) {
                throw new IllegalStateException("waiting for the echo failed", e);
            }
            final long echoed = lib.get(pong, want).value;
            lib.set(pongRead, want);
            return echoed;
        }

    }
}
