package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.EventTranslatorTwoArg;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many producers -> multi-producer ring -> {@link AeronOutbound} -> Aeron (IPC or UDP loopback)
 * -> {@link AeronInbound} -> ring -> a stage that checks every producer's order and values.
 */
class BridgeEndToEndTest {
    private static final int STREAM = 1001;
    private static final EventTranslatorTwoArg<TestEvent, Integer, Long> FILL = (e, seq, producer, number) -> {
        e.producer = producer;
        e.number = number;
        e.value = TestEvent.valueOf(producer, number);
        e.filler = 0;
    };

    private EmbeddedAeron media;

    @BeforeEach
    void startDriver() {
        media = new EmbeddedAeron();
    }

    @AfterEach
    void stopDriver() {
        media.close();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void millionEventsOverIpcKeepEveryProducersOrder() throws Exception {
        final Outcome o = run("aeron:ipc", 1_000_000, 3, 1 << 14, 1 << 14, 0, 0);
        o.assertExact();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void millionEventsOverUdpLoopbackKeepEveryProducersOrder() throws Exception {
        final Outcome o = run(EmbeddedAeron.udpChannel(), 1_000_000, 3, 1 << 14, 1 << 14, 0, 0);
        o.assertExact();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void slowReceiverBackPressuresTheSendingProducersAndLosesNothing() throws Exception {
        // A receiving stage that sleeps 1 ms every 200 events (about 200k events/s at most,
        // much less with parking's overshoot); small rings so the pressure travels quickly.
        final Outcome o = run("aeron:ipc", 30_000, 3, 256, 256, 200, 1_000);
        o.assertExact();
        assertTrue(o.outbound.backPressured() > 0, "the outbound stage never saw BACK_PRESSURED: " + o.outbound);
        assertTrue(o.outbound.messagesThatWaited() > 0, o.outbound::toString);
        assertTrue(o.inbound.aborts() > 0, "the receiver never found its ring full: " + o.inbound);
        // a failed tryPublishEvent is a producer that found the sending ring full: the far
        // receiver's slowness reached it through Aeron and the outbound stage's gating
        assertTrue(o.producersBlocked > 0, "no producer ever found the sending ring full");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void slowReceiverBackPressuresOverUdpToo() throws Exception {
        final Outcome o = run(EmbeddedAeron.udpChannel(), 30_000, 2, 256, 256, 200, 1_000);
        o.assertExact();
        assertTrue(o.outbound.backPressured() > 0, "the outbound stage never saw BACK_PRESSURED: " + o.outbound);
        assertTrue(o.inbound.aborts() > 0, "the receiver never found its ring full: " + o.inbound);
        assertTrue(o.producersBlocked > 0, "no producer ever found the sending ring full");
    }

    /** What one run saw. */
    private static final class Outcome {
        long events;
        int producers;
        ShutdownResult sendShutdown;
        ShutdownResult receiveShutdown;
        OrderChecker checker;
        OutboundMetrics outbound;
        InboundMetrics inbound;
        long expectedChecksum;
        long producersBlocked;

        void assertExact() {
            assertTrue(checker.problems().isEmpty(), () -> "order or value problems: " + checker.problems());
            assertEquals(events, checker.received(), "events received");
            for (int p = 0; p < producers; p++) {
                assertEquals(share(events, producers, p), checker.nextOf(p), "events of producer " + p);
            }
            assertEquals(expectedChecksum, checker.checksum(), "checksum of the values");
            assertEquals(events, outbound.messagesSent(), "messages the outbound sent");
            assertEquals(events, inbound.messagesReceived(), "messages the inbound published");
            assertEquals(0, inbound.gaps(), () -> "gaps: " + inbound);
            assertTrue(sendShutdown.isClean(), sendShutdown::toString);
            assertTrue(receiveShutdown.isClean(), receiveShutdown::toString);
        }
    }

    private static long share(final long events, final int producers, final int p) {
        return events / producers + (p < events % producers ? 1 : 0);
    }

    private Outcome run(final String channel, final long events, final int producers, final int sendRing,
                        final int receiveRing, final int sleepEvery, final long sleepMicros) throws Exception {
        final Outcome o = new Outcome();
        o.events = events;
        o.producers = producers;

        // receiving side first, so the publication connects at once
        final OrderChecker checker = new OrderChecker(producers, sleepEvery, sleepMicros);
        final Slipstream<TestEvent> receiving = Slipstream.builder(TestEvent::new).name("receiving")
                .ringSize(receiveRing).producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
        receiving.handleEventsWith(checker);
        receiving.start();
        final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, channel, STREAM,
                receiving.ringBuffer(), TestEvent.DECODER).build();
        final Thread receiver = new Thread(inbound, "inbound");
        receiver.start();

        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(
                media.aeron.addExclusivePublication(channel, STREAM), TestEvent.ENCODER).build();
        final Slipstream<TestEvent> sending = Slipstream.builder(TestEvent::new).name("sending")
                .ringSize(sendRing).producers(ProducerType.MULTI).waitStrategy(new HybridWaitStrategy()).build();
        sending.handleEventsWith(outbound.stageSpec("to-aeron"));
        sending.start();

        final AtomicLong blocked = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        long checksum = 0;
        for (int p = 0; p < producers; p++) {
            final int producer = p;
            final long count = share(events, producers, p);
            for (long n = 0; n < count; n++) {
                checksum += TestEvent.valueOf(producer, n);
            }
            final Thread t = new Thread(() -> {
                long waits = 0;
                for (long n = 0; n < count; n++) {
                    if (!sending.tryPublishEvent(FILL, producer, n)) {
                        waits++;                           // the ring is full: the far side holds us back
                        sending.publishEvent(FILL, producer, n);
                    }
                }
                blocked.addAndGet(waits);
            }, "producer-" + p);
            threads.add(t);
            t.start();
        }
        for (final Thread t : threads) {
            t.join();
        }
        o.sendShutdown = sending.shutdown(Duration.ofSeconds(30));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (checker.received() < events && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        inbound.close();
        receiver.join();
        o.receiveShutdown = receiving.shutdown(Duration.ofSeconds(30));
        outbound.publication().close();
        o.checker = checker;
        o.outbound = outbound.metrics();
        o.inbound = inbound.metrics();
        o.expectedChecksum = checksum;
        o.producersBlocked = blocked.get();
        return o;
    }
}
