package dev.slipstream.examples.docs;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.Slipstream;

public class QuickStart {
    /** One per slot of the ring, made when the ring is built and reused for every event. */
    static final class Trade {
        long price;
        long fee;
        long tax;
    }

    public static void main(String[] args) {
        EventHandler<Trade> fees = (trade, sequence, endOfBatch) -> trade.fee = trade.price / 100;
        EventHandler<Trade> taxes = (trade, sequence, endOfBatch) -> trade.tax = trade.price / 50;
        EventHandler<Trade> settle = (trade, sequence, endOfBatch) -> System.out.println(
                "trade " + sequence + ": price " + trade.price + ", fee " + trade.fee + ", tax " + trade.tax);

        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).ringSize(1024).build()) {
            pipeline.handleEventsWith(fees, taxes)   // fees and taxes in parallel, a thread each
                    .then(settle);                   // settle sees each trade after both
            pipeline.start();
            for (long price = 1000; price <= 3000; price += 1000) {
                pipeline.publishEvent((trade, sequence, p) -> trade.price = p, price);
            }
        }   // close(): every published trade through every stage, then the stage threads end
    }
}
