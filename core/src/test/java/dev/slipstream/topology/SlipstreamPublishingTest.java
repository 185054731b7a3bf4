package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.EventTranslator;
import dev.slipstream.ring.EventTranslatorVararg;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every publishing method of the entry point reaches the ring and the stages. */
@Timeout(30)
class SlipstreamPublishingTest {
    @Test
    void everyPublishingVariantDeliversItsEvents() {
        final Handlers.Summing sum = new Handlers.Summing();
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).ringSize(64).producers(ProducerType.SINGLE)
                .waitStrategy(new YieldingWaitStrategy()).build();
        s.handleEventsWith(sum);
        s.start();
        final EventTranslator<TestEvent> one = (e, seq) -> TestEvent.set(e, seq, 1);
        s.publishEvent(one);                                                     // 1
        s.publishEvent(TestEvent::set, 2L);                                     // 2
        s.publishEvent((e, seq, a, b) -> TestEvent.set(e, seq, a + b), 1L, 2L); // 3
        s.publishEvent((e, seq, a, b, c) -> TestEvent.set(e, seq, a + b + c), 1L, 1L, 2L); // 4
        final EventTranslatorVararg<TestEvent> vararg = (e, seq, args) -> TestEvent.set(e, seq, (Long) args[0]);
        s.publishEvent(vararg, 5L);                                              // 5
        assertTrue(s.tryPublishEvent(one));                                      // 1
        assertTrue(s.tryPublishEvent(TestEvent::set, 2L));                       // 2
        assertTrue(s.tryPublishEvent((e, seq, a, b) -> TestEvent.set(e, seq, a + b), 1L, 2L)); // 3
        assertTrue(s.tryPublishEvent((e, seq, a, b, c) -> TestEvent.set(e, seq, a + b + c), 1L, 1L, 2L)); // 4
        assertTrue(s.tryPublishEvent(vararg, 5L));                               // 5
        @SuppressWarnings("unchecked")
        final EventTranslator<TestEvent>[] translators = new EventTranslator[] {one, one, one};
        s.publishEvents(translators);                                            // 3
        s.publishEvents(translators, 1, 2);                                      // 2
        assertTrue(s.tryPublishEvents(translators));                             // 3
        assertTrue(s.tryPublishEvents(translators, 0, 1));                       // 1
        s.publishEvents(TestEvent::set, new Long[] {10L, 20L});                  // 30
        s.publishEvents(TestEvent::set, 1, 1, new Long[] {10L, 20L});            // 20
        assertTrue(s.tryPublishEvents(TestEvent::set, new Long[] {7L}));         // 7
        assertTrue(s.tryPublishEvents(TestEvent::set, 0, 1, new Long[] {8L}));   // 8
        s.publishEvents((e, seq, a, b) -> TestEvent.set(e, seq, a * b), new Long[] {2L, 3L}, new Long[] {5L, 5L}); // 25
        s.publishEvents((e, seq, a, b, c) -> TestEvent.set(e, seq, a + b + c), new Long[] {1L}, new Long[] {1L},
                new Long[] {1L});                                                // 3
        s.publishEvents(vararg, new Object[] {4L}, new Object[] {6L});           // 10
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        assertEquals(29, sum.count.get());
        assertEquals(15 + 15 + 3 + 2 + 3 + 1 + 30 + 20 + 7 + 8 + 25 + 3 + 10, sum.sum.get());
    }

    @Test
    void tryVariantsReturnFalseWhenTheRingIsFullAndTheRingIsTheSameObject() {
        final CountDownLatch release = new CountDownLatch(1);
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).ringSize(4).producers(ProducerType.SINGLE)
                .waitStrategy(new YieldingWaitStrategy()).build();
        s.handleEventsWith((e, seq, end) -> release.await());
        final RingBuffer<TestEvent> ring = s.ringBuffer();
        assertSame(ring, s.ringBuffer());
        assertEquals(4, ring.getBufferSize());
        for (int i = 0; i < 4; i++) {
            assertTrue(s.tryPublishEvent(TestEvent::set, (long) i));
        }
        assertFalse(s.tryPublishEvent(TestEvent::set, 4L), "full: the stage has not started");
        assertFalse(s.tryPublishEvents(TestEvent::set, new Long[] {5L}));
        assertEquals(0, s.metrics().remainingCapacity());
        s.start();
        release.countDown();
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        assertThrows(IllegalArgumentException.class, () -> ring.publish(100));
    }
}
