package dev.slipstream.bench.queue;

import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-thread state: the element this thread offers (one object, so nothing is allocated per
 * operation), precomputed tables of random operations for the mixed shapes, and the thread's
 * balance of offers over polls that keeps the queues from growing without bound.
 */
@State(Scope.Thread)
public class Worker {
    private static final AtomicInteger IDS = new AtomicInteger();
    /** Length of each operation table: a power of two, long enough to hide any period. */
    static final int TABLE = 1 << 12;

    Integer element;
    boolean[] offer50;
    boolean[] offer30;
    boolean[] offer70;
    int cursor;
    long balance;

    @Setup
    public void setUp() {
        final int id = IDS.incrementAndGet();
        element = 1_000_000 + id; // outside the Integer cache, different per thread
        final SplittableRandom random = new SplittableRandom(0x5EED + id);
        offer50 = table(random, 50);
        offer30 = table(random, 30);
        offer70 = table(random, 70);
    }

    private static boolean[] table(final SplittableRandom random, final int percentOffers) {
        final boolean[] t = new boolean[TABLE];
        for (int i = 0; i < TABLE; i++) {
            t[i] = random.nextInt(100) < percentOffers;
        }
        return t;
    }

    /** The next entry of a table: true means offer, false means poll. */
    boolean next(final boolean[] table) {
        return table[cursor++ & (TABLE - 1)];
    }

    /** Records a successful offer; polls back {@link Queues#DRAIN_AT} once this thread is that far ahead. */
    void offered(final Queue<Integer> q) {
        if (++balance >= Queues.DRAIN_AT) {
            while (balance > 0 && q.poll() != null) {
                balance--;
            }
            balance = 0;
        }
    }

    /** One operation of a mixed shape: offers or polls as the table's next entry says. */
    Object mixed(final Queue<Integer> q, final boolean[] table) {
        if (next(table)) {
            if (q.offer(element)) {
                offered(q);
                return Boolean.TRUE;
            }
            return Boolean.FALSE;
        }
        final Integer e = q.poll();
        if (e != null) {
            polled();
        }
        return e;
    }

    /** Records a successful poll. */
    void polled() {
        balance--;
    }
}
