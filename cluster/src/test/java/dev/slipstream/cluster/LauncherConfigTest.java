package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.ClusteredService;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every entry a launcher's configuration file can get wrong is refused before anything starts,
 * with a message naming the file, the key, the value and what was expected; a good file becomes
 * the expected {@link MemberConfig}, authenticator and factory; the samples load.
 */
class LauncherConfigTest {
    private static final String FACTORY = LedgerServiceFactory.class.getName();
    private static final byte[] SECRET = "correct horse battery staple".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    /** A good file's lines: the key each is for can be replaced or dropped. */
    private List<String> good() {
        return new ArrayList<>(List.of(
                "# a comment",
                "member.id = 1",
                "members=localhost:20100, localhost:20110 ,localhost:20120",
                "base.dir=" + dir.resolve("member-1"),
                "leader.heartbeat.timeout=3s",
                "session.timeout=500ms",
                "timer.service=wheel",
                "timer.wheel.tick=4ms",
                "authentication=none",
                "service.factory=" + FACTORY,
                "app.ring.size=4096",
                "app.name=engine"));
    }

    private static List<String> with(final List<String> lines, final String key, final String value) {
        final List<String> out = new ArrayList<>();
        boolean replaced = false;
        for (final String line : lines) {
            if (line.replace(" ", "").startsWith(key + "=")) {
                replaced = true;
                if (value != null) {
                    out.add(key + "=" + value);
                }
            } else {
                out.add(line);
            }
        }
        if (!replaced && value != null) {
            out.add(key + "=" + value);
        }
        return out;
    }

    private Path write(final String name, final List<String> lines) throws IOException {
        return Files.write(dir.resolve(name), lines, StandardCharsets.UTF_8);
    }

    private LauncherConfig load(final List<String> lines) throws IOException {
        return LauncherConfig.load(write("member.properties", lines), getClass().getClassLoader());
    }

