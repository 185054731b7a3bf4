package dev.slipstream.examples.orderbook;

import dev.slipstream.processor.EventHandler;

/**
 * The replication stage, simulated: it runs beside the journal (both see every order, in the
 * same sequence order) and keeps a running checksum of the stream, as a standby engine would
 * keep its copy in step. The check at the end compares it with the journal file.
 */
final class Replica implements EventHandler<OrderEvent> {
    private final StreamChecksum checksum = new StreamChecksum();

    @Override
    public void onEvent(final OrderEvent order, final long sequence, final boolean endOfBatch) {
        checksum.add(sequence, order.type, order.side, order.orderId, order.price, order.quantity, order.clientId);
    }

    long checksum() {
        return checksum.value();
    }

    long orders() {
        return checksum.count();
    }
}
