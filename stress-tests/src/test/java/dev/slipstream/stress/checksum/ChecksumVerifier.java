package dev.slipstream.stress.checksum;

import dev.slipstream.processor.EventHandler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Checks the stream one consumer sees: every producer's events arrive in that producer's order
 * with no gap and no repeat, ring sequences arrive consecutively, and the sums add up. Runs on
 * the consumer thread; read its results once {@link #awaitLast} returned true (the latch orders
 * the consumer's writes before the reader's reads) or the consumer thread has been joined.
 */
final class ChecksumVerifier implements EventHandler<ChecksumEvent> {
    private final long[] nextCount;
    private final long lastExpected;
    private final CountDownLatch last = new CountDownLatch(1);
    private long lastSequence = -1;
    private int lastProducer = -1;
    private long producerSwitches;
    private long events;
    private long sum;
    private long errors;
    private String firstError;

    ChecksumVerifier(final int producers, final long lastExpected) {
        this.nextCount = new long[producers];
        this.lastExpected = lastExpected;
    }

    /** Waits until the event of sequence {@code lastExpected} has been verified. */
    boolean awaitLast(final long timeout, final TimeUnit unit) throws InterruptedException {
        return last.await(timeout, unit);
    }

    @Override
    public void onEvent(final ChecksumEvent event, final long sequence, final boolean endOfBatch) {
        final long value = event.value;
        // Poison the slot: if it is handed out again before a producer rewrites it, we see CONSUMED.
        event.value = ChecksumEvent.CONSUMED;
        final int producer = (int) (value >>> ChecksumEvent.PRODUCER_SHIFT);
        final long count = value & ChecksumEvent.COUNT_MASK;
        if (sequence != lastSequence + 1) {
            error("sequence " + sequence + " follows " + lastSequence);
        }
        lastSequence = sequence;
        if (value == ChecksumEvent.CONSUMED || producer < 0 || producer >= nextCount.length) {
            error("sequence " + sequence + " holds " + Long.toHexString(value) + ": not written since last read");
        } else {
            if (count != nextCount[producer]) {
                error("sequence " + sequence + ": producer " + producer + " event " + count
                        + ", expected event " + nextCount[producer]);
            }
            nextCount[producer] = count + 1;
            if (producer != lastProducer) {
                producerSwitches++;
                lastProducer = producer;
            }
        }
        events++;
        sum += value;
        if (sequence == lastExpected) {
            last.countDown();
        }
    }

    private void error(final String what) {
        if (errors++ == 0) {
            firstError = what;
        }
    }

    long events() {
        return events;
    }

    long lastSequence() {
        return lastSequence;
    }

    long errors() {
        return errors;
    }

    String firstError() {
        return firstError;
    }

    long nextCount(final int producer) {
        return nextCount[producer];
    }

    /** How often the stream changed from one producer's events to another's: how much they interleaved. */
    long producerSwitches() {
        return producerSwitches;
    }

    long sum() {
        return sum;
    }

    /** The sum of every value that {@code producers} producers of {@code perProducer} events publish. */
    static long expectedSum(final int producers, final long perProducer) {
        long total = 0;
        for (int p = 0; p < producers; p++) {
            total += ChecksumEvent.encode(p, 0) * perProducer + perProducer * (perProducer - 1) / 2;
        }
        return total;
    }
}
