package dev.slipstream.examples.orderbook;

import dev.slipstream.ring.EventSink;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.sequence.SequencerClosedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * One client of the order-matching examples: submits its share of the reproducible order stream
 * into an {@link EventSink} (a pipeline or a ring), paced at a fixed interval or as fast as it
 * can. With a pace, each order carries the time it was <em>due</em>, so latency counts from there
 * (no coordinated omission).
 *
 * <pre>{@code
 * PacedClient client = new PacedClient(0, seed, 100_000, 0, System.nanoTime(), pipeline, go);
 * new Thread(client, "client-0").start();
 * go.countDown();
 * }</pre>
 */
final class PacedClient implements Runnable {
    /** Copies the client's current order into the claimed slot: no allocation, no capture. */
    private static final EventTranslatorOneArg<OrderEvent, PacedClient> FROM_CLIENT =
            (event, sequence, client) -> client.copyInto(event);

    private final OrderFlow flow;
    private final int clientId;
    private final long orders;
    private final long intervalNanos;
    private final long startNanos;
    private final EventSink<OrderEvent> sink;
    private final CountDownLatch go;
    private long submitNanos;

    PacedClient(final int clientId, final long seed, final long orders, final long intervalNanos,
                final long startNanos, final EventSink<OrderEvent> sink, final CountDownLatch go) {
        this.flow = new OrderFlow(seed, clientId);
        this.clientId = clientId;
        this.orders = orders;
        this.intervalNanos = intervalNanos;
        this.startNanos = startNanos;
        this.sink = sink;
        this.go = go;
    }

    @Override
    public void run() {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long now;
        while ((now = System.nanoTime()) < startNanos) {
            LockSupport.parkNanos(startNanos - now);
        }
        for (long i = 0; i < orders; i++) {
            flow.advance();
            if (intervalNanos == 0) {
                submitNanos = System.nanoTime();
            } else {
                // the order's due time; parking overshoots, so orders go out in small bursts
                submitNanos = startNanos + i * intervalNanos;
                while ((now = System.nanoTime()) < submitNanos) {
                    LockSupport.parkNanos(submitNanos - now);
                }
            }
            try {
                sink.publishEvent(FROM_CLIENT, this);
            } catch (SequencerClosedException stopped) {
                // a stage failed and stopped the pipeline; its shutdown result says why
                return;
            }
        }
    }

    private void copyInto(final OrderEvent event) {
        event.setOrder(flow.type, flow.side, flow.orderId, flow.price, flow.quantity, clientId, submitNanos);
    }
}
