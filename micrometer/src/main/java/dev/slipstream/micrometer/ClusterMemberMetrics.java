package dev.slipstream.micrometer;

import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Binds the meters of one cluster member ({@link ClusterMember}) to a Micrometer registry. Each
 * meter reads {@link ClusterMember#status()} when the registry asks for a value; nothing runs
 * between two reads.
 *
 * <table>
 *   <caption>Meters (each tagged {@code member=<id>} and with the tags given)</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code slipstream.cluster.running}</td><td>gauge</td><td>1 while the member runs, else 0</td></tr>
 *   <tr><td>{@code slipstream.cluster.role}</td><td>gauge</td><td>0 follower, 1 candidate, 2 leader
 *       (Aeron's role codes)</td></tr>
 *   <tr><td>{@code slipstream.cluster.leader}</td><td>gauge</td><td>the member that leads the latest term</td></tr>
 *   <tr><td>{@code slipstream.cluster.leadership.term}</td><td>gauge</td><td>the latest leadership term's id</td></tr>
 *   <tr><td>{@code slipstream.cluster.commit.position}</td><td>gauge</td><td>the log position the cluster
 *       has committed, in bytes</td></tr>
 *   <tr><td>{@code slipstream.cluster.snapshots}</td><td>function counter</td><td>snapshots taken since
 *       the member started</td></tr>
 *   <tr><td>{@code slipstream.cluster.snapshot.last.duration}</td><td>time gauge</td><td>how long the
 *       latest snapshot took (waiting for the stages, then writing)</td></tr>
 *   <tr><td>{@code slipstream.cluster.clients}</td><td>gauge</td><td>clients the at-most-once table remembers</td></tr>
 *   <tr><td>{@code slipstream.cluster.sessions}</td><td>gauge</td><td>client sessions bound to a client id</td></tr>
 *   <tr><td>{@code slipstream.cluster.outbox.backlog}</td><td>gauge</td><td>replies queued and not yet
 *       offered to their sessions</td></tr>
 *   <tr><td>{@code slipstream.cluster.commands.rejected}</td><td>function counter</td><td>commands a stage
 *       or the decoder threw for, answered rejected</td></tr>
 *   <tr><td>{@code slipstream.cluster.replies.undeliverable}</td><td>function counter</td><td>replies whose
 *       session was gone</td></tr>
 *   <tr><td>{@code slipstream.cluster.elections}</td><td>function counter</td><td>elections the member has
 *       taken part in since it started: one more per leader change; a rise while no leader was
 *       stopped is an election nobody needed</td></tr>
 *   <tr><td>{@code slipstream.cluster.archive.size}</td><td>gauge</td><td>the bytes of the member's
 *       recordings (log and snapshots) on disk, as last measured</td></tr>
 *   <tr><td>{@code slipstream.cluster.log.start.position}</td><td>gauge</td><td>the lowest log position the
 *       member's archive still holds (it rises with each purge); NaN for a member that purges nothing</td></tr>
 * </table>
 *
 * <p>A figure the member cannot give reads {@code NaN}: every meter but
 * {@code slipstream.cluster.running} once the member is closed, the counters its consensus module
 * freed once it has stopped, and the service's figures for a service other than a
 * {@link dev.slipstream.cluster.PipelineClusteredService}. The meters hold the member through a
 * weak reference, as Micrometer does by default.
 *
 * <p>The module {@code dev.slipstream.micrometer} reads {@code dev.slipstream.cluster} only if it
 * is there ({@code requires static}); the Maven dependency on {@code slipstream-cluster} is
 * optional. An application that binds a member has the cluster module already.
 *
 * <pre>{@code
 * ClusterMember member = ClusterMember.start(config, service);
 * new ClusterMemberMetrics(member, Tags.of("service", "matching")).bindTo(registry);
 * }</pre>
 */
public final class ClusterMemberMetrics implements MeterBinder {
    private final ClusterMember member;
    private final Iterable<Tag> tags;

    /**
     * Meters for a member, tagged with its id only.
     *
     * @param member the member
     * @throws NullPointerException if {@code member} is null
     */
    public ClusterMemberMetrics(final ClusterMember member) {
        this(member, Tags.empty());
    }

    /**
     * Meters for a member, tagged with its id and the given tags.
     *
     * @param member the member
     * @param tags extra tags for every meter
     * @throws NullPointerException if an argument is null
     */
    public ClusterMemberMetrics(final ClusterMember member, final Iterable<Tag> tags) {
        this.member = Objects.requireNonNull(member, "member must not be null");
        this.tags = Tags.concat(Objects.requireNonNull(tags, "tags must not be null"), "member",
                Integer.toString(member.config().memberId()));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry must not be null");
        Gauge.builder("slipstream.cluster.running", member, ClusterMemberMetrics::running)
                .description("1 while the cluster member runs, else 0").tags(tags).register(registry);
        gauge(registry, "slipstream.cluster.role", MemberStatus::roleCode,
                "The member's role: 0 follower, 1 candidate, 2 leader", null);
        gauge(registry, "slipstream.cluster.leader", MemberStatus::leaderMemberId,
                "The member that leads the latest leadership term", null);
        gauge(registry, "slipstream.cluster.leadership.term", MemberStatus::leadershipTermId,
                "The latest leadership term's id", null);
        gauge(registry, "slipstream.cluster.commit.position", MemberStatus::commitPosition,
                "The log position the cluster has committed", "bytes");
        FunctionCounter.builder("slipstream.cluster.snapshots", member, figure(MemberStatus::snapshotCount))
                .description("Snapshots taken since the member started").tags(tags).register(registry);
        TimeGauge.builder("slipstream.cluster.snapshot.last.duration", member, TimeUnit.NANOSECONDS,
                        figure(MemberStatus::lastSnapshotNanos))
                .description("How long the latest snapshot took: waiting for the stages, then writing")
                .tags(tags).register(registry);
        gauge(registry, "slipstream.cluster.clients", MemberStatus::clientsRemembered,
                "Clients the at-most-once table remembers", "clients");
        gauge(registry, "slipstream.cluster.sessions", MemberStatus::sessionsBound,
                "Client sessions bound to a client id", "sessions");
        gauge(registry, "slipstream.cluster.outbox.backlog", MemberStatus::outboxBacklog,
                "Replies queued and not yet offered to their sessions", "replies");
        FunctionCounter.builder("slipstream.cluster.commands.rejected", member,
                        figure(MemberStatus::rejectedCommands))
                .description("Commands a stage or the decoder threw for, answered rejected").baseUnit("commands")
                .tags(tags).register(registry);
        FunctionCounter.builder("slipstream.cluster.replies.undeliverable", member,
                        figure(MemberStatus::undeliverableReplies))
                .description("Replies whose client session was gone").baseUnit("replies").tags(tags)
                .register(registry);
        FunctionCounter.builder("slipstream.cluster.elections", member, figure(MemberStatus::electionCount))
                .description("Elections the member has taken part in since it started: one more per leader change")
                .baseUnit("elections").tags(tags).register(registry);
        gauge(registry, "slipstream.cluster.archive.size", MemberStatus::archiveBytes,
                "The bytes of the member's recordings (log and snapshots) on disk, as last measured", "bytes");
        gauge(registry, "slipstream.cluster.log.start.position", MemberStatus::logStartPosition,
                "The lowest log position the member's archive still holds", "bytes");
    }

    private void gauge(final MeterRegistry registry, final String name, final ToLongFunction<MemberStatus> value,
            final String description, final String baseUnit) {
        Gauge.builder(name, member, figure(value)).description(description).baseUnit(baseUnit).tags(tags)
                .register(registry);
    }

    private static double running(final ClusterMember member) {
        return member.isRunning() ? 1 : 0;
    }

    /** A figure of the member's status, NaN when it is not known (-1) or the member is closed. */
    private static ToDoubleFunction<ClusterMember> figure(final ToLongFunction<MemberStatus> value) {
        return member -> {
            final long figure;
            try {
                figure = value.applyAsLong(member.status());
            } catch (final IllegalStateException closed) {
                return Double.NaN;
            }
            return figure < 0 ? Double.NaN : figure;
        };
    }
}
