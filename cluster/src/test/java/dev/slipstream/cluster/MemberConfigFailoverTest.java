package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.Cluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure detection and election settings of a member: Aeron's defaults unless told
 * otherwise, the fast preset, the rules between them, and the member's consensus module set with
 * them (not through system properties).
 */
class MemberConfigFailoverTest {
    private static final List<String> ONE = List.of("localhost:28450");

    @TempDir
    Path dir;

    @Test
    void aConfigHasAeronsElectionSettingsUnlessToldOtherwise() {
        final MemberConfig config = MemberConfig.of(0, ONE, dir);
        assertEquals(Duration.ofSeconds(10), config.leaderHeartbeatTimeout());
        assertEquals(Duration.ofMillis(200), config.leaderHeartbeatInterval());
        assertEquals(Duration.ofSeconds(1), config.electionTimeout());
        assertEquals(Duration.ofMillis(100), config.electionStatusInterval());
        assertEquals(Duration.ofSeconds(60), config.startupCanvassTimeout());
        // Aeron's own defaults, as its configuration reads them with no system property set
        assertEquals(ConsensusModule.Configuration.LEADER_HEARTBEAT_TIMEOUT_DEFAULT_NS,
                config.leaderHeartbeatTimeout().toNanos());
        assertEquals(ConsensusModule.Configuration.LEADER_HEARTBEAT_INTERVAL_DEFAULT_NS,
                config.leaderHeartbeatInterval().toNanos());
        assertEquals(ConsensusModule.Configuration.ELECTION_TIMEOUT_DEFAULT_NS, config.electionTimeout().toNanos());
        assertEquals(ConsensusModule.Configuration.ELECTION_STATUS_INTERVAL_DEFAULT_NS,
                config.electionStatusInterval().toNanos());
        assertEquals(ConsensusModule.Configuration.STARTUP_CANVASS_TIMEOUT_DEFAULT_NS,
                config.startupCanvassTimeout().toNanos());
        // the constructors that predate these settings give the defaults
        assertEquals(config, new MemberConfig(0, ONE, dir, Duration.ofSeconds(10), Duration.ofSeconds(10),
                MemberConfig.TimerService.WHEEL, Duration.ofMillis(8)));
    }

