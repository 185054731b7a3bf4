package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import org.junit.jupiter.api.Test;

/** The code sample of docs/guide/wait-strategies.md, as written there. */
class WaitStrategiesSamplesTest {
    @Test
    void producerWaitStrategies() throws Exception {
        RingBuffer<Order> ring = RingBuffer.create(ProducerType.MULTI, Order::new, 4096,
                new HybridWaitStrategy(), ProducerWaitStrategies.hybrid(100, 10, 20_000));
        // or, with the DSL:
        Slipstream.builder(Order::new).producerWaitStrategy(ProducerWaitStrategies.parking(50_000)).build();
        assertEquals(4096, ring.getBufferSize());
    }
}
