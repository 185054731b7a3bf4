package dev.slipstream.queue;

import com.google.common.collect.testing.QueueTestSuiteBuilder;
import com.google.common.collect.testing.TestStringQueueGenerator;
import com.google.common.collect.testing.features.CollectionFeature;
import com.google.common.collect.testing.features.CollectionSize;
import com.google.common.collect.testing.features.Feature;
import com.google.common.collect.testing.testers.CollectionClearTester;
import dev.slipstream.wait.HybridWaitStrategy;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Queue;
import java.util.function.Supplier;
import junit.framework.Test;
import junit.framework.TestSuite;
import org.junit.runner.RunWith;
import org.junit.runners.AllTests;

/**
 * Guava testlib's standard {@link Queue} contract suite, run by the JUnit Vintage engine against
 * every queue class: SCQ at capacities 8 and 64, LSCQ with segments of 1, 2 and the default, LPRQ
 * with rings of 1, 2 and the default (and with each {@link LprqQueue.Contention} setting at 1 and 2),
 * the candidate bounded queue {@link SlotSequenceQueue} at 8 and 64,
 * the blocking variants, and counters started near the top of the 64-bit range (for SCQ where
 * the counters wrap around 2^64 and where {@code p << 1} changes sign, for LSCQ just below 2^62,
 * where {@code p << 1} changes sign).
 *
 * <p>Features are declared as the queues are: elements keep insertion order, nulls are refused
 * ({@code ALLOWS_NULL_VALUES} absent) but {@code contains(null)} answers false
 * ({@code ALLOWS_NULL_QUERIES}), {@code add} works, the iterator is weakly consistent (no
 * {@code FAILS_FAST_ON_CONCURRENT_MODIFICATION}) and cannot remove. Testlib has one feature,
 * {@code SUPPORTS_REMOVE}, for {@code remove(Object)}, {@code removeAll}, {@code retainAll},
 * {@code removeIf}, {@code clear}, {@code poll} and {@code remove()}; the queues support the last
 * three only. So each queue gets two suites: the whole collection suite without
 * {@code SUPPORTS_REMOVE} (it checks that the removal methods throw
 * {@link UnsupportedOperationException}), and the queue testers alone ({@code poll},
 * {@code remove()}, {@code peek}, {@code element}, {@code offer}) with it.
 */
@RunWith(AllTests.class)
public class QueueTestlibSuiteTest {

    /** Features of every configuration. */
    private static final Feature<?>[] FEATURES = {
        CollectionFeature.KNOWN_ORDER,
        CollectionFeature.SUPPORTS_ADD,
        CollectionFeature.ALLOWS_NULL_QUERIES,
        CollectionSize.ANY,
    };

