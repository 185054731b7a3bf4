package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageFailure;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import io.aeron.ExclusivePublication;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AgentTerminationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad input gets an exception that says what was wrong; stopping and failures are never silent. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BadInputAndStopTest {
    private EmbeddedAeron media;

    @BeforeEach
    void startDriver() {
        media = new EmbeddedAeron();
    }

    @AfterEach
    void stopDriver() {
        media.close();
    }

    private static TestEvent event(final long number, final int filler) {
        final TestEvent e = new TestEvent();
        e.number = number;
        e.value = TestEvent.valueOf(0, number);
        e.filler = filler;
        return e;
    }

    @Test
    void nullsAreRefusedByName() {
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 20);
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 8, new YieldingWaitStrategy());
        assertTrue(assertThrows(NullPointerException.class,
                () -> AeronOutbound.builder(null, TestEvent.ENCODER)).getMessage().contains("publication"));
        assertTrue(assertThrows(NullPointerException.class,
                () -> AeronOutbound.builder(publication, null)).getMessage().contains("encoder"));
        assertTrue(assertThrows(NullPointerException.class,
                () -> AeronInbound.builder(null, "aeron:ipc", 20, ring, TestEvent.DECODER)).getMessage().contains("aeron"));
        assertTrue(assertThrows(NullPointerException.class,
                () -> AeronInbound.builder(media.aeron, null, 20, ring, TestEvent.DECODER)).getMessage().contains("channel"));
        assertTrue(assertThrows(NullPointerException.class,
                () -> AeronInbound.<TestEvent>builder(media.aeron, "aeron:ipc", 20, null, TestEvent.DECODER))
                .getMessage().contains("ring"));
        assertTrue(assertThrows(NullPointerException.class,
                () -> AeronInbound.builder(media.aeron, "aeron:ipc", 20, ring, null)).getMessage().contains("decoder"));
        assertThrows(NullPointerException.class, () -> AeronOutbound.builder(publication, TestEvent.ENCODER).idleStrategy(null));
        assertThrows(NullPointerException.class,
                () -> AeronInbound.builder(media.aeron, "aeron:ipc", 20, ring, TestEvent.DECODER).listener(null));
    }

    @Test
    void outOfRangeOptionsAreRefused() {
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 21);
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 8, new YieldingWaitStrategy());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> AeronOutbound.builder(publication, TestEvent.ENCODER).initialSequence(-1)).getMessage()
                .contains("initialSequence"));
        assertThrows(IllegalArgumentException.class,
                () -> AeronOutbound.builder(publication, TestEvent.ENCODER).initialOfferBufferLength(0));
        assertThrows(IllegalArgumentException.class,
                () -> AeronInbound.builder(media.aeron, "aeron:ipc", 21, ring, TestEvent.DECODER).fragmentLimit(0));
        assertThrows(IllegalArgumentException.class,
                () -> AeronInbound.builder(media.aeron, "aeron:ipc", 21, ring, TestEvent.DECODER).expectFirstSequence(-5));
    }

    @Test
    void aClosedPublicationIsRefusedAtBuildAndFailsTheEventAfter() {
        final ExclusivePublication closed = media.aeron.addExclusivePublication("aeron:ipc", 22);
        closed.close();
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AeronOutbound.builder(closed, TestEvent.ENCODER));
        assertTrue(refused.getMessage().contains("already closed"), refused.getMessage());

        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 23);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
        publication.close();
        final AeronBridgeException failed = assertThrows(AeronBridgeException.class,
                () -> outbound.onEvent(event(0, 0), 41, true));
        assertTrue(failed.getMessage().contains("is closed") && failed.getMessage().contains("ring sequence 41"),
                failed.getMessage());
        assertEquals(0, outbound.metrics().messagesSent());
    }

    @Test
    void aMessageLongerThanMaxMessageLengthIsRefusedWithBothLengths() {
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 24);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
        final int max = publication.maxMessageLength();
        final IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> outbound.onEvent(event(0, max), 7, true));
        assertTrue(tooLong.getMessage().contains("maxMessageLength of " + max)
                && tooLong.getMessage().contains(String.valueOf(WireFormat.HEADER_LENGTH + TestEvent.FIXED + max)),
                tooLong.getMessage());
        publication.close();
    }

    @Test
    void anEncoderThatWritesAnotherLengthIsCaughtAndItsClaimAborted() {
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 25);
        final MessageEncoder<TestEvent> liar = new MessageEncoder<>() {
            @Override
            public int encodedLength(final TestEvent e) {
                return 16;
            }

            @Override
            public int encode(final TestEvent e, final MutableDirectBuffer buffer, final int offset) {
                return 12;
            }
        };
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 8, new YieldingWaitStrategy());
        final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, "aeron:ipc", 25, ring,
                TestEvent.DECODER).build();
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, liar).build();
        awaitConnected(publication, inbound);
        final IllegalStateException wrong = assertThrows(IllegalStateException.class,
                () -> outbound.onEvent(event(0, 0), 3, true));
        assertTrue(wrong.getMessage().contains("wrote 12 bytes") && wrong.getMessage().contains("encodedLength was 16"),
                wrong.getMessage());
        // the aborted claim became padding: nothing arrives
        for (int i = 0; i < 100; i++) {
            inbound.doWork();
        }
        assertEquals(0, inbound.metrics().messagesReceived());
        inbound.close();
        publication.close();
    }

    @Test
    void closingTheStageEndsAWaitOnADisconnectedPublication() throws Exception {
        // no subscriber: every attempt is NOT_CONNECTED
        final ExclusivePublication publication = media.aeron.addExclusivePublication(EmbeddedAeron.udpChannel(), 26);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
        final Slipstream<TestEvent> pipeline = Slipstream.builder(TestEvent::new).name("sending").ringSize(64)
                .waitStrategy(new HybridWaitStrategy()).build();
        pipeline.handleEventsWith(outbound.stageSpec("to-aeron"));
        pipeline.start();
        for (int i = 0; i < 10; i++) {
            pipeline.publishEvent((e, seq, n) -> e.number = n, (long) i);
        }
        while (outbound.metrics().notConnected() == 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final ShutdownResult result = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            outbound.close();
            return pipeline.halt();
        });
        assertTrue(result.threadsStillRunning().isEmpty(), result::toString);
        assertEquals(10, result.eventsLeft("to-aeron"), result::toString);
        // the pipeline was already stopping, so this is the halt's accounting, not a new failure;
        // the stage logged the AeronBridgeException ("closed while waiting (not connected)")
        assertEquals(0, outbound.metrics().messagesSent());
        publication.close();
    }

    @Test
    void interruptingTheStageThreadEndsAWait() throws Exception {
        final ExclusivePublication publication = media.aeron.addExclusivePublication(EmbeddedAeron.udpChannel(), 27);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final Thread stage = new Thread(() -> {
            try {
                outbound.onEvent(event(0, 0), 0, true);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        stage.start();
        while (outbound.metrics().notConnected() == 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        stage.interrupt();
        stage.join(5_000);
        assertFalse(stage.isAlive());
        assertInstanceOf(AeronBridgeException.class, thrown.get());
        assertTrue(thrown.get().getMessage().contains("interrupted"), thrown.get().getMessage());
        publication.close();
    }

    @Test
    void aPublicationClosedUnderARunningPipelineStopsItWithTheReason() throws Exception {
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 28);
        final RingBuffer<TestEvent> sink = RingBuffer.createSingleProducer(TestEvent::new, 1024, new YieldingWaitStrategy());
        final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, "aeron:ipc", 28, sink,
                TestEvent.DECODER).build();
        awaitConnected(publication, inbound);
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
        final Slipstream<TestEvent> pipeline = Slipstream.builder(TestEvent::new).name("sending").ringSize(64)
                .waitStrategy(new HybridWaitStrategy()).build();
        pipeline.handleEventsWith(outbound.stageSpec("to-aeron"));
        pipeline.start();
        pipeline.publishEvent((e, seq, n) -> e.number = n, 0L);
        while (outbound.metrics().messagesSent() == 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        publication.close();
        pipeline.publishEvent((e, seq, n) -> e.number = n, 1L);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pipeline.failures().isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));
        assertEquals(1, result.failures().size(), result::toString);
        final StageFailure failure = result.failures().get(0);
        // the halting policy wraps the stage's exception
        final AeronBridgeException cause = assertInstanceOf(AeronBridgeException.class, failure.cause().getCause());
        assertTrue(cause.getMessage().contains("is closed"), cause.getMessage());
        assertEquals(1, result.failures().get(0).sequence(), "the unsent event is named");
        assertFalse(result.isClean());
        inbound.close();
    }

    @Test
    void aReceiverStopsWhenItsRingIsClosed() {
        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 8, new YieldingWaitStrategy());
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 29);
        final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, "aeron:ipc", 29, ring,
                TestEvent.DECODER).build();
        awaitConnected(publication, inbound);
        AeronOutbound.builder(publication, TestEvent.ENCODER).build().onEvent(event(0, 0), 0, true);
        ring.close("test closes the ring");
        // found by the message that cannot be claimed (naming the ring's reason) or by an empty poll
        final AgentTerminationException done = assertThrows(AgentTerminationException.class, () -> {
            for (int i = 0; i < 10_000; i++) {
                inbound.doWork();
            }
        });
        assertTrue(done.getMessage().contains("is closed"), done.getMessage());
        inbound.onClose();
        assertTrue(inbound.subscription().isClosed());

        // run() on a closed ring with no traffic returns at once and closes its subscription
        final AeronInbound<TestEvent> idle = AeronInbound.builder(media.aeron, "aeron:ipc", 29, ring,
                TestEvent.DECODER).build();
        assertTimeoutPreemptively(Duration.ofSeconds(5), idle::run);
        assertTrue(idle.subscription().isClosed());
        publication.close();
    }

    static void awaitConnected(final ExclusivePublication publication, final AeronInbound<?> inbound) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!publication.isConnected() || inbound.subscription().imageCount() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("publication never connected");
            }
            inbound.doWork();
            Thread.yield();
        }
    }
}
