package dev.slipstream.stress.wait;

import dev.slipstream.wait.BlockingWaitStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * BlockingWaitStrategy: a consumer waiting for sequence 0 wakes up when its barrier is alerted.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t BlockingAlertWakeUpTest -m quick -sc false
 * }</pre>
 */
@JCStressTest(Mode.Termination)
@Description("BlockingWaitStrategy: a consumer waiting for sequence 0 wakes up when its barrier is alerted.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The waiting consumer woke up.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The waiting consumer never woke up: a lost wake-up.")
@State
public class BlockingAlertWakeUpTest {
    private final WakeUpFixture fixture = new WakeUpFixture(new BlockingWaitStrategy());

    /** The consumer: waits on the barrier for sequence 0. */
    @Actor
    public void consumer() {
        fixture.awaitFirstEvent();
    }

    /** What must end the wait. */
    @Signal
    public void signal() {
        fixture.alert();
    }
}
