package dev.slipstream.journal;

import java.time.Duration;

/**
 * When the journal forces its writes to the storage device. Every policy writes each record into
 * the page cache (a shared memory mapping of the segment file) before the stage moves on, so
 * <b>a process that dies (a crash, {@code kill -9}, an {@code OutOfMemoryError}) loses nothing
 * that the stage handled</b>: the kernel holds those pages and writes them back on its own. The
 * policies differ in what survives the machine itself going down:
 *
 * <table>
 *   <caption>What each policy survives</caption>
 *   <tr><th>policy</th><th>process kill</th><th>OS crash or power loss</th><th>cost</th></tr>
 *   <tr><td>{@link #everyBatch()}</td><td>nothing lost</td>
 *       <td>nothing lost that a later stage saw or {@link JournalStage#durableSequence()}
 *       reported</td><td>one {@code force} (msync) per batch</td></tr>
 *   <tr><td>{@link #atMostEvery(Duration)}</td><td>nothing lost</td>
 *       <td>loses events after {@link JournalStage#durableSequence()}: while events flow, those of
 *       the last interval at most; a later stage may have seen them</td>
 *       <td>at most one force per interval</td></tr>
 *   <tr><td>{@link #never()}</td><td>nothing lost</td>
 *       <td>loses whatever the kernel had not written back yet (by default up to about 30 s of
 *       events); the durable sequence never advances</td><td>no force</td></tr>
 * </table>
 *
 * <p>With {@link #everyBatch()} a stage placed after the journal stage sees an event only after it
 * is on the device (group commit: one force covers the whole batch, so the force rate adapts to
 * the load). With the other two, a later stage sees events that are in the page cache only.
 *
 * <pre>{@code
 * JournalConfig config = JournalConfig.of(dir).syncPolicy(SyncPolicy.atMostEvery(Duration.ofMillis(1)));
 * }</pre>
 */
public final class SyncPolicy {
    /** How a policy decides; package-private so that the writer can switch on it. */
    enum Kind { EVERY_BATCH, INTERVAL, NEVER }

    private static final SyncPolicy EVERY_BATCH = new SyncPolicy(Kind.EVERY_BATCH, 0L);
    private static final SyncPolicy NEVER = new SyncPolicy(Kind.NEVER, 0L);

    private final Kind kind;
    private final long intervalNanos;

    private SyncPolicy(final Kind kind, final long intervalNanos) {
        this.kind = kind;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Forces at the end of every batch, before the stage's sequence advances: the default.
     *
     * @return the policy
     */
    public static SyncPolicy everyBatch() {
        return EVERY_BATCH;
    }

    /**
     * Forces at the end of a batch only if the last force is at least {@code interval} ago. A batch
     * that ends sooner stays in the page cache until the end of a later batch, a wait-strategy
     * timeout of the stage ({@link JournalStage#onTimeout(long)}), or its shutdown: with a
     * blocking, non-timing-out wait strategy an idle journal may hold unforced events longer than
     * the interval.
     *
     * @param interval the shortest time between two forces, positive
     * @return the policy
     * @throws IllegalArgumentException if {@code interval} is zero or negative
     * @throws NullPointerException if {@code interval} is null
     */
    public static SyncPolicy atMostEvery(final Duration interval) {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("sync interval must be positive, got " + interval
                    + "; use SyncPolicy.everyBatch() to force every batch");
        }
        return new SyncPolicy(Kind.INTERVAL, interval.toNanos());
    }

    /**
     * Never forces: the page cache only, written back by the kernel when it chooses.
     *
     * @return the policy
     */
    public static SyncPolicy never() {
        return NEVER;
    }

    Kind kind() {
        return kind;
    }

    long intervalNanos() {
        return intervalNanos;
    }

    @Override
    public String toString() {
        switch (kind) {
            case EVERY_BATCH:
                return "SyncPolicy.everyBatch()";
            case NEVER:
                return "SyncPolicy.never()";
            default:
                return "SyncPolicy.atMostEvery(" + Duration.ofNanos(intervalNanos) + ")";
        }
    }
}
