package dev.slipstream.stress.processor;

import dev.slipstream.wait.TimeoutBlockingWaitStrategy;
import java.util.concurrent.TimeUnit;
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
 * BatchEventProcessor halt with TimeoutBlockingWaitStrategy whose timeout (an hour) never fires: {@code halt()} ends {@code run()}, whether it comes before
 * run() starts, during the first batch or while the processor waits. See {@link HaltFixture}.
 *
 * <pre>{@code
 * java -jar stress-tests/target/jcstress.jar -t ProcessorHaltTimeoutBlockingTest -m quick -sc false
 * }</pre>
 */
@JCStressTest(Mode.Termination)
@Description("BatchEventProcessor.halt() ends run() with TimeoutBlockingWaitStrategy whose timeout (an hour) never fires.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "run() returned after halt().")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "run() never returned: the halt was lost or did not wake the processor.")
@State
public class ProcessorHaltTimeoutBlockingTest {
    private final HaltFixture fixture = new HaltFixture(new TimeoutBlockingWaitStrategy(1, TimeUnit.HOURS), false);

    /** Runs the processor. */
    @Actor
    public void run() {
        fixture.run();
    }

    /** Halts it. */
    @Signal
    public void halt() {
        fixture.halt();
    }
}
