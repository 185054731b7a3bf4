package dev.slipstream.stress.wait;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Two threads bounce one event back and forth through two rings, each waiting with the
 * strategy under test: every wait is a real race between a waiter going to sleep and a
 * publisher signalling, thousands of times. A lost wake-up leaves both threads asleep, so the
 * round trips stop; the run reports how many completed before its time limit.
 */
final class PingPong {
    private static final class Slot {
        long value;
    }

    private PingPong() {
    }

    /**
     * Runs up to {@code roundTrips} round trips.
     *
     * @param strategies makes the wait strategy of each ring
     * @param limitNanos how long to wait for them
     * @return the number of completed round trips
     */
    static long run(final Supplier<WaitStrategy> strategies, final long roundTrips, final long limitNanos)
            throws InterruptedException {
        final RingBuffer<Slot> ping = RingBuffer.createSingleProducer(Slot::new, 64, strategies.get());
        final RingBuffer<Slot> pong = RingBuffer.createSingleProducer(Slot::new, 64, strategies.get());
        final Sequence pingRead = new Sequence();
        final Sequence pongRead = new Sequence();
        ping.addGatingSequences(pingRead);
        pong.addGatingSequences(pongRead);
        final SequenceBarrier pingBarrier = ping.newBarrier();
        final SequenceBarrier pongBarrier = pong.newBarrier();
        final Sequence completed = new Sequence(0);

        final Thread echo = new Thread(() -> {
            for (long i = 0; i < roundTrips; i++) {
                if (!await(pingBarrier, i)) {
                    return;
                }
                final long value = ping.get(i).value;
                pingRead.set(i);
                pong.publishEvent((slot, sequence, v) -> slot.value = v, value);
            }
        }, "echo");
        final Thread origin = new Thread(() -> {
            for (long i = 0; i < roundTrips; i++) {
                ping.publishEvent((slot, sequence, v) -> slot.value = v, i);
                if (!await(pongBarrier, i)) {
                    return;
                }
                if (pong.get(i).value != i) {
                    throw new IllegalStateException("round trip " + i + " came back as " + pong.get(i).value);
                }
                pongRead.set(i);
                completed.set(i + 1);
            }
        }, "origin");
        echo.setDaemon(true);
        origin.setDaemon(true);
        echo.start();
        origin.start();
        origin.join(TimeUnit.NANOSECONDS.toMillis(limitNanos));
        // a hang: wake both threads so they end, and report how far they got
        pingBarrier.alert();
        pongBarrier.alert();
        origin.join(TimeUnit.SECONDS.toMillis(10));
        echo.join(TimeUnit.SECONDS.toMillis(10));
        return completed.get();
    }

    /** Waits for {@code sequence}; false if alerted (the run gave up). */
    private static boolean await(final SequenceBarrier barrier, final long sequence) {
        try {
            while (barrier.waitFor(sequence) < sequence) {
                Thread.onSpinWait();
            }
            return true;
        } catch (AlertException stop) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (TimeoutException e) {
            throw new IllegalStateException("the strategies under test do not time out", e);
        }
    }
}
