package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.wait.YieldingWaitStrategy;
import io.aeron.ExclusivePublication;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sending and receiving allocate nothing per event once warm: the test thread alternates between
 * sending a message and polling it into a ring, and its allocated bytes are read before and after.
 */
class AllocationTest {
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
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sendingAndReceivingAllocateNothingPerEvent() {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "needs HotSpot's ThreadMXBean");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;

        final RingBuffer<TestEvent> ring = RingBuffer.createSingleProducer(TestEvent::new, 1024, new YieldingWaitStrategy());
        final Sequence consumed = new Sequence();
        ring.addGatingSequences(consumed);
        final ExclusivePublication publication = media.aeron.addExclusivePublication("aeron:ipc", 40);
        final AeronInbound<TestEvent> inbound = AeronInbound.builder(media.aeron, "aeron:ipc", 40, ring,
                TestEvent.DECODER).build();
        final AeronOutbound<TestEvent> outbound = AeronOutbound.builder(publication, TestEvent.ENCODER).build();
        BadInputAndStopTest.awaitConnected(publication, inbound);
        final TestEvent event = new TestEvent();
        final int large = publication.maxPayloadLength() + 100;

        final int warm = 20_000;
        final int measured = 200_000;
        long before = 0;
        for (int i = 0; i < warm + measured; i++) {
            if (i == warm) {
                before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            }
            event.number = i;
            event.value = i;
            // one message in 16 is longer than a frame: offer from the preallocated buffer
            event.filler = (i & 15) == 0 ? large : 0;
            outbound.onEvent(event, i, true);
            while (inbound.doWork() == 0) {
                Thread.onSpinWait();
            }
            consumed.set(ring.getCursor());
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertEquals(warm + measured, inbound.metrics().messagesReceived());
        // a few kilobytes over the whole run (term rotations, the bean's own bookkeeping) is not
        // per event; one object per event would be 16 bytes or more each
        final double perEvent = (double) allocated / measured;
        assertTrue(perEvent < 0.1, allocated + " bytes allocated over " + measured + " events: " + perEvent + " per event");
        inbound.close();
        publication.close();
    }
}
