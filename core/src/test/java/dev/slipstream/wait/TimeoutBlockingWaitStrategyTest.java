package dev.slipstream.wait;

import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TimeoutBlockingWaitStrategyTest {

    @Test
    void throwsTheTimeoutSingletonWhenNothingIsPublished() {
        final TestBarrier barrier = new TestBarrier(new TimeoutBlockingWaitStrategy(1, TimeUnit.MILLISECONDS));
        final TimeoutException thrown = assertThrows(TimeoutException.class, () -> barrier.waitFor(0));
        assertSame(TimeoutException.INSTANCE, thrown);
    }

    @Test
    void theTimeoutAlsoCoversAnUpstreamStageThatStaysBehind() {
        final TestBarrier barrier = new TestBarrier(new TimeoutBlockingWaitStrategy(Duration.ofMillis(1)),
                new Sequence(10), new Sequence(2));
        assertSame(TimeoutException.INSTANCE, assertThrows(TimeoutException.class, () -> barrier.waitFor(5)));
    }

    @Test
    void aTimedOutWaitCanBeRetriedAndSucceeds() throws Exception {
        final TestBarrier barrier = new TestBarrier(new TimeoutBlockingWaitStrategy(Duration.ofMillis(1)));
        assertThrows(TimeoutException.class, () -> barrier.waitFor(0));
        barrier.publish(0);
        assertEquals(0, barrier.waitFor(0));
    }

    @Test
    void aHugeTimeoutDoesNotOverflowIntoAnImmediateTimeout() throws Exception {
        final TestBarrier barrier = new TestBarrier(new TimeoutBlockingWaitStrategy(Long.MAX_VALUE, TimeUnit.DAYS));
        final Waiter waiter = Waiter.start(barrier, 0).awaitAsleep();
        barrier.publish(0);
        assertEquals(0, waiter.get());
    }
}
