package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.queue.LprqBlockingQueue;
import dev.slipstream.queue.LprqQueue;
import dev.slipstream.queue.LscqBlockingQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.QueueCounters;
import dev.slipstream.queue.ScqBlockingQueue;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.queue.SlotSequenceQueue;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.UnboundedIngress;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/lscq.md, as written there. */
class LscqSamplesTest {
    private final Order order = new Order();
    private final Request request = new Request(1);
    private final Job job = new Job(1);
    private final OrderMessage message = new OrderMessage(42, 100, 5);
    private int handledRequests;

    private void handle(final Request r) {
        handledRequests++;
    }

    @Test
    void scqAndLscq() throws Exception {
        LprqQueue<Request> requests = new LprqQueue<>();   // 4096 elements per ring
        requests.offer(request);                           // never waits for a consumer
        Request first = requests.poll();                   // null when empty

        ScqQueue<Order> bounded = new ScqQueue<>(1024);
        if (!bounded.offer(order)) {
            // full: back off and retry
        }
        Order next = bounded.poll();                       // null when empty

        LscqQueue<Request> ingress = new LscqQueue<>();    // 4096 elements per segment
        ingress.offer(request);                            // never waits for a consumer
        int handled = ingress.drain(this::handle, 256);    // up to 256 at once, no intermediate list
        assertEquals(request, first);
        assertEquals(order, next);
        assertEquals(1, handled);
    }

    @Test
    void blockingQueues() throws Exception {
        BlockingQueue<Job> jobs = new ScqBlockingQueue<>(1024);                 // HybridWaitStrategy
        BlockingQueue<Job> sleepy = new ScqBlockingQueue<>(1024, new BlockingWaitStrategy());
        jobs.put(job);                                    // waits while full
        Job next = jobs.take();                           // waits while empty
        BlockingQueue<Request> inbox = new LprqBlockingQueue<>();
        inbox.put(request);                               // never waits
        BlockingQueue<Request> segmented = new LscqBlockingQueue<>();
        segmented.put(request);                           // never waits
        assertEquals(job, next);
        assertEquals(request, inbox.take());
        assertEquals(request, segmented.take());
        assertEquals(0, sleepy.size());
    }

    @Test
    void closingAnUnboundedQueue() throws Exception {
        LprqBlockingQueue<Request> requests = new LprqBlockingQueue<>();
        requests.put(request);
        requests.close();                                 // from now on, offers fail and put throws
        while (!requests.isDrained()) {                   // closed, and every accepted element taken
            Request r = requests.poll(1, TimeUnit.MILLISECONDS);
            if (r != null) handle(r);
        }
        assertEquals(1, handledRequests);
        assertEquals(false, requests.offer(request));
    }

    @Test
    void readOnlyCollectionViews() throws Exception {
        LscqQueue<Request> ingress = new LscqQueue<>();
        List<Request> backlog = new ArrayList<>(ingress);        // a copy, oldest first; nothing removed
        boolean queued = ingress.contains(request);              // walks the queue: O(backlog)
        long urgent = ingress.stream().filter(Request::urgent).count();
        assertEquals(0, backlog.size());
        assertEquals(false, queued);
        assertEquals(0, urgent);
    }

    @Test
    void unboundedIngress() throws Exception {
        RingBuffer<Order> ring = RingBuffer.createSingleProducer(Order::new, 4096, new HybridWaitStrategy());
        UnboundedIngress<OrderMessage, Order> ingress =
                UnboundedIngress.builder(ring, (Order o, long seq, OrderMessage m) -> o.copyFrom(m)).build();
        ingress.start();
        ingress.offer(message);                              // any thread, never waits
        long lost = ingress.stop(Duration.ofSeconds(5));     // drains every accepted item into the ring
        assertEquals(0, lost);
        assertEquals(0, ring.getCursor());
        assertEquals(42, ring.get(0).id);
    }

    @Test
    void manyCoreCandidates() {
        LprqQueue<Request> requests = new LprqQueue<>(4096, LprqQueue.Contention.WAIT_FOR_OFFER);
        SlotSequenceQueue<Order> orders = new SlotSequenceQueue<>(1024);   // capacity: a power of two, >= 2
        if (!orders.offer(order)) {
            // full: exactly 1024 orders are waiting
        }
        assertEquals(LprqQueue.Contention.WAIT_FOR_OFFER, requests.contention());
        assertEquals(1024, orders.capacity());
        assertEquals(order, orders.poll());
        requests.offer(request);
        assertEquals(request, requests.poll());
    }

    @Test
    void counters() throws Exception {
        final LprqQueue<Integer> queue = new LprqQueue<>();
        QueueCounters.reset();
        runWorkload(queue);                                   // its threads joined: the counts are exact
        Map<QueueCounters.Event, Long> counts = QueueCounters.snapshot();
        assertEquals(QueueCounters.Event.values().length, counts.size());
        // the build's JVMs count nothing (QueueCountersTest, in core, runs a JVM that does)
        counts.values().forEach(count -> assertEquals(0L, count));
        assertEquals(null, queue.poll(), "every element offered was polled");
    }

    /** Two threads, one offering 10,000 elements and one polling them, joined. */
    private static void runWorkload(final LprqQueue<Integer> queue) throws InterruptedException {
        final Thread producer = new Thread(() -> {
            for (int i = 0; i < 10_000; i++) {
                queue.offer(i);
            }
        });
        final Thread consumer = new Thread(() -> {
            for (int taken = 0; taken < 10_000; ) {
                if (queue.poll() != null) {
                    taken++;
                } else {
                    Thread.onSpinWait();
                }
            }
        });
        producer.start();
        consumer.start();
        producer.join();
        consumer.join();
    }
}
