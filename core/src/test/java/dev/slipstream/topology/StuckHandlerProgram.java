package dev.slipstream.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A program whose stage spins forever in its handler (ignoring interrupts): after its shutdown
 * times out and {@code main} returns, the JVM must exit, since stage threads are daemons.
 * Run by {@link OperatorReportTest} in a child JVM.
 */
final class StuckHandlerProgram {
    private static volatile boolean forever = true;

    private StuckHandlerProgram() {
    }

    public static void main(final String[] args) throws Exception {
        final CountDownLatch stuck = new CountDownLatch(1);
        final EventHandler<TestEvent> spinner = (e, seq, end) -> {
            if (seq == 5) {
                stuck.countDown();
                while (forever) {
                    Thread.onSpinWait();
                }
            }
        };
        final Slipstream<TestEvent> pipeline = Slipstream.builder(TestEvent::new).name("stuck")
                .producers(ProducerType.SINGLE).build();
        pipeline.handleEventsWith(StageSpec.of("j", spinner));
        pipeline.start();
        for (int i = 0; i < 10; i++) {
            pipeline.publishEvent(TestEvent::set, (long) i);
        }
        stuck.await();
        System.out.println(pipeline.shutdown(Duration.ofMillis(200)));
    }
}