    /** Loads the lines, expects a refusal naming the file and every fragment, and returns its message. */
    private String refused(final List<String> lines, final String... fragments) throws IOException {
        final Path file = write("member.properties", lines);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LauncherConfig.load(file, getClass().getClassLoader()));
        final String message = e.getMessage();
        assertTrue(message.startsWith("configuration file " + file.toAbsolutePath() + ": "), message);
        assertTrue(message.contains("expected"), message);
        for (final String fragment : fragments) {
            assertTrue(message.contains(fragment), "no '" + fragment + "' in: " + message);
        }
        return message;
    }

    private String refused(final String key, final String value, final String... fragments) throws IOException {
        final List<String> all = new ArrayList<>(List.of(fragments));
        all.add(key);
        if (value != null) {
            all.add("'" + value + "'");
        }
        return refused(with(good(), key, value), all.toArray(String[]::new));
    }

    @Test
    void aGoodFileBecomesTheMemberConfigTheAuthenticatorAndTheFactory() throws IOException {
        final LauncherConfig config = load(good());
        assertEquals(new MemberConfig(1, List.of("localhost:20100", "localhost:20110", "localhost:20120"),
                dir.resolve("member-1"), Duration.ofSeconds(3), Duration.ofMillis(500),
                MemberConfig.TimerService.WHEEL, Duration.ofMillis(4)), config.memberConfig());
        assertEquals(LauncherConfig.Authentication.NONE, config.authentication());
        assertTrue(config.authenticator().isEmpty());
        assertInstanceOf(LedgerServiceFactory.class, config.serviceFactory());
        assertEquals(Map.of("ring.size", "4096", "name", "engine"), config.appProperties());
        assertEquals(List.of("ring.size", "name"), List.copyOf(config.appProperties().keySet()), "the file's order");
        assertEquals(dir.resolve("member.properties").toAbsolutePath(), config.file());
        final ClusteredService service = config.serviceFactory().create(config);
        assertInstanceOf(PipelineClusteredService.class, service);
    }

    @Test
    void leftOutKeysTakeAeronsDefaultsAndRelativePathsStartAtTheFilesDirectory() throws IOException {
        final Path file = write("minimal.properties", List.of("member.id=0", "members=localhost:20100",
                "base.dir=members/member-0", "authentication=none", "service.factory=" + FACTORY));
        final LauncherConfig config = LauncherConfig.load(file, getClass().getClassLoader());
        assertEquals(MemberConfig.of(0, List.of("localhost:20100"), dir.resolve("members/member-0")),
                config.memberConfig());
        assertEquals(MemberConfig.DEFAULT_TIMER_WHEEL_TICK, config.memberConfig().timerWheelTick());
        assertTrue(config.appProperties().isEmpty());
    }

    @Test
    void retentionKeysBecomeTheRetentionPolicyAndLeftOutTheyKeepEverything() throws IOException {
        assertEquals(RetentionPolicy.NONE, load(good()).retention(), "no periodic snapshot, no purge");
        final LauncherConfig config = load(with(with(with(with(good(), "snapshot.log.bytes", "256m"),
                "snapshot.interval", "10m"), "snapshots.kept", "2"), "archive.segment.length", "64k"));
        assertEquals(new RetentionPolicy(256L << 20, Duration.ofMinutes(10), 2, 64 * 1024), config.retention());
        assertEquals(1_000_000, load(with(good(), "snapshot.log.bytes", "1000000")).retention().snapshotLogBytes());
        assertEquals(1L << 30, load(with(good(), "snapshot.log.bytes", "1g")).retention().snapshotLogBytes());
    }

    @Test
    void badRetentionValuesAreRefusedNamingWhatWasExpected() throws IOException {
        refused("snapshot.log.bytes", "256MB", "a whole number of bytes, alone or with a unit k, m or g");
        refused("snapshot.log.bytes", "-1", "a whole number of bytes");
        refused("snapshot.log.bytes", "", "a whole number of bytes");
        refused("snapshot.interval", "10", "a whole number with a unit");
        refused("snapshot.interval", "0s", "above zero");
        refused("snapshots.kept", "two", "a whole number: 0 to purge nothing");
        refused("snapshots.kept", "-1", "0 to purge nothing, or the snapshots to keep");
        refused("archive.segment.length", "100k", "a power of two from 64k to 1g");
        refused("archive.segment.length", "32k", "a power of two from 64k to 1g");
        refused("archive.segment.length", "2g", "a power of two from 64k to 1g");
        refused(with(good(), "snapshot.kept", "2"), "unknown key 'snapshot.kept'", "snapshots.kept");
    }

    @Test
    void theHeapHasNoTick() throws IOException {
        final LauncherConfig config = load(with(with(good(), "timer.service", "heap"), "timer.wheel.tick", null));
        assertEquals(MemberConfig.TimerService.PRIORITY_HEAP, config.memberConfig().timerService());
        refused(with(good(), "timer.service", "heap"), "timer.wheel.tick is '4ms'", "timer.service is heap");
    }

    @Test
    void anUnreadableOrMalformedFileIsRefused() throws IOException {
        final Path missing = dir.resolve("no-such.properties");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LauncherConfig.load(missing, getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("configuration file " + missing.toAbsolutePath() + ": cannot be read"),
                e.getMessage());
        assertTrue(e.getMessage().contains("expected a readable Java properties file"), e.getMessage());
        refused(List.of("member.id=\\uZZZZ"), "not a properties file", "expected key=value lines");
    }

    @Test
    void aMissingKeyIsNamed() throws IOException {
        refused(with(good(), "member.id", null), "member.id is missing", "expected 0 to 2");
        refused(with(good(), "members", null), "members is missing", "host:basePort");
        refused(with(good(), "base.dir", null), "base.dir is missing", "this member's directory");
        refused(with(good(), "authentication", null), "authentication is missing", "none, shared-secret");
        refused(with(good(), "member.id", ""), "member.id is empty");
    }

    @Test
    void anUnknownKeyIsRefusedWithTheNearestKnownOne() throws IOException {
        refused(with(good(), "sesion.timeout", "3s"), "unknown key 'sesion.timeout' (value '3s')",
                "did you mean session.timeout?", "expected only the keys member.id, members, base.dir");
        refused(with(good(), "member.idd", "1"), "unknown key 'member.idd'", "did you mean member.id?");
        final String unrelated = refused(with(good(), "colour", "blue"), "unknown key 'colour' (value 'blue')",
                "under app.");
        assertFalse(unrelated.contains("did you mean"), unrelated);
        refused(with(good(), "app.", "x"), "unknown key 'app.'");
    }

    @Test
    void aKeyGivenTwiceIsRefused() throws IOException {
        final List<String> lines = good();
        lines.add("member.id=2");
        refused(lines, "member.id is given twice ('1', then '2')", "expected each key once");
    }

    @Test
    void aMemberIdThatIsNotInTheListIsRefused() throws IOException {
        refused("member.id", "one", "a whole number from 0 to 2");
        refused("member.id", "3", "expected 0 to 2, this member's index in members (3 members)");
        refused("member.id", "-1", "expected 0 to 2");
    }

    @Test
    void aBadMemberListIsRefused() throws IOException {
        refused("members", "localhost:20100,,localhost:20120", "entry 1 (from 0) is empty");
        refused("members", "localhost:20100,localhost:20110,", "entry 2 (from 0) is empty");
        refused("members", "localhost:20100,localhost,localhost:20120", "member 1 is 'localhost'",
                "expected host:basePort");
        refused("members", "localhost:20100,localhost:20102,localhost:20120", "share ports");
        refused("members", "localhost:20100,localhost:x,localhost:20120", "the base port is not a number");
    }

    @Test
    void aBadBaseDirIsRefused() throws IOException {
        final Path file = Files.writeString(dir.resolve("a-file"), "x");
        refused("base.dir", file.toString(), "expected a directory", "is a file");
        refused("base.dir", "bad\0path", "expected a file system path");
    }

    @Test
    void aeronDirPutsTheDriversDirectoryThereAndLeftOutItIsInTheBaseDir() throws IOException {
        assertEquals(dir.resolve("member-1").resolve("aeron"), load(good()).memberConfig().aeronDir());
        final LauncherConfig config = load(with(good(), "aeron.dir", "shm/engine-member-1"));
        assertEquals(dir.resolve("shm/engine-member-1"), config.memberConfig().aeronDir(),
                "relative to the file's directory");
    }

    @Test
    void anAeronDirThatIsAFileOrHoldsTheMembersStateIsRefused() throws IOException {
        final Path file = Files.writeString(dir.resolve("a-file"), "x");
        refused("aeron.dir", file.toString(), "expected a directory", "is a file");
        refused(with(good(), "aeron.dir", dir.toString()), "aeron.dir", "above it", "empties its directory on start",
                "expected a directory of its own");
        refused(with(good(), "aeron.dir", dir.resolve("member-1/archive/aeron").toString()), "aeron.dir",
                "inside the member's archive/ directory", "expected a directory of its own");
    }

    @Test
    void agentIdleSetsHowTheAgentsWaitAndABadOneIsRefused() throws IOException {
        assertEquals(MemberConfig.AgentIdle.BACKOFF, load(good()).memberConfig().agentIdle());
        assertEquals(MemberConfig.AgentIdle.BUSY_SPIN,
                load(with(good(), "agent.idle", "busy-spin")).memberConfig().agentIdle());
        assertEquals(MemberConfig.AgentIdle.YIELDING,
                load(with(good(), "agent.idle", "yielding")).memberConfig().agentIdle());
        refused("agent.idle", "spin", "expected backoff", "yielding or busy-spin");
    }

    @Test
    void aBadDurationIsRefused() throws IOException {
        for (final String value : List.of("3", "3 sec", "3.5s", "-1s", "s", "fast", "99999999999999s")) {
            refused("leader.heartbeat.timeout", value, "a whole number with a unit, ms, s or m");
        }
        refused("session.timeout", "0s", "a duration above zero");
        refused("session.timeout", "1441m", "at most a day");
        refused("timer.wheel.tick", "1ns", "a whole number with a unit");
    }

    @Test
    void theElectionKeysSetTheMembersElectionTimings() throws IOException {
        final List<String> lines = with(with(with(with(good(), "leader.heartbeat.interval", "100ms"),
                "election.timeout", "400ms"), "election.status.interval", "50ms"), "startup.canvass.timeout", "20s");
        final MemberConfig config = load(lines).memberConfig();
        assertEquals(Duration.ofSeconds(3), config.leaderHeartbeatTimeout());
        assertEquals(Duration.ofMillis(100), config.leaderHeartbeatInterval());
        assertEquals(Duration.ofMillis(400), config.electionTimeout());
        assertEquals(Duration.ofMillis(50), config.electionStatusInterval());
        assertEquals(Duration.ofSeconds(20), config.startupCanvassTimeout());
    }

    @Test
    void failoverFastStartsFromThePresetAndAKeyGivenReplacesItsValue() throws IOException {
        final List<String> fast = with(with(good(), "leader.heartbeat.timeout", null), "failover", "fast");
        final MemberConfig preset = load(fast).memberConfig();
        assertEquals(MemberConfig.of(1, List.of("localhost:20100", "localhost:20110", "localhost:20120"),
                dir.resolve("member-1")).withTimeouts(Duration.ofSeconds(3), Duration.ofMillis(500))
                .withTimerWheelTick(Duration.ofMillis(4)).withFastFailover(), preset);
        final MemberConfig replaced = load(with(fast, "election.timeout", "300ms")).memberConfig();
        assertEquals(Duration.ofMillis(300), replaced.electionTimeout());
        assertEquals(MemberConfig.FAST_LEADER_HEARTBEAT_TIMEOUT, replaced.leaderHeartbeatTimeout());
        assertEquals(MemberConfig.FAST_ELECTION_STATUS_INTERVAL, replaced.electionStatusInterval());
        assertEquals(MemberConfig.DEFAULT_ELECTION_TIMEOUT,
                load(with(good(), "failover", "default")).memberConfig().electionTimeout());
    }

    @Test
    void badElectionTimingsAreRefusedInTheFilesKeys() throws IOException {
        refused("failover", "quick", "default (Aeron's election settings) or fast");
        refused("election.timeout", "0ms", "a duration above zero");
        refused("leader.heartbeat.interval", "1.5s", "a whole number with a unit");
        // each names the keys, never MemberConfig's names for them
        final String interval = refused(with(good(), "leader.heartbeat.interval", "2s"),
                "leader.heartbeat.interval (2s) must be at most half of leader.heartbeat.timeout (3s)",
                "leader.heartbeat.interval of 1500ms or less");
        assertFalse(interval.contains("leaderHeartbeat"), interval);
        refused(with(good(), "election.status.interval", "600ms"),
                "election.status.interval (600ms) must be at most half of election.timeout (1s)");
        refused(with(good(), "election.timeout", "300ms"),
                "leader.heartbeat.interval (200ms) must be at most half of election.timeout (300ms)");
        refused(with(with(with(good(), "leader.heartbeat.timeout", null), "failover", "fast"),
                "leader.heartbeat.interval", "300ms"), "must be at most half of leader.heartbeat.timeout (500ms)",
                "failover=fast gives the keys left out the fast values");
    }

    @Test
    void aBadTimerServiceIsRefused() throws IOException {
        refused("timer.service", "wheels", "wheel (a timer wheel, the default) or heap");
    }

    @Test
    void aBadAuthenticationIsRefused() throws IOException {
        refused("authentication", "secret", "none, shared-secret (with secret.file) or client-secrets");
        refused(with(good(), "secret.file", "x"), "secret.file is 'x' but authentication is none",
                "expected secret.file only with authentication=shared-secret");
        refused(with(with(good(), "authentication", "shared-secret"), "client.secrets.file", "x"),
                "client.secrets.file is 'x' but authentication is shared-secret");
        refused(with(good(), "authentication", "shared-secret"), "secret.file is missing");
        refused(with(good(), "authentication", "client-secrets"), "client.secrets.file is missing");
    }

    @Test
    void theSharedSecretIsTheFilesBytesAtLeast16() throws IOException {
        Files.write(dir.resolve("cluster.secret"), SECRET);
        final List<String> shared = with(good(), "authentication", "shared-secret");
        final LauncherConfig config = load(with(shared, "secret.file", "cluster.secret"));
        assertEquals(LauncherConfig.Authentication.SHARED_SECRET, config.authentication());
        assertInstanceOf(SharedSecretAuthenticator.class, config.authenticator().orElseThrow());

        refused(with(shared, "secret.file", "no-such.secret"), "secret.file is 'no-such.secret'",
                "expected a readable file holding the shared secret", "NoSuchFileException");
        Files.writeString(dir.resolve("short.secret"), "tiny");
        final String shortSecret = refused(with(shared, "secret.file", "short.secret"),
                "expected a file of at least 16 bytes", "it holds 4");
        assertFalse(shortSecret.contains("tiny"), "the secret is not repeated: " + shortSecret);
    }

    @Test
    void theClientSecretsAreBase64LinesAndAClientSecretIsNeverRepeated() throws IOException {
        final String seven = Base64.getEncoder().encodeToString(SECRET);
        final List<String> clients = with(with(good(), "authentication", "client-secrets"), "client.secrets.file",
                "client-secrets");
        Files.write(dir.resolve("client-secrets"), List.of("# gateways", "", " 7 = " + seven, "8=" + seven));
        final LauncherConfig config = load(clients);
        assertEquals(LauncherConfig.Authentication.CLIENT_SECRETS, config.authentication());
        assertInstanceOf(ClientIdAuthenticator.class, config.authenticator().orElseThrow());

        final Path secrets = dir.resolve("client-secrets").toAbsolutePath().normalize();
        final String where = "client.secrets.file (" + secrets + ") line ";
        final Map<List<String>, List<String>> bad = Map.of(
                List.of("7" + seven.replace("=", "")), List.of(where + "1 is not clientId=secret", "a line such as 7=<"),
                List.of("7" + seven), List.of(where + "1 has client id of ", "characters (not shown: it may be a secret)"),
                List.of("# ok", "seven=" + seven), List.of(where + "2 has client id 'seven'", "a whole number from 0 up"),
                List.of("-7=" + seven), List.of(where + "1 has client id -7"),
                List.of("7=not*base64!" + seven), List.of(where + "1: the secret of client 7 is not Base64",
                        "expected Base64 (RFC 4648)"),
                List.of("7=" + Base64.getEncoder().encodeToString(new byte[8])),
                List.of(where + "1: secret of client 7 is 8 bytes; expected at least 16 bytes"),
                List.of("7=" + seven, "7=" + seven), List.of(where + "2: client 7 is given a secret twice"),
                List.of("# nobody yet"), List.of("client.secrets.file is 'client-secrets'",
                        "expected a file with at least one clientId=<base64 secret> line; " + secrets + " has none"));
        for (final Map.Entry<List<String>, List<String>> entry : bad.entrySet()) {
            Files.write(dir.resolve("client-secrets"), entry.getKey());
            final String message = refused(clients, entry.getValue().toArray(String[]::new));
            assertFalse(message.contains(seven.substring(0, 8)), "the secret is not repeated: " + message);
        }
        Files.delete(dir.resolve("client-secrets"));
        refused(clients, "client.secrets.file is 'client-secrets'", "expected a readable file");
    }

    /** A class that is not a factory. */
    public static final class NotAFactory {
    }

    /** A factory without a no-argument constructor. */
    public static final class NeedsAnArgument implements ClusteredServiceFactory {
        /** @param size a setting it cannot be given */
        public NeedsAnArgument(final int size) {
        }

        @Override
        public ClusteredService create(final LauncherConfig config) {
            return null;
        }
    }

    /** A factory whose constructor throws. */
    public static final class ThrowsOnConstruction implements ClusteredServiceFactory {
        /** Throws. */
        public ThrowsOnConstruction() {
            throw new IllegalStateException("no licence file");
        }

        @Override
        public ClusteredService create(final LauncherConfig config) {
            return null;
        }
    }

    /** A second registered factory. */
    public static final class AnotherFactory implements ClusteredServiceFactory {
        @Override
        public ClusteredService create(final LauncherConfig config) {
            return null;
        }
    }

    /** An abstract factory. */
    public abstract static class AbstractFactory implements ClusteredServiceFactory {
    }

    @Test
    void aFactoryThatCannotBeMadeIsRefused() throws IOException {
        final String expected = "expected the name of a public class that implements "
                + ClusteredServiceFactory.class.getName() + " with a public no-argument constructor";
        refused("service.factory", "com.example.NoSuchFactory", expected, "no class of that name is on the class path");
        refused("service.factory", NotAFactory.class.getName(), "does not implement ClusteredServiceFactory");
        refused("service.factory", NeedsAnArgument.class.getName(), "has no public no-argument constructor");
        refused("service.factory", ThrowsOnConstruction.class.getName(),
                "its constructor threw java.lang.IllegalStateException: no licence file");
        refused("service.factory", AbstractFactory.class.getName(), "is abstract");
        refused("service.factory", ClusteredServiceFactory.class.getName(), "is abstract");
        refused(with(good(), "service.factory", ""), "service.factory is empty");
    }

    /** Loads the good file without service.factory, with {@code registered} in META-INF/services. */
    private LauncherConfig loadRegistered(final String... registered) throws IOException {
        final Path classes = Files.createDirectories(dir.resolve("registered-" + registered.length));
        final Path services = Files.createDirectories(classes.resolve("META-INF/services"));
        Files.write(services.resolve(ClusteredServiceFactory.class.getName()), List.of(registered));
        final Path file = write("member.properties", with(good(), "service.factory", null));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            return LauncherConfig.load(file, loader);
        }
    }

    @Test
    void withoutAClassNameTheOneRegisteredFactoryIsUsed() throws IOException {
        assertInstanceOf(LedgerServiceFactory.class, loadRegistered(FACTORY).serviceFactory());

        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class, this::loadRegistered);
        assertTrue(none.getMessage().contains("service.factory is not given, and no " + ClusteredServiceFactory.class
                .getName() + " is registered"), none.getMessage());
        assertTrue(none.getMessage().contains("expected service.factory=<the name of a public class"), none.getMessage());

        final IllegalArgumentException several = assertThrows(IllegalArgumentException.class,
                () -> loadRegistered(FACTORY, AnotherFactory.class.getName()));
        assertTrue(several.getMessage().contains("2 are registered: " + FACTORY + ", "
                + AnotherFactory.class.getName()), several.getMessage());
        assertTrue(several.getMessage().contains("or exactly one registered factory"), several.getMessage());

        final IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
                () -> loadRegistered("com.example.NoSuchFactory"));
        assertTrue(broken.getMessage().contains("cannot be listed"), broken.getMessage());
        assertTrue(broken.getMessage().contains("com.example.NoSuchFactory"), broken.getMessage());
    }

    @Test
    void theSampleConfigurationsLoad() throws IOException {
        final Path samples = Path.of("src/main/config");
        for (int id = 0; id < 3; id++) {
            // the samples name the examples' factory, which this module cannot see: this module's own stands in
            final List<String> oneLines = Files.readAllLines(samples.resolve(
                    "three-members-one-machine/member-" + id + ".properties"));
            assertTrue(oneLines.contains("service.factory=dev.slipstream.examples.cluster.LedgerServiceFactory"),
                    "the sample names the examples' ledger factory");
            final LauncherConfig one = load(with(oneLines, "service.factory", LedgerServiceFactory.class.getName()));
            assertEquals(id, one.memberConfig().memberId());
            assertEquals(List.of("localhost:20100", "localhost:20110", "localhost:20120"), one.memberConfig().members());
            assertEquals(Path.of("/var/tmp/slipstream-cluster/member-" + id), one.memberConfig().baseDir());
            assertInstanceOf(LedgerServiceFactory.class, one.serviceFactory());

            // the three-machine samples name /etc/slipstream/client-secrets: give them one here
            Files.write(dir.resolve("client-secrets"), List.of("7=" + Base64.getEncoder().encodeToString(SECRET)));
            final List<String> lines = Files.readAllLines(samples.resolve("three-machines/member-" + id + ".properties"));
            final LauncherConfig three = load(with(with(lines, "client.secrets.file", "client-secrets"),
                    "service.factory", LedgerServiceFactory.class.getName()));
            assertEquals(id, three.memberConfig().memberId());
            assertEquals(List.of("host-a:20100", "host-b:20100", "host-c:20100"), three.memberConfig().members());
            assertEquals(LauncherConfig.Authentication.CLIENT_SECRETS, three.authentication());
        }
    }
}
