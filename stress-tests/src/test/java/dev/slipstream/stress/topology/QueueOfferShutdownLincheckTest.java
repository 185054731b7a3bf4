package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.stress.TestSize;
import dev.slipstream.topology.QueueWorkerPool;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model check of the offer/shutdown protocol of {@link QueueWorkerPool} (the queue's "claims in
 * flight"): an offer either precedes the shutdown (then the result counts it as left: no worker
 * runs in this check) or follows it (then it is refused); in every interleaving the results match
 * a sequential order of the same calls ({@link Spec}). The pool is never started, so the model
 * checker controls every thread involved. The same check must fail on a copy of the protocol
 * without the wait for offers in flight ({@link NoInFlightWait}).
 */
@Tag("scaled")
public class QueueOfferShutdownLincheckTest {
    private static final EventHandler<Integer> NOOP = (item, sequence, endOfBatch) -> { };

    private final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
            .name("p").handlers(NOOP).build();

    /** Offers one item; true if accepted, false if refused. */
    @Operation
    public boolean offer() {
        try {
            return pool.offer(1);
        } catch (IllegalStateException refused) {
            return false;
        }
    }

    /** Shuts down (the first call decides) and returns how many accepted items were left. */
    @Operation
    public long shutdown() {
        return pool.shutdown(Duration.ofSeconds(30)).eventsLeft("p");
    }

    /** The sequential meaning: offers are accepted until the first shutdown, which counts them. */
    public static class Spec {
        private long accepted;
        private long result = -1;

        public boolean offer() {
            if (result >= 0) {
                return false;
            }
            accepted++;
            return true;
        }

        public long shutdown() {
            if (result < 0) {
                result = accepted;
            }
            return result;
        }
    }

    @Test
    public void modelChecking() {
        options().check(getClass());
    }

    @Test
    @Tag("stress")
    public void theModelCheckCatchesAShutdownThatDoesNotWaitForOffersInFlight() {
        final Throwable caught = assertThrows(Throwable.class, () -> options().check(NoInFlightWait.class),
                "a shutdown that counts the queue while an accepted offer is still on its way must fail");
        final String message = String.valueOf(caught.getMessage());
        System.out.println("[lincheck] mutant: " + message.substring(0, Math.min(message.length(), 1500)));
        assertTrue(message.contains("Invalid execution results"), message);
    }

    private static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                // half the full count in every build; -Dslipstream.stress.long=true runs all of it
                .iterations(TestSize.pick(2, 5, 10))
                .invocationsPerIteration(250)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(Spec.class);
    }

    /**
     * MUTANT: a copy of the pool's offer and shutdown without the count of offers in flight. Test
     * code only.
     */
    public static class NoInFlightWait {
        private final ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
        private volatile boolean stopping;
        private long result = -1;

        @Operation
        public boolean offer() {
            if (stopping) {
                return false;
            }
            return queue.offer(1);
        }

        @Operation
        public synchronized long shutdown() {
            if (result < 0) {
                stopping = true;
                result = queue.size();
            }
            return result;
        }
    }
}
