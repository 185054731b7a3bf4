package dev.slipstream.aeron;

import dev.slipstream.processor.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** The receiving side's stage: checks each producer's order and values; optionally slow. */
final class OrderChecker implements EventHandler<TestEvent> {
    private final long[] next;
    private final int sleepEvery;
    private final long sleepNanos;
    private final List<String> problems = new ArrayList<>();
    private volatile long received;
    private long checksum;

    OrderChecker(final int producers, final int sleepEvery, final long sleepMicros) {
        this.next = new long[producers];
        this.sleepEvery = sleepEvery;
        this.sleepNanos = TimeUnit.MICROSECONDS.toNanos(sleepMicros);
    }

    @Override
    public void onEvent(final TestEvent e, final long sequence, final boolean endOfBatch) {
        if (e.producer < 0 || e.producer >= next.length) {
            problem("corrupt event at ring sequence " + sequence + ": producer " + e.producer);
        } else {
            if (e.number != next[e.producer]) {
                problem("producer " + e.producer + ": expected number " + next[e.producer] + ", got " + e.number);
            }
            next[e.producer] = e.number + 1;
            if (e.value != TestEvent.valueOf(e.producer, e.number)) {
                problem("producer " + e.producer + " number " + e.number + ": wrong value");
            }
            checksum += e.value;
        }
        // release store (volatile): the test thread polls it to know when everything arrived
        received = received + 1;
        if (sleepEvery > 0 && received % sleepEvery == 0) {
            LockSupport.parkNanos(sleepNanos);
        }
    }

    private void problem(final String what) {
        if (problems.size() < 10) {
            problems.add(what);
        }
    }

    long received() {
        return received;
    }

    /** Read after the stage's thread was joined (the pipeline's shutdown). */
    long checksum() {
        return checksum;
    }

    long nextOf(final int producer) {
        return next[producer];
    }

    List<String> problems() {
        return problems;
    }
}
