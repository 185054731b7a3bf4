package dev.slipstream.examples.docs;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;

public final class FirstPipeline {
    public static void main(String[] args) {
        EventHandler<Trade> journal = (trade, sequence, endOfBatch) -> System.out.println("journal " + trade.price);
        EventHandler<Trade> risk = (trade, sequence, endOfBatch) -> { /* check limits */ };
        EventHandler<Trade> settle = (trade, sequence, endOfBatch) -> System.out.println("settle " + sequence);

        Slipstream<Trade> pipeline = Slipstream.builder(Trade::new)
                .name("trades")
                .ringSize(1024)                              // a power of two
                .producers(ProducerType.SINGLE)              // one publishing thread
                .waitStrategy(new HybridWaitStrategy())      // spin, then yield, then park
                .build();
        pipeline.handleEventsWith(StageSpec.of("journal", journal), StageSpec.of("risk", risk))
                .then(StageSpec.of("settle", settle));       // settle sees an event after both
        pipeline.start();

        for (long i = 0; i < 10; i++) {
            pipeline.publishEvent((trade, sequence, price) -> trade.price = price, 100 + i);
        }

        ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));  // drains every stage
        System.out.println(result);
    }
}
