package dev.slipstream.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.sequence.MultiProducerSequencer;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.sequence.SingleProducerSequencer;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(60)
class RingBufferTest {
    static final class Event {
        long value;
        long sequence;
        String text;
    }

    private static RingBuffer<Event> ring(final ProducerType type, final int size) {
        return RingBuffer.create(type, Event::new, size, new YieldingWaitStrategy(0), attempt -> Thread.yield());
    }

    @Test
    void factoriesChooseTheSequencer() {
        assertTrue(RingBuffer.createSingleProducer(Event::new, 8, new YieldingWaitStrategy(0)).sequencer()
                instanceof SingleProducerSequencer);
        assertTrue(RingBuffer.createMultiProducer(Event::new, 8, new YieldingWaitStrategy(0)).sequencer()
                instanceof MultiProducerSequencer);
    }

    @Test
    void rejectsBadConstruction() {
        final IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> RingBuffer.createSingleProducer(Event::new, 1000, new YieldingWaitStrategy(0)));
        assertTrue(size.getMessage().contains("power of two, got 1000"));
        final NullPointerException factory = assertThrows(NullPointerException.class,
                () -> RingBuffer.createSingleProducer(null, 8, new YieldingWaitStrategy(0)));
        assertTrue(factory.getMessage().contains("eventFactory"));
        assertThrows(NullPointerException.class, () -> RingBuffer.createMultiProducer(Event::new, 8, null));
        assertThrows(NullPointerException.class,
                () -> RingBuffer.create(null, Event::new, 8, new YieldingWaitStrategy(0), attempt -> { }));
        final IllegalArgumentException nullEvent = assertThrows(IllegalArgumentException.class,
                () -> RingBuffer.createSingleProducer(() -> null, 8, new YieldingWaitStrategy(0)));
        assertTrue(nullEvent.getMessage().contains("returned null for slot 0"), nullEvent.getMessage());
    }

    @Test
    void slotsArePreallocatedAndReused() {
        final RingBuffer<Event> ring = ring(ProducerType.SINGLE, 4);
        final Event first = ring.get(0);
        assertSame(first, ring.get(4), "sequence 4 reuses slot 0");
        assertNotSame(first, ring.get(1));
        final Sequence consumer = new Sequence();
        ring.addGatingSequences(consumer);
        consumer.set(Long.MAX_VALUE / 2);
        for (int i = 0; i < 8; i++) {
            ring.publishEvent((event, sequence) -> event.value = sequence);
        }
        assertSame(first, ring.get(4));
        assertEquals(4, first.value);
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void translatorsOfEveryArity(final ProducerType type) {
        final RingBuffer<Event> ring = ring(type, 16);
        ring.publishEvent((event, sequence) -> event.value = 10);
        ring.publishEvent((event, sequence, a) -> event.value = a, 11L);
        ring.publishEvent((event, sequence, a, b) -> event.value = a + b, 5L, 7L);
        ring.publishEvent((event, sequence, a, b, c) -> event.value = a + b + c, 1L, 2L, 10L);
        ring.publishEvent((event, sequence, args) -> event.value = args.length, "x", "y", "z");
        assertTrue(ring.tryPublishEvent((event, sequence) -> event.value = 20));
        assertTrue(ring.tryPublishEvent((event, sequence, a) -> event.value = a, 21L));
        assertTrue(ring.tryPublishEvent((event, sequence, a, b) -> event.value = a + b, 20L, 2L));
        assertTrue(ring.tryPublishEvent((event, sequence, a, b, c) -> event.value = a + b + c, 20L, 2L, 1L));
        assertTrue(ring.tryPublishEvent((event, sequence, args) -> event.value = 20 + args.length, "a", "b", "c", "d"));
        final long[] expected = {10, 11, 12, 13, 3, 20, 21, 22, 23, 24};
        for (int i = 0; i < expected.length; i++) {
            assertTrue(ring.isPublished(i));
            assertEquals(expected[i], ring.get(i).value, "sequence " + i);
        }
        assertEquals(expected.length - 1, ring.getCursor());
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void batchPublication(final ProducerType type) {
        final RingBuffer<Event> ring = ring(type, 32);
        final Long[] values = {1L, 2L, 3L, 4L};
        ring.publishEvents((event, sequence, v) -> event.value = v, values);
        ring.publishEvents((event, sequence, v) -> event.value = v * 10, 1, 2, values);
        @SuppressWarnings("unchecked")
        final EventTranslator<Event>[] translators = new EventTranslator[] {
            (EventTranslator<Event>) (event, sequence) -> event.value = 100,
            (EventTranslator<Event>) (event, sequence) -> event.value = 101};
        ring.publishEvents(translators);
        ring.publishEvents((event, sequence, a, b) -> event.value = a * b, new Long[] {2L}, new Long[] {21L});
        ring.publishEvents((event, sequence, a, b, c) -> event.value = a + b + c,
                new Long[] {1L}, new Long[] {1L}, new Long[] {1L});
        ring.publishEvents((event, sequence, args) -> event.value = args.length, new Object[] {1, 2}, new Object[] {3});
        assertTrue(ring.tryPublishEvents((event, sequence, v) -> event.value = v, values));
        assertTrue(ring.tryPublishEvents(translators, 1, 1));
        final long[] expected = {1, 2, 3, 4, 20, 30, 100, 101, 42, 3, 2, 1, 1, 2, 3, 4, 101};
        assertEquals(expected.length - 1, ring.getCursor());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], ring.get(i).value, "sequence " + i);
        }
    }

    @Test
    void rejectsBadBatches() {
        final RingBuffer<Event> ring = ring(ProducerType.SINGLE, 4);
        final Long[] five = {1L, 2L, 3L, 4L, 5L};
        final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> ring.publishEvents((event, sequence, v) -> event.value = v, five));
        assertTrue(tooBig.getMessage().contains("buffer size 4"), tooBig.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ring.publishEvents((event, sequence, v) -> event.value = v, 3, 3, five));
        assertThrows(IllegalArgumentException.class,
                () -> ring.publishEvents((event, sequence, v) -> event.value = v, new Long[0]));
        assertThrows(IllegalArgumentException.class, () -> ring.publishEvents((event, sequence, a, b) -> { },
                new Long[] {1L, 2L}, new Long[] {1L}));
        assertThrows(NullPointerException.class,
                () -> ring.publishEvents((EventTranslatorOneArg<Event, Long>) null, new Long[] {1L}));
        assertEquals(-1, ring.getCursor(), "rejected batches claim nothing");
    }

    @Test
    void rejectsNullTranslators() {
        final RingBuffer<Event> ring = ring(ProducerType.SINGLE, 4);
        final NullPointerException npe =
                assertThrows(NullPointerException.class, () -> ring.publishEvent((EventTranslator<Event>) null));
        assertTrue(npe.getMessage().contains("translator"));
        assertThrows(NullPointerException.class, () -> ring.tryPublishEvent((EventTranslatorOneArg<Event, String>) null, "a"));
        assertEquals(-1, ring.getCursor());
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void aThrowingTranslatorStillPublishesItsSlotAndTheCallerSeesTheException(final ProducerType type) {
        final RingBuffer<Event> ring = ring(type, 8);
        final IllegalStateException boom = assertThrows(IllegalStateException.class,
                () -> ring.publishEvent((event, sequence) -> {
                    event.value = 99;
                    throw new IllegalStateException("boom");
                }));
        assertEquals("boom", boom.getMessage());
        assertTrue(ring.isPublished(0), "consumers must not stall on the slot");
        ring.publishEvent((event, sequence) -> event.value = 1);
        assertEquals(1, ring.getCursor());
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void tryPublishReturnsFalseWhenFullAndLosesNothing(final ProducerType type) {
        final RingBuffer<Event> ring = ring(type, 2);
        final Sequence consumer = new Sequence();
        ring.addGatingSequences(consumer);
        assertTrue(ring.tryPublishEvent((event, sequence) -> event.value = 1));
        assertTrue(ring.tryPublishEvent((event, sequence) -> event.value = 2));
        assertFalse(ring.tryPublishEvent((event, sequence) -> event.value = 3));
        assertFalse(ring.tryPublishEvents((event, sequence, v) -> event.value = v, new Long[] {7L}));
        assertEquals(0, ring.remainingCapacity());
        assertEquals(1, ring.get(0).value);
        assertEquals(2, ring.get(1).value);
        consumer.set(0);
        assertEquals(1, ring.remainingCapacity());
        assertTrue(ring.hasAvailableCapacity(1));
        assertTrue(ring.tryPublishEvent((event, sequence) -> event.value = 3));
        assertEquals(3, ring.get(2).value);
        assertEquals(0, ring.getMinimumGatingSequence());
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void claimThenPublishByHand(final ProducerType type) {
        final RingBuffer<Event> ring = ring(type, 8);
        final long hi = ring.next(3);
        assertEquals(2, hi);
        for (long s = 0; s <= hi; s++) {
            ring.get(s).value = s * 2;
        }
        ring.publish(0, hi);
        final long one = ring.next();
        ring.get(one).value = 6;
        ring.publish(one);
        assertEquals(3, ring.getCursor());
        assertThrows(IllegalArgumentException.class, () -> ring.publish(50));
        assertThrows(IllegalArgumentException.class, () -> ring.next(9));
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void closeRejectsNewEventsButKeepsPublishedOnes(final ProducerType type) throws Exception {
        final RingBuffer<Event> ring = ring(type, 8);
        ring.publishEvent((event, sequence) -> event.value = 5);
        ring.close("pipeline stopped");
        assertTrue(ring.isClosed());
        final SequencerClosedException closed = assertThrows(SequencerClosedException.class,
                () -> ring.publishEvent((event, sequence) -> event.value = 6));
        assertTrue(closed.getMessage().contains("pipeline stopped"));
        assertFalse(ring.tryPublishEvent((event, sequence) -> event.value = 7), "closed: not accepted, no exception");

        assertFalse(ring.tryPublishEvent((event, sequence, arg) -> { }, "one"));
        final SequenceBarrier barrier = ring.newBarrier();
        assertEquals(0, barrier.waitFor(0));
        assertEquals(5, ring.get(0).value);
    }

    @ParameterizedTest
    @EnumSource(ProducerType.class)
    void barrierHandsOutTheWholeAvailableBatchBehindUpstreamStages(final ProducerType type) throws Exception {
        final RingBuffer<Event> ring = ring(type, 8);
        for (int i = 0; i < 5; i++) {
            ring.publishEvent((event, sequence) -> event.sequence = sequence);
        }
        assertEquals(4, ring.newBarrier().waitFor(0), "waitFor returns everything published");
        final Sequence upstream = new Sequence(2);
        final SequenceBarrier behind = ring.newBarrier(upstream);
        assertEquals(2, behind.waitFor(1));
        assertEquals(2, behind.getCursor());
        final Sequence other = new Sequence(3);
        assertEquals(2, ring.newBarrier(upstream, other).waitFor(0), "a diamond waits for the slower");
    }

    @Test
    void alertWakesAWaitingConsumer() throws Exception {
        final RingBuffer<Event> ring = ring(ProducerType.SINGLE, 8);
        final SequenceBarrier barrier = ring.newBarrier();
        final List<Throwable> thrown = new ArrayList<>();
        final Thread consumer = new Thread(() -> {
            try {
                barrier.waitFor(0);
            } catch (Throwable t) {
                synchronized (thrown) {
                    thrown.add(t);
                }
            }
        });
        consumer.start();
        barrier.alert();
        consumer.join(10_000);
        assertFalse(consumer.isAlive());
        assertTrue(barrier.isAlerted());
        synchronized (thrown) {
            assertEquals(1, thrown.size());
            assertSame(dev.slipstream.sequence.AlertException.INSTANCE, thrown.get(0));
        }
        barrier.clearAlert();
        assertFalse(barrier.isAlerted());
    }
}
