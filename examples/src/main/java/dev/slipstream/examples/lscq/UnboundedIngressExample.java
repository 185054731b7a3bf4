package dev.slipstream.examples.lscq;

import dev.slipstream.ring.EventPoller;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.UnboundedIngress;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Several producer threads hand orders to an {@link UnboundedIngress} without ever waiting; its
 * sequencing thread moves them in batches into a ring buffer, where one consumer reads them in
 * a single total order. Prints the throughput and checks that every order arrived once.
 *
 * <p>Run: {@code mvn -B -q -pl examples -am compile exec:java
 * -Dexec.mainClass=dev.slipstream.examples.lscq.UnboundedIngressExample [-Dexec.args=1000000]}
 */
public final class UnboundedIngressExample {
    private static final int PRODUCERS = 3;
    private static final int RING_SIZE = 4096;

    /** What producers create: an order message, allocated by the producer as it would be off a socket. */
    record OrderMessage(int producer, long id, long price, int quantity) {
    }

    /** A preallocated ring slot the sequencing thread copies each message into. */
    static final class OrderEvent {
        int producer;
        long id;
        long price;
        int quantity;
    }

    private UnboundedIngressExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional: the number of orders (default 3 000 000)
     * @throws Exception if a thread fails or the orders do not add up
     */
    public static void main(final String[] args) throws Exception {
        final long orders = args.length > 0 ? Long.parseLong(args[0]) : 3_000_000L;
        final long perProducer = orders / PRODUCERS;
        final long total = perProducer * PRODUCERS;

        final RingBuffer<OrderEvent> ring =
                RingBuffer.createSingleProducer(OrderEvent::new, RING_SIZE, new HybridWaitStrategy());
        final UnboundedIngress<OrderMessage, OrderEvent> ingress = UnboundedIngress.builder(ring,
                (OrderEvent e, long sequence, OrderMessage m) -> {
                    e.producer = m.producer();
                    e.id = m.id();
                    e.price = m.price();
                    e.quantity = m.quantity();
                }).maxBatch(256).build();

        // The consumer: pulls from the ring in its own loop, checking per-producer order.
        final EventPoller<OrderEvent> poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        final long[] nextId = new long[PRODUCERS];
        final long[] notional = {0L};
        final long[] received = {0L};
        final Thread consumer = new Thread(() -> {
            final EventPoller.Handler<OrderEvent> handler = (e, sequence, endOfBatch) -> {
                if (e.id != nextId[e.producer]++) {
                    throw new IllegalStateException("producer " + e.producer + ": order " + e.id + " out of order");
                }
                notional[0] += e.price * e.quantity;
                received[0]++;
                return true;
            };
            try {
                while (received[0] < total) {
                    if (poller.poll(handler) != EventPoller.PollState.PROCESSING) {
                        Thread.onSpinWait();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "consumer");

        final CountDownLatch go = new CountDownLatch(1);
        final List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            final int id = p;
            producers.add(new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (long i = 0; i < perProducer; i++) {
                    // never waits, whatever the consumer is doing
                    ingress.offer(new OrderMessage(id, i, 100 + (i & 15), 1 + (int) (i & 7)));
                }
            }, "producer-" + p));
        }

        consumer.start();
        ingress.start();
        producers.forEach(Thread::start);
        final long start = System.nanoTime();
        go.countDown();
        for (final Thread t : producers) {
            t.join();
        }
        final long offered = System.nanoTime();
        final long undelivered = ingress.stop(Duration.ofSeconds(60));
        consumer.join();
        final long end = System.nanoTime();

        long expectedNotional = 0;
        for (long i = 0; i < perProducer; i++) {
            expectedNotional += (100 + (i & 15)) * (1 + (i & 7));
        }
        expectedNotional *= PRODUCERS;
        System.out.printf(Locale.ROOT, "%d producers offered %,d orders in %.1f ms (%,.0f offers/s, never blocked)%n",
                PRODUCERS, total, (offered - start) / 1e6, total / ((offered - start) / 1e9));
        System.out.printf(Locale.ROOT, "consumer read %,d orders through the ring in %.1f ms: %,.0f orders/s%n",
                received[0], (end - start) / 1e6, received[0] / ((end - start) / 1e9));
        System.out.printf(Locale.ROOT, "undelivered: %d, translator failures: %d, notional %s%n",
                undelivered, ingress.failed(), notional[0] == expectedNotional ? "matches" : "MISMATCH");
        if (undelivered != 0 || received[0] != total || notional[0] != expectedNotional) {
            throw new IllegalStateException("orders lost or corrupted");
        }
    }
}
