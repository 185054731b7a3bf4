package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.HybridWaitStrategy;
import io.aeron.ExclusivePublication;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/** Messages longer than one frame go out with offer, are reassembled, and survive ABORT on a full ring. */
class LargeMessageTest {
    private EmbeddedAeron media;

    @BeforeEach
    void startDriver() {
        media = new EmbeddedAeron();
    }

    @AfterEach
    void stopDriver() {
        media.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"aeron:ipc", "udp"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void messagesLongerThanTheMtuArriveWholeAndInOrder(final String kind) throws Exception {
        final String channel = kind.equals("udp") ? EmbeddedAeron.udpChannel() : kind;
        final int events = 2_000;
        // a slow stage on a ring of 8 slots: reassembled messages meet a full ring and are aborted
        final OrderChecker checker = new OrderChecker(1, 50, 500);
        final Slipstream<TestEvent> receiving = Slipstream.builder(TestEvent::new).name("receiving").ringSize(8)
                .producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
        receiving.handleEventsWith(checker);
        receiving.start();
        final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, channel, 7,
                receiving.ringBuffer(), TestEvent.DECODER).build();
        final Thread receiver = new Thread(inbound, "inbound");
        receiver.start();

        final ExclusivePublication publication = media.aeron.addExclusivePublication(channel, 7);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER)
                .initialOfferBufferLength(64).build();
        final int mtuPayload = publication.maxPayloadLength();
        final TestEvent e = new TestEvent();
        int large = 0;
        for (int n = 0; n < events; n++) {
            e.producer = 0;
            e.number = n;
            e.value = TestEvent.valueOf(0, n);
            // every third message is longer than a frame (up to 7 KiB, under maxMessageLength 8 KiB)
            e.filler = n % 3 == 0 ? mtuPayload + (n * 37) % (7 * 1024 - mtuPayload - 64) : n % 100;
            if (TestEvent.FIXED + e.filler + WireFormat.HEADER_LENGTH > mtuPayload) {
                large++;
            }
            outbound.onEvent(e, n, true);
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (checker.received() < events && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        inbound.close();
        receiver.join();
        assertTrue(receiving.shutdown(Duration.ofSeconds(10)).isClean());
        publication.close();

        assertTrue(checker.problems().isEmpty(), () -> checker.problems().toString());
        assertEquals(events, checker.received());
        assertEquals(large, outbound.metrics().messagesOffered(), "messages sent with offer");
        assertTrue(large > events / 4, "the test sends many long messages");
        assertEquals(events, inbound.metrics().messagesReceived());
        assertEquals(0, inbound.metrics().gaps());
        assertTrue(inbound.metrics().aborts() > 0, () -> "the ring was never full: " + inbound.metrics());
    }
}