    /**
     * The suite JUnit Vintage runs.
     *
     * @return every configuration's suites
     */
    public static Test suite() {
        final TestSuite all = new TestSuite("Guava testlib Queue suites");
        add(all, "ScqQueue 8", () -> new ScqQueue<>(8));
        add(all, "ScqQueue 64", () -> new ScqQueue<>(64));
        add(all, "ScqQueue 8 from 2^64 - 3", () -> new ScqQueue<>(8, true, -3L));
        add(all, "ScqQueue 64 from 2^63 - 3", () -> new ScqQueue<>(64, true, Long.MAX_VALUE - 2));
        add(all, "ScqQueue 8 from 2^62 - 3", () -> new ScqQueue<>(8, true, (1L << 62) - 3));
        add(all, "LscqQueue 1", () -> new LscqQueue<>(1));
        add(all, "LscqQueue 2", () -> new LscqQueue<>(2));
        add(all, "LscqQueue", LscqQueue::new);
        add(all, "LscqQueue 1 from 2^62 - 3", () -> new LscqQueue<>(1, true, (1L << 62) - 3));
        add(all, "LscqQueue 2 from 2^62 - 3", () -> new LscqQueue<>(2, true, (1L << 62) - 3));
        add(all, "LprqQueue 1", () -> new LprqQueue<>(1));
        add(all, "LprqQueue 2", () -> new LprqQueue<>(2));
        add(all, "LprqQueue", LprqQueue::new);
        add(all, "LprqQueue 2 from 2^62 - 3", () -> new LprqQueue<>(2, false, (1L << 62) - 3));
        for (final LprqQueue.Contention contention : LprqQueue.Contention.values()) {
            add(all, "LprqQueue 1 " + contention, () -> new LprqQueue<>(1, contention));
            add(all, "LprqQueue 2 " + contention, () -> new LprqQueue<>(2, contention));
        }
        add(all, "SlotSequenceQueue 8", () -> new SlotSequenceQueue<>(8));
        add(all, "SlotSequenceQueue 64", () -> new SlotSequenceQueue<>(64));
        add(all, "SlotSequenceQueue 64 without remap", () -> new SlotSequenceQueue<>(64, false));
        add(all, "SlotSequenceQueue 8 backing off", () -> SlotSequenceQueue.backingOff(8));
        add(all, "SlotSequenceQueue 8 from 2^64 - 3", () -> new SlotSequenceQueue<>(8, true, -3L));
        add(all, "SlotSequenceQueue 64 from 2^63 - 3", () -> new SlotSequenceQueue<>(64, true, Long.MAX_VALUE - 2));
        add(all, "ScqBlockingQueue 8", () -> new ScqBlockingQueue<>(8));
        add(all, "ScqBlockingQueue 64", () -> new ScqBlockingQueue<>(64));
        add(all, "ScqBlockingQueue 8 from 2^64 - 3",
                () -> new ScqBlockingQueue<>(8, new HybridWaitStrategy(), -3L));
        add(all, "LscqBlockingQueue 1", () -> new LscqBlockingQueue<>(1, new HybridWaitStrategy()));
        add(all, "LscqBlockingQueue 2", () -> new LscqBlockingQueue<>(2, new HybridWaitStrategy()));
        add(all, "LscqBlockingQueue", LscqBlockingQueue::new);
        add(all, "LscqBlockingQueue 2 from 2^62 - 3",
                () -> new LscqBlockingQueue<>(2, new HybridWaitStrategy(), (1L << 62) - 3));
        add(all, "LprqBlockingQueue 1", () -> new LprqBlockingQueue<>(1, new HybridWaitStrategy()));
        add(all, "LprqBlockingQueue 2", () -> new LprqBlockingQueue<>(2, new HybridWaitStrategy()));
        add(all, "LprqBlockingQueue", LprqBlockingQueue::new);
        add(all, "LprqBlockingQueue 2 from 2^62 - 3",
                () -> new LprqBlockingQueue<>(2, new HybridWaitStrategy(), (1L << 62) - 3));
        return all;
    }

    private static void add(final TestSuite all, final String name, final Supplier<Queue<String>> factory) {
        final TestStringQueueGenerator generator = new TestStringQueueGenerator() {
            @Override
            protected Queue<String> create(final String[] elements) {
                final Queue<String> q = factory.get();
                q.addAll(Arrays.asList(elements));
                return q;
            }
        };
        all.addTest(QueueTestSuiteBuilder.using(generator)
                .named(name)
                .withFeatures(FEATURES)
                // clear() is supported (it polls until empty, see QueueContractTest); testlib
                // expects it to throw because it ties clear() to SUPPORTS_REMOVE, which these
                // queues cannot declare for remove(Object)
                .suppressing(clearUnsupported())
                .createTestSuite());
        final Feature<?>[] withRemove = Arrays.copyOf(FEATURES, FEATURES.length + 1);
        withRemove[FEATURES.length] = CollectionFeature.SUPPORTS_REMOVE;
        all.addTest(QueueTestSuiteBuilder.using(generator)
                .named(name + " [poll and remove]")
                .withFeatures(withRemove)
                .skipCollectionTests()
                .createTestSuite());
    }

    private static Method clearUnsupported() {
        try {
            return CollectionClearTester.class.getMethod("testClear_unsupported");
        } catch (NoSuchMethodException e) {
            throw new AssertionError("testlib changed: " + e.getMessage(), e);
        }
    }
}
