package com.example.modular;

import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import java.time.Duration;

/** Three stages (parse -> price -> total) on one ring; prints the total and whether it drained. */
public final class Main {
    static final class Order {
        long quantity;
        long price;
    }

    public static void main(final String[] args) {
        final long[] total = new long[1];
        final Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("consumer").ringSize(1024).build();
        pipeline.handleEventsWith(StageSpec.of("parse", (Order o, long seq, boolean end) -> o.quantity = seq % 10 + 1))
                .then(StageSpec.of("price", (Order o, long seq, boolean end) -> o.price = 100))
                .then(StageSpec.of("total", (Order o, long seq, boolean end) -> total[0] += o.quantity * o.price));
        pipeline.start();
        for (int i = 0; i < 100_000; i++) {
            pipeline.publishEvent((o, seq) -> o.quantity = 0);
        }
        final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(30));
        System.out.println("consumer: stages=" + pipeline.stages().size() + " total=" + total[0]
                + " clean=" + result.isClean() + " module=" + Slipstream.class.getModule().getName());
    }
}