    @Test
    void theFastPresetShortensDetectionAndElectionAndKeepsTheRest() {
        final MemberConfig base = MemberConfig.of(0, ONE, dir).withPriorityHeapTimers()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(20))
                .withStartupCanvassTimeout(Duration.ofSeconds(30));
        final MemberConfig fast = base.withFastFailover();
        assertEquals(Duration.ofMillis(500), fast.leaderHeartbeatTimeout());
        assertEquals(Duration.ofMillis(20), fast.leaderHeartbeatInterval());
        assertEquals(Duration.ofMillis(50), fast.electionTimeout());
        assertEquals(Duration.ofMillis(20), fast.electionStatusInterval());
        assertEquals(Duration.ofSeconds(20), fast.sessionTimeout());
        assertEquals(MemberConfig.TimerService.PRIORITY_HEAP, fast.timerService());
        assertEquals(Duration.ofSeconds(30), fast.startupCanvassTimeout());
        assertEquals(MemberConfig.of(0, ONE, dir).withFastFailover(), MemberConfig.fastFailover(0, ONE, dir));
        // the other withers keep the election settings
        final MemberConfig later = fast.withTimeouts(Duration.ofMillis(300), Duration.ofSeconds(5))
                .withTimerWheelTick(Duration.ofMillis(2));
        assertEquals(fast.leaderHeartbeatInterval(), later.leaderHeartbeatInterval());
        assertEquals(fast.electionTimeout(), later.electionTimeout());
        assertEquals(fast.electionStatusInterval(), later.electionStatusInterval());
        assertEquals(fast.startupCanvassTimeout(), later.withPriorityHeapTimers().startupCanvassTimeout());
        final MemberConfig timed = MemberConfig.of(0, ONE, dir).withElectionTimings(Duration.ofMillis(100),
                Duration.ofMillis(300), Duration.ofMillis(30));
        assertEquals(Duration.ofMillis(100), timed.leaderHeartbeatInterval());
        assertEquals(Duration.ofMillis(300), timed.electionTimeout());
        assertEquals(Duration.ofMillis(30), timed.electionStatusInterval());
        assertEquals(Duration.ofSeconds(10), timed.leaderHeartbeatTimeout());
    }

    @Test
    void timingsThatCannotWorkAreRefusedSayingWhatToChange() {
        final MemberConfig config = MemberConfig.of(0, ONE, dir);
        assertRefused(() -> config.withTimeouts(Duration.ofMillis(300), Duration.ofSeconds(10)),
                "leaderHeartbeatInterval (200ms) must be at most half of leaderHeartbeatTimeout (300ms)",
                "one late heartbeat does not start an election", "expected leaderHeartbeatInterval of 150ms or less");
        assertRefused(() -> config.withElectionTimings(Duration.ofMillis(200), Duration.ofMillis(300),
                Duration.ofMillis(50)), "leaderHeartbeatInterval (200ms) must be at most half of electionTimeout (300ms)");
        assertRefused(() -> config.withElectionTimings(Duration.ofMillis(100), Duration.ofMillis(300),
                Duration.ofMillis(200)), "electionStatusInterval (200ms) must be at most half of electionTimeout (300ms)");
        assertRefused(() -> config.withElectionTimings(Duration.ZERO, Duration.ofMillis(300), Duration.ofMillis(50)),
                "leaderHeartbeatInterval must be positive, was PT0S");
        assertRefused(() -> config.withElectionTimings(Duration.ofMillis(50), Duration.ofMillis(-1),
                Duration.ofMillis(20)), "electionTimeout must be positive");
        assertRefused(() -> config.withStartupCanvassTimeout(Duration.ZERO), "startupCanvassTimeout must be positive");
        final NullPointerException missing = assertThrows(NullPointerException.class,
                () -> config.withElectionTimings(Duration.ofMillis(50), null, Duration.ofMillis(20)));
        assertEquals("electionTimeout must not be null", missing.getMessage());
        // exactly half is allowed
        assertEquals(Duration.ofMillis(400), config.withTimeouts(Duration.ofMillis(400), Duration.ofSeconds(1))
                .leaderHeartbeatTimeout());
    }

    @Test
    void aMemberSetsItsConsensusModuleWithItsElectionSettings() {
        final MemberConfig config = MemberConfig.of(0, ONE, dir.resolve("m")).withFastFailover()
                .withStartupCanvassTimeout(Duration.ofSeconds(7));
        try (ClusterMember member = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
            Await.until("the member to lead", SingleMember.LIMIT, () -> { },
                    () -> member.role() == Cluster.Role.LEADER);
            final ConsensusModule.Context context = member.consensusModuleContext();
            assertEquals(Duration.ofMillis(500).toNanos(), context.leaderHeartbeatTimeoutNs());
            assertEquals(Duration.ofMillis(20).toNanos(), context.leaderHeartbeatIntervalNs());
            assertEquals(Duration.ofMillis(50).toNanos(), context.electionTimeoutNs());
            assertEquals(Duration.ofMillis(20).toNanos(), context.electionStatusIntervalNs());
            assertEquals(Duration.ofSeconds(7).toNanos(), context.startupCanvassTimeoutNs());
            assertEquals(1, member.status().electionCount(), "one election made it leader");
        }
    }

    @Test
    void theClientsReSendTimerFollowsTheMembersFailoverSettings() {
        final ClusterCommandClient.Context context = new ClusterCommandClient.Context();
        assertEquals(Duration.ofMillis(12_500).toNanos(), context.resendAfterNs(), "Aeron's defaults: 10s + 2 x 1s + 500ms");
        assertEquals(Duration.ofMillis(1_100).toNanos(), context.resendAfterFailoverOf(MemberConfig.fastFailover(0, ONE,
                dir)).resendAfterNs(), "fast: 500ms + 2 x 50ms + 500ms");
        assertEquals(Duration.ofMillis(12_500).toNanos(), context.resendAfterFailoverOf(MemberConfig.of(0, ONE, dir))
                .resendAfterNs());
        assertEquals(Duration.ofMillis(3_900).toNanos(), context.resendAfterFailoverOf(Duration.ofSeconds(3),
                Duration.ofMillis(200)).resendAfterNs());
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> context.resendAfterFailoverOf(Duration.ZERO, Duration.ofMillis(100)));
        assertEquals("leaderHeartbeatTimeout must be positive (the members'), was PT0S", zero.getMessage());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> context.resendAfterFailoverOf(Duration.ofSeconds(1), Duration.ofMillis(-1)));
        assertEquals("electionTimeout must be positive (the members'), was PT-0.001S", negative.getMessage());
        assertThrows(NullPointerException.class, () -> context.resendAfterFailoverOf((MemberConfig) null));
        assertEquals(Duration.ofMillis(3_900).toNanos(), context.resendAfterNs(), "a refused call changes nothing");
    }

    /** The operations guide's sample ("Failover"), as written there, on one member. */
    @Test
    void theGuidesFailoverSampleRuns() {
        final int memberId = 0;
        final List<String> members = List.of("localhost:28460");
        final Path baseDir = dir.resolve("member-0");
        MemberConfig config = MemberConfig.fastFailover(memberId, members, baseDir);
        ClusterCommandClient.Context context = new ClusterCommandClient.Context()
                .resendAfterFailoverOf(config);              // re-sends after 1.1 s without an answer
        assertEquals(Duration.ofMillis(1_100).toNanos(), context.resendAfterNs());
        try (ClusterMember member = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()));
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            final Replies replies = new Replies();
            try (ClusterCommandClient client = ClusterCommandClient.connect(context
                    .aeronDirectoryName(driver.directory())
                    .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                    .clientId(7)
                    .replyListener(replies))) {
                SingleMember.sendAll(client, 5, 6);
            }
            assertEquals(2, replies.status.size());
            assertEquals(CommandWireFormat.STATUS_APPLIED, replies.status.get(2L));
            assertEquals(1, member.status().electionCount());
        }
    }

    private static void assertRefused(final org.junit.jupiter.api.function.Executable call, final String... parts) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (final String part : parts) {
            assertTrue(e.getMessage().contains(part), "no '" + part + "' in: " + e.getMessage());
        }
    }
}
