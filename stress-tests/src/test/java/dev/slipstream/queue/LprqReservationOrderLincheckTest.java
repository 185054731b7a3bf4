package dev.slipstream.queue;

import dev.slipstream.stress.TestSize;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The production {@link LprqQueue} under the model checker, in the scenario of the order bug its
 * rings had: a dequeuer of an older lap that nulled another position's reservation. The first
 * ring's cells are made unsafe before the scenario starts (the state a ring reaches after
 * dequeuers have lapped late ones; here written directly into the ring's epoch words, which this
 * package can reach), so that the scenario's offers take the reservation path at once.
 *
 * <p>The execution the model checker found on the queue before the fix (rings of two cells; after
 * {@code offer(1), poll()} the even cell is safe and the odd one unsafe and empty): the offer of 3
 * takes position 1 and reserves the odd cell; the first poll takes position 1, finds the
 * reservation under the unsafe epoch and nulls it; before that poll moves the epoch, the enqueuer
 * sets it to position 1's ({@code 1 + 2}) and, its reservation gone, puts 3 at position 2; the
 * offer of 4 takes position 3 and claims the odd cell, null under position 1's epoch; the first
 * poll, reading the cell again, finds its own position's epoch and an element, and takes 4: 4
 * leaves before 3, offered before it by the same thread. Since the fix a dequeuer nulls a
 * reservation only once the epoch names its own position (then the enqueuer's epoch CAS is
 * behind it), and otherwise changes only the epoch word.
 *
 * <p>Budget: the model checker reached that execution on the old queue within 200,000
 * invocations ({@code -Dslipstream.lincheck.invocations=200000}, 108 s on two loaded cores), not
 * within 20,000; every build runs 20,000 (the scenario as a regression check), and
 * {@code LprqMutantLincheckTest} is the proof that the scenario catches the bug: on the
 * algorithm with the old step it reaches the execution within its budget.
 */
@Tag("scaled")
public class LprqReservationOrderLincheckTest {
    private final LprqQueue<Integer> queue = new LprqQueue<>(2, false, 0L);

    public LprqReservationOrderLincheckTest() {
        // every cell of the first ring unsafe, as after a dequeuer passed an older lap's element
        Arrays.fill(queue.headRing.epochs, PrqRing.UNSAFE);
    }

    @Operation
    public boolean offer(final int e) {
        return queue.offer(e);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    /** The sequential FIFO queue the results must match. */
    public static final class Fifo {
        private final ArrayDeque<Integer> elements = new ArrayDeque<>();

        public boolean offer(final int e) {
            return elements.add(e);
        }

        public Integer poll() {
            return elements.poll();
        }
    }

    /**
     * The scenario described above, for this class's operations or for any class with the same
     * two public operations.
     *
     * @param operations the class whose {@code offer(int)} and {@code poll()} the actors call
     * @return the scenario
     */
    public static ExecutionScenario reservationNulledByAnOlderLap(final Class<?> operations) {
        try {
            final Method offer = operations.getMethod("offer", int.class);
            final Method poll = operations.getMethod("poll");
            return new ExecutionScenario(
                    List.of(new Actor(offer, List.of(1)), new Actor(poll, List.of())),
                    List.of(List.of(new Actor(offer, List.of(2))),
                            List.of(new Actor(poll, List.of()), new Actor(poll, List.of())),
                            List.of(new Actor(offer, List.of(3)), new Actor(offer, List.of(4)))),
                    List.of(new Actor(poll, List.of())),
                    null);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    public void noDequeuerTakesALaterElementAheadOfAnEarlierOne() {
        new ModelCheckingOptions()
                .sequentialSpecification(Fifo.class)
                .iterations(0)
                .invocationsPerIteration(Integer.getInteger("slipstream.lincheck.invocations", TestSize.pick(3_000, 20_000, 200_000)))
                .addCustomScenario(reservationNulledByAnOlderLap(LprqReservationOrderLincheckTest.class))
                .check(LprqReservationOrderLincheckTest.class);
    }
}
