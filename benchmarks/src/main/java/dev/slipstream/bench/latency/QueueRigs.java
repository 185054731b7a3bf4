package dev.slipstream.bench.latency;

import dev.slipstream.bench.support.Threads;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.wait.QueueWait;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Latency rigs on {@link ArrayBlockingQueue}: one queue between each pair of threads, events
 * from a preallocated pool (large enough that none is reused while in flight).
 *
 * <pre>{@code
 * OneWayRig rig = new QueueRigs.OneWay("blocking", false, 65536);
 * }</pre>
 */
public final class QueueRigs {
    private QueueRigs() {
    }

    static final class OneWay implements OneWayRig {
        private final QueueWait mode;
        private final LatencySink sink = new LatencySink();
        private final BlockingQueue<ValueEvent> head;
        private final Thread[] threads;
        private final ValueEvent[] pool;
        private final int mask;
        private long produced;

        OneWay(final String wait, final boolean pipeline, final int capacity) {
            this.mode = QueueWait.of(wait);
            final int queues = pipeline ? 3 : 1;
            final int poolSize = Integer.highestOneBit(queues * (capacity + 2) + 8) << 1;
            pool = new ValueEvent[poolSize];
            for (int i = 0; i < poolSize; i++) {
                pool[i] = new ValueEvent();
            }
            mask = poolSize - 1;
            head = new ArrayBlockingQueue<>(capacity);
            if (pipeline) {
                final BlockingQueue<ValueEvent> q2 = new ArrayBlockingQueue<>(capacity);
                final BlockingQueue<ValueEvent> q3 = new ArrayBlockingQueue<>(capacity);
                threads = new Thread[] {
                    Threads.daemon(() -> loop(head, q2, 1), "abq-latency-0"),
                    Threads.daemon(() -> loop(q2, q3, 2), "abq-latency-1"),
                    Threads.daemon(() -> loop(q3, null, 0), "abq-latency-2"),
                };
            } else {
                threads = new Thread[] {Threads.daemon(() -> loop(head, null, 0), "abq-latency-0")};
            }
        }

        private void loop(final BlockingQueue<ValueEvent> in, final BlockingQueue<ValueEvent> out, final int stage) {
            try {
                while (true) {
                    final ValueEvent e = mode.take(in);
                    if (out == null) {
                        sink.record(e.value, e.intendedNanos);
                        continue;
                    }
                    if (stage == 1) {
                        e.a = e.value + 1;
                    } else {
                        e.b = e.a + 1;
                    }
                    mode.put(out, e);
                }
            } catch (InterruptedException stop) {
                // stop requested
            }
        }

        @Override
        public void start() {
            for (Thread t : threads) {
                t.start();
            }
        }

        @Override
        public void send(final long value, final long intendedNanos) {
            final ValueEvent e = pool[(int) (produced++) & mask];
            e.value = value;
            e.intendedNanos = intendedNanos;
            try {
                mode.put(head, e);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while sending", ex);
            }
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
            for (Thread t : threads) {
                t.interrupt();
            }
            Threads.joinAll(threads);
        }
    }

    static final class PingPong implements PingPongRig {
        private final QueueWait mode;
        private final BlockingQueue<ValueEvent> ping;
        private final BlockingQueue<ValueEvent> pong;
        private final Thread echo;
        private final ValueEvent[] pool = new ValueEvent[4];
        private long sent;

        PingPong(final String wait, final int capacity) {
            this.mode = QueueWait.of(wait);
            ping = new ArrayBlockingQueue<>(capacity);
            pong = new ArrayBlockingQueue<>(capacity);
            for (int i = 0; i < pool.length; i++) {
                pool[i] = new ValueEvent();
            }
            echo = Threads.daemon(this::echoLoop, "abq-pingpong-0");
        }

        private void echoLoop() {
            try {
                while (true) {
                    mode.put(pong, mode.take(ping));
                }
            } catch (InterruptedException stop) {
                // stop requested
            }
        }

        @Override
        public void start() {
            echo.start();
        }

        @Override
        public long roundTrip(final long value) {
            // one event in flight at a time, so a pool of four is never reused early
            final ValueEvent e = pool[(int) (sent++) & 3];
            e.value = value;
            try {
                mode.put(ping, e);
                return mode.take(pong).value;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during a round trip", ex);
            }
        }

        @Override
        public Thread[] stageThreads() {
            return new Thread[] {echo};
        }

        @Override
        public void close() {
            echo.interrupt();
            Threads.joinAll(echo);
        }
    }
}
