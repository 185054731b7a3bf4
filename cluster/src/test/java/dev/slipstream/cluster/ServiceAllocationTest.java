package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The service thread's duty cycle allocates nothing: {@code doBackgroundWork} runs on every
 * cycle of the cluster's service agent, hundreds of thousands of times a second when the
 * member is busy, and garbage made there is collected in pauses that every command waits for.
 * The service runs against a stub cluster, the test thread as its service thread, as leader
 * and as follower; the thread's allocated bytes are read around the calls.
 */
class ServiceAllocationTest {
    private static final int WARM = 20_000;
    private static final int MEASURED = 200_000;

    /** Where the seeded copy escapes to, so that the compiler cannot leave it out. */
    private static volatile Object[] copied;

    private final ClientSession session = Stubs.session();
    private final Cluster cluster = Stubs.cluster(session, (method, args) -> switch (method) {
        case "clientSessions" -> List.of();
        default -> throw new UnsupportedOperationException("the stub cluster has no " + method);
    });

    @Test
    void theLeadersAndAFollowersBackgroundWorkAllocatesNothing() {
        final PipelineClusteredService<Amount> service = PipelineClusteredService.builder(Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(64)
                .pipeline((pipeline, outbox, states) -> pipeline.handleEventsWith(new Ledger()))
                .build();
        service.onStart(cluster, null);
        try {
            service.onRoleChange(Cluster.Role.LEADER);
            assertAllocatesNothing("the leader's doBackgroundWork", () -> service.doBackgroundWork(0));
            service.onRoleChange(Cluster.Role.FOLLOWER);
            assertAllocatesNothing("a follower's doBackgroundWork", () -> service.doBackgroundWork(0));
        } finally {
            service.onTerminate(cluster);
        }
    }

    @Test
    void theCheckCatchesACallThatCopiesAnEmptyListEachTime() {
        // how the pipeline's failures were once read on every cycle: a copy of an empty array per call
        final List<String> none = new CopyOnWriteArrayList<>();
        final AssertionError caught = assertThrows(AssertionError.class,
                () -> assertAllocatesNothing("a copy of an empty list", () -> {
                    copied = none.toArray();
                    return copied.length;
                }));
        assertTrue(caught.getMessage().contains("a copy of an empty list allocated"), caught.getMessage());
    }

    /** Runs {@code call} WARM times, then MEASURED times while counting this thread's allocated bytes. */
    private static void assertAllocatesNothing(final String what, final IntSupplier call) {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "needs HotSpot's ThreadMXBean");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        final long thread = Thread.currentThread().getId();
        long sink = 0;
        for (int i = 0; i < WARM; i++) {
            sink += call.getAsInt();
        }
        final long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < MEASURED; i++) {
            sink += call.getAsInt();
        }
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;
        // the bean's own bookkeeping is a few hundred bytes over the whole run; one object per
        // call would be 16 bytes or more each
        final double perCall = (double) allocated / MEASURED;
        assertTrue(perCall < 0.1, what + " allocated " + allocated + " bytes over " + MEASURED + " calls: " + perCall
                + " per call (sink " + sink + ")");
        assertEquals(0, sink, what + " reported work where there was none");
    }
}
