package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.wait.YieldingWaitStrategy;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * A receiver restarted mid-stream, and publishers restarted with and without resuming their
 * numbering: every discontinuity reaches the listener and the metrics. The receivers run as
 * agents, polled by the test thread.
 */
class GapDetectionTest {
    private EmbeddedAeron media;
    private final TestEvent event = new TestEvent();

    @BeforeEach
    void startDriver() {
        media = new EmbeddedAeron();
    }

    @AfterEach
    void stopDriver() {
        media.close();
    }

    /** Remembers every callback. */
    static final class Recorder implements InboundListener {
        final List<long[]> gaps = new CopyOnWriteArrayList<>();
        final List<Integer> available = new CopyOnWriteArrayList<>();
        final List<Integer> unavailable = new CopyOnWriteArrayList<>();

        @Override
        public void onGap(final int sessionId, final long expectedSequence, final long receivedSequence) {
            gaps.add(new long[] {sessionId, expectedSequence, receivedSequence});
        }

        @Override
        public void onImageAvailable(final Image image) {
            available.add(image.sessionId());
        }

        @Override
        public void onImageUnavailable(final Image image) {
            unavailable.add(image.sessionId());
        }
    }

    /** A ring whose consumer is the test itself: it drains by moving the gating sequence. */
    private static final class Sink {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 1024,
                new YieldingWaitStrategy());
        final Sequence consumed = new Sequence();
        long nextNumber = -1;
        long count;

        Sink() {
            ring.addGatingSequences(consumed);
        }

