package dev.slipstream.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.slipstream.sequence.Sequence;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventPollerTest {
    static final class Event {
        long value;
    }

    @Test
    void pollsWhatIsAvailableAsOneBatch() throws Exception {
        final RingBuffer<Event> ring = RingBuffer.createSingleProducer(Event::new, 8, new YieldingWaitStrategy(0));
        final EventPoller<Event> poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        final List<Long> seen = new ArrayList<>();
        final List<Boolean> ends = new ArrayList<>();

        assertEquals(EventPoller.PollState.IDLE, poller.poll((e, s, end) -> seen.add(e.value)));
        for (long i = 1; i <= 3; i++) {
            ring.publishEvent((event, sequence, v) -> event.value = v, i);
        }
        assertEquals(EventPoller.PollState.PROCESSING, poller.poll((e, s, end) -> {
            seen.add(e.value);
            ends.add(end);
            return true;
        }));
        assertEquals(List.of(1L, 2L, 3L), seen);
        assertEquals(List.of(false, false, true), ends);
        assertEquals(2, poller.getSequence().get());
    }

    @Test
    void handlerCanStopEarlyAndResumeLater() throws Exception {
        final RingBuffer<Event> ring = RingBuffer.createMultiProducer(Event::new, 8, new YieldingWaitStrategy(0));
        final EventPoller<Event> poller = ring.newPoller();
        for (long i = 0; i < 4; i++) {
            ring.publishEvent((event, sequence, v) -> event.value = v, i);
        }
        final List<Long> seen = new ArrayList<>();
        poller.poll((e, s, end) -> {
            seen.add(e.value);
            return seen.size() < 2;
        });
        assertEquals(List.of(0L, 1L), seen);
        poller.poll((e, s, end) -> seen.add(e.value));
        assertEquals(List.of(0L, 1L, 2L, 3L), seen);
    }

    @Test
    void reportsGatingWhenAnUpstreamStageHoldsEventsBack() throws Exception {
        final RingBuffer<Event> ring = RingBuffer.createSingleProducer(Event::new, 8, new YieldingWaitStrategy(0));
        final Sequence upstream = new Sequence();
        final EventPoller<Event> poller = ring.newPoller(upstream);
        ring.publishEvent((event, sequence) -> event.value = 1);
        assertEquals(EventPoller.PollState.GATING, poller.poll((e, s, end) -> true));
        upstream.set(0);
        assertEquals(EventPoller.PollState.PROCESSING, poller.poll((e, s, end) -> true));
    }

    @Test
    void aThrowingHandlerKeepsTheEventsBeforeItConsumed() throws Exception {
        final RingBuffer<Event> ring = RingBuffer.createSingleProducer(Event::new, 8, new YieldingWaitStrategy(0));
        final EventPoller<Event> poller = ring.newPoller();
        for (long i = 0; i < 3; i++) {
            ring.publishEvent((event, sequence, v) -> event.value = v, i);
        }
        assertThrows(IllegalStateException.class, () -> poller.poll((e, s, end) -> {
            if (s == 1) {
                throw new IllegalStateException("bad event");
            }
            return true;
        }));
        assertEquals(0, poller.getSequence().get());
        assertThrows(NullPointerException.class, () -> poller.poll(null));
    }
}
