package dev.slipstream.cluster;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.AgentTerminationException;

/**
 * The child JVM of {@link ClusterMemberSafetyTest}. Arguments: a mode, a directory, a base port
 * and how the member is stopped: {@code error} (the service thread throws
 * {@code new AssertionError("boom")}) or {@code termination} (it throws
 * {@code new AgentTerminationException("boom")}, as the pipeline service does when a stage failed).
 *
 * <ul>
 *   <li>{@code guarded}: starts a one-member cluster whose service thread then throws
 *       ({@link StoppingService}); a health thread calls every method of the member
 *       in a loop while it stops (about 2 s), while another thread closes it, and for a while
 *       after; then this thread calls every method once more. Prints {@code OUTCOME <phase>
 *       <method> <kind> <count> | <first message>} per kind of outcome (a value's kind is the
 *       value; an exception's is {@code ISE-stopped}, {@code ISE-closed}, {@code ISE-other} or
 *       {@code EXCEPTION-<class>}), then {@code DONE}, and exits 0 if the JVM survived.</li>
 *   <li>{@code unguarded}: the same with the seeded bug ({@link ContextCounters}: the member reads
 *       through the consensus module's own counters), which crashes the JVM.</li>
 *   <li>{@code no-flag}: starts a member (run without {@code --add-opens}) and prints
 *       {@code REFUSED <message>} for the {@link ClusterStartException}.</li>
 * </ul>
 *
 * <pre>{@code
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp ... dev.slipstream.cluster.MemberSafetyChild guarded /tmp/x 23300 error
 * }</pre>
 */
public final class MemberSafetyChild {
    private static final long LIMIT_NS = TimeUnit.SECONDS.toNanos(30);
    private final Map<String, AtomicLong> counts = new ConcurrentSkipListMap<>();
    private final Map<String, String> firstMessages = new ConcurrentSkipListMap<>();

    private MemberSafetyChild() {
    }

    public static void main(final String[] args) throws Exception {
        final String mode = args[0];
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:" + args[2]), Path.of(args[1], "member-0"));
        if ("no-flag".equals(mode)) {
            try (ClusterMember member = ClusterMember.start(config, new IdleService())) {
                System.out.println("STARTED " + member.config().memberId());
            } catch (final ClusterStartException e) {
                System.out.println("REFUSED " + e.getMessage());
            }
            return;
        }
        if ("unguarded".equals(mode)) {
            ClusterMember.countersForTests = ContextCounters::new;
        }
        new MemberSafetyChild().run(config, "termination".equals(args[3])
                ? new AgentTerminationException(StoppingService.MESSAGE) : new AssertionError(StoppingService.MESSAGE));
        System.out.println("DONE");
        System.out.flush();
        // the service thread died with its Error: its Aeron client is never closed, so end here
        System.exit(0);
    }

    private void run(final MemberConfig config, final Throwable failure) throws InterruptedException {
        final StoppingService service = new StoppingService(TestPipelines.service(Ledger::new,
                new AtomicReference<>()));
        final ClusterMember member = ClusterMember.start(config, service);
        final long deadline = System.nanoTime() + LIMIT_NS;
        while (!leads(member)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("member 0 did not become leader within 30 s");
            }
            Thread.sleep(10);
        }
        final AtomicBoolean calling = new AtomicBoolean(true);
        final Thread health = new Thread(() -> {
            while (calling.get()) {
                callEach("during", member);
                Thread.yield();
            }
        }, "health");
        health.start();
        Thread.sleep(200);  // a few rounds while the member still runs
        service.fail(failure);
        Thread.sleep(2_000);
        final Thread closer = new Thread(member::close, "closer");
        closer.start();
        closer.join(TimeUnit.NANOSECONDS.toMillis(LIMIT_NS));
        if (closer.isAlive()) {
            throw new AssertionError("close() did not return within 30 s");
        }
        Thread.sleep(200);  // the health thread goes on calling the closed member
        calling.set(false);
        health.join();
        callEach("after", member);
        member.close();
        record("after", "closeAgain", () -> "returned");
        for (final Map.Entry<String, AtomicLong> outcome : counts.entrySet()) {
            System.out.println("OUTCOME " + outcome.getKey() + " " + outcome.getValue() + " | "
                    + firstMessages.get(outcome.getKey()));
        }
    }

    private static boolean leads(final ClusterMember member) {
        try {
            return member.role() == Cluster.Role.LEADER;
        } catch (final IllegalStateException e) {
            throw new AssertionError("member 0 refused role() before it failed: " + e.getMessage(), e);
        }
    }

    private void callEach(final String phase, final ClusterMember member) {
        record(phase, "role", member::role);
        record(phase, "snapshotCount", () -> member.snapshotCount() >= 0 ? "counted" : "negative");
        record(phase, "requestSnapshot", member::requestSnapshot);
        record(phase, "isRunning", member::isRunning);
        record(phase, "failure", () -> member.failure().map(Throwable::toString).orElse("empty"));
        record(phase, "config", () -> member.config().memberId());
    }

    private void record(final String phase, final String method, final Callable<Object> call) {
        String kind;
        String message;
        try {
            kind = String.valueOf(call.call()).replace(' ', '_');
            message = "";
        } catch (final IllegalStateException e) {
            message = e.getMessage();
            kind = message.contains(" is closed") ? "ISE-closed" : message.contains(" is stopped: ") ? "ISE-stopped"
                    : "ISE-other";
        } catch (final Exception e) {
            message = String.valueOf(e);
            kind = "EXCEPTION-" + e.getClass().getName();
        }
        final String key = phase + " " + method + " " + kind;
        counts.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
        firstMessages.putIfAbsent(key, message);
    }

    /** A service that does nothing, and whose construction touches no Agrona buffer. */
    private static final class IdleService implements ClusteredService {
        @Override
        public void onStart(final Cluster cluster, final io.aeron.Image snapshotImage) {
        }

        @Override
        public void onSessionOpen(final ClientSession session, final long timestamp) {
        }

        @Override
        public void onSessionClose(final ClientSession session, final long timestamp,
                final io.aeron.cluster.codecs.CloseReason closeReason) {
        }

        @Override
        public void onSessionMessage(final ClientSession session, final long timestamp,
                final org.agrona.DirectBuffer buffer, final int offset, final int length,
                final io.aeron.logbuffer.Header header) {
        }

        @Override
        public void onTimerEvent(final long correlationId, final long timestamp) {
        }

        @Override
        public void onTakeSnapshot(final io.aeron.ExclusivePublication snapshotPublication) {
        }

        @Override
        public void onRoleChange(final Cluster.Role newRole) {
        }

        @Override
        public void onTerminate(final Cluster cluster) {
        }
    }
}