        /** Reads everything published, returning the numbers in order. */
        void drain(final List<Long> numbers) {
            final long cursor = ring.getCursor();
            for (long s = consumed.get() + 1; s <= cursor; s++) {
                numbers.add(ring.get(s).number);
                count++;
            }
            consumed.set(cursor);
        }
    }

    private static String channel(final String kind) {
        return kind.equals("udp") ? EmbeddedAeron.udpChannel() : kind;
    }

    private void send(final AeronOutbound<TestEvent> outbound, final long from, final long to) {
        for (long n = from; n < to; n++) {
            event.producer = 0;
            event.number = n;
            event.value = TestEvent.valueOf(0, n);
            event.filler = 0;
            outbound.onEvent(event, n, true);
        }
    }

    private static void pollUntil(final AeronInbound<?> inbound, final Sink sink, final List<Long> numbers,
                                  final BooleanSupplier done) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out; received " + numbers.size() + ", metrics " + inbound.metrics());
            }
            if (inbound.doWork() == 0) {
                Thread.yield();
            }
            sink.drain(numbers);
        }
    }

    private static void awaitConnected(final ExclusivePublication publication, final AeronInbound<?> inbound) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!publication.isConnected() || inbound.subscription().imageCount() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("publication never connected");
            }
            inbound.doWork();
            Thread.yield();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"aeron:ipc", "udp"})
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void receiverRestartedMidStreamReportsWhatItMissed(final String kind) {
        final String channel = channel(kind);
        final ExclusivePublication publication = media.aeron.addExclusivePublication(channel, 3);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();

        // first receiver: takes 0..149 into its ring, but its application had processed only
        // 0..99 when the process died (the rest died with the ring)
        final Recorder first = new Recorder();
        final Sink sink1 = new Sink();
        final List<Long> got1 = new CopyOnWriteArrayList<>();
        final AeronInbound<TestEvent> receiver1 = AeronInbound.builder(media.aeron, channel, 3, sink1.ring,
                TestEvent.DECODER).listener(first).build();
        awaitConnected(publication, receiver1);
        send(outbound, 0, 150);
        pollUntil(receiver1, sink1, got1, () -> got1.size() == 150);
        receiver1.onClose();
        final long lastProcessed = got1.get(99);
        assertEquals(99, lastProcessed);

        // second receiver, resuming after what the first one processed
        final Recorder second = new Recorder();
        final Sink sink2 = new Sink();
        final List<Long> got2 = new CopyOnWriteArrayList<>();
        final AeronInbound<TestEvent> receiver2 = AeronInbound.builder(media.aeron, channel, 3, sink2.ring,
                TestEvent.DECODER).listener(second).expectFirstSequence(lastProcessed + 1).build();
        awaitConnected(publication, receiver2);
        send(outbound, 150, 200);
        pollUntil(receiver2, sink2, got2, () -> !got2.isEmpty() && got2.get(got2.size() - 1) == 199);
        receiver2.onClose();

        // Where a new subscriber joins is Aeron's choice: usually where the stream is now (150),
        // but an IPC subscriber can join at an older position the driver still holds as the
        // consumers' (it then sees 0.. again). Either way it is not where this receiver must
        // resume (100), and the bridge must say so exactly.
        final long firstSeen = got2.get(0);
        assertTrue(firstSeen != 100, "the restarted receiver could not resume exactly at 100");
        assertEquals(1, second.gaps.size(), "one gap reported");
        assertEquals(100, second.gaps.get(0)[1], "expected sequence");
        assertEquals(firstSeen, second.gaps.get(0)[2], "received sequence");
        assertEquals(publication.sessionId(), (int) second.gaps.get(0)[0]);
        assertEquals(1, receiver2.metrics().gaps());
        assertEquals(Math.max(0, firstSeen - 100), receiver2.metrics().missingMessages());
        assertEquals(firstSeen < 100 ? 1 : 0, receiver2.metrics().sequenceResets());
        for (int i = 0; i < got2.size(); i++) {
            assertEquals(firstSeen + i, got2.get(i), "after the gap the stream is contiguous");
        }
        assertTrue(first.gaps.isEmpty(), "the first receiver saw no gap");
        assertEquals(1, second.available.size(), "the second receiver was told about the image");
        publication.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"aeron:ipc", "udp"})
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void publisherRestartedAsANewSessionIsReportedUnlessItResumesItsNumbering(final String kind) {
        final String channel = channel(kind);
        final Recorder recorder = new Recorder();
        final Sink sink = new Sink();
        final List<Long> got = new CopyOnWriteArrayList<>();
        final AeronInbound<TestEvent> receiver = AeronInbound.builder(media.aeron, channel, 4, sink.ring,
                TestEvent.DECODER).listener(recorder).build();

        // session 1 sends 0..49 and goes away
        final ExclusivePublication p1 = media.aeron.addExclusivePublication(channel, 4);
        awaitConnected(p1, receiver);
        send(AeronOutbound.builder(p1, TestEvent.ENCODER).build(), 0, 50);
        pollUntil(receiver, sink, got, () -> got.size() == 50);
        p1.close();

        // session 2: a publisher restarted without its state starts again at 0: a reset
        final ExclusivePublication p2 = media.aeron.addExclusivePublication(channel, 4);
        assertTrue(p2.sessionId() != p1.sessionId());
        awaitConnected(p2, receiver);
        send(AeronOutbound.builder(p2, TestEvent.ENCODER).build(), 0, 20);
        pollUntil(receiver, sink, got, () -> got.size() == 70);
        p2.close();

        // session 3: resumes after the last sequence session 2 sent: no gap
        final ExclusivePublication p3 = media.aeron.addExclusivePublication(channel, 4);
        awaitConnected(p3, receiver);
        send(AeronOutbound.builder(p3, TestEvent.ENCODER).initialSequence(20).build(), 20, 40);
        pollUntil(receiver, sink, got, () -> got.size() == 90);
        // image departures come from the client's conductor; wait for the first two
        pollUntil(receiver, sink, got, () -> recorder.unavailable.size() >= 2);
        p3.close();
        receiver.onClose();

        assertEquals(1, recorder.gaps.size(), () -> "gaps " + recorder.gaps.size());
        final long[] gap = recorder.gaps.get(0);
        assertEquals(p2.sessionId(), (int) gap[0]);
        assertEquals(50, gap[1], "expected the stream to continue at 50");
        assertEquals(0, gap[2], "the restarted publisher began again at 0");
        assertEquals(1, receiver.metrics().sequenceResets());
        assertEquals(0, receiver.metrics().missingMessages());
        assertEquals(3, recorder.available.size(), "three sessions arrived");
        assertTrue(recorder.unavailable.contains(p1.sessionId()));
        assertTrue(receiver.metrics().imagesAvailable() == 3 && receiver.metrics().imagesUnavailable() >= 2,
                receiver.metrics()::toString);
    }
}
