package dev.slipstream.cluster;

import io.aeron.security.AuthenticatorSupplier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link ClusterLauncher} reads from a member's configuration file (a Java properties
 * file): everything {@link ClusterMember#start(MemberConfig, io.aeron.cluster.service.ClusteredService,
 * AuthenticatorSupplier)} needs, checked entry by entry before anything starts.
 *
 * <table>
 *   <caption>The keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code member.id}</td><td>required</td><td>this member's index in {@code members}, from 0</td></tr>
 *   <tr><td>{@code members}</td><td>required</td><td>every member's {@code host:basePort}, comma-separated,
 *       member 0 first; the same list in every member's file</td></tr>
 *   <tr><td>{@code base.dir}</td><td>required</td><td>this member's directory</td></tr>
 *   <tr><td>{@code aeron.dir}</td><td>{@code base.dir/aeron}</td><td>the media driver's directory
 *       ({@link MemberConfig#withAeronDir}): one of its own per member, on tmpfs
 *       ({@code /dev/shm/engine-member-0}) where the machine has it</td></tr>
 *   <tr><td>{@code failover}</td><td>{@code default}</td><td>where the five keys below start from:
 *       {@code default} (Aeron's defaults) or {@code fast} ({@link MemberConfig#withFastFailover()}:
 *       500ms, 20ms, 50ms, 20ms); each key given replaces its value</td></tr>
 *   <tr><td>{@code leader.heartbeat.timeout}</td><td>{@code 10s} ({@code 500ms} fast)</td><td>how long
 *       followers wait for the leader before an election</td></tr>
 *   <tr><td>{@code leader.heartbeat.interval}</td><td>{@code 200ms} ({@code 20ms} fast)</td><td>how often
 *       the leader speaks when it has nothing else to send; at most half the heartbeat timeout and half
 *       the election timeout</td></tr>
 *   <tr><td>{@code election.timeout}</td><td>{@code 1s} ({@code 50ms} fast)</td><td>how long a candidate
 *       waits for votes</td></tr>
 *   <tr><td>{@code election.status.interval}</td><td>{@code 100ms} ({@code 20ms} fast)</td><td>how often a
 *       member in an election repeats its log position; at most half the election timeout</td></tr>
 *   <tr><td>{@code startup.canvass.timeout}</td><td>{@code 60s}</td><td>how long a member that has just
 *       started waits to hear from every member before a majority may elect a leader</td></tr>
 *   <tr><td>{@code session.timeout}</td><td>{@code 10s}</td><td>how long a silent client session lives</td></tr>
 *   <tr><td>{@code timer.service}</td><td>{@code wheel}</td><td>{@code wheel} or {@code heap}
 *       ({@link MemberConfig.TimerService})</td></tr>
 *   <tr><td>{@code agent.idle}</td><td>{@code backoff}</td><td>how the member's agents wait when idle:
 *       {@code backoff}, {@code yielding} or {@code busy-spin} ({@link MemberConfig.AgentIdle})</td></tr>
 *   <tr><td>{@code timer.wheel.tick}</td><td>{@code 8ms}</td><td>the wheel's tick (with {@code wheel} only)</td></tr>
 *   <tr><td>{@code snapshot.log.bytes}</td><td>{@code 0} (off)</td><td>log bytes after the latest snapshot
 *       that make the leader ask for the next one: a size such as {@code 256m} ({@link RetentionPolicy})</td></tr>
 *   <tr><td>{@code snapshot.interval}</td><td>off</td><td>time after the latest snapshot that makes the
 *       leader ask for the next one</td></tr>
 *   <tr><td>{@code snapshots.kept}</td><td>{@code 0} (purge nothing)</td><td>snapshots each member keeps
 *       after a purge, with the log from the oldest of them on</td></tr>
 *   <tr><td>{@code archive.segment.length}</td><td>{@code 128m}</td><td>the archive's segment file length,
 *       a power of two from {@code 64k} to {@code 1g}: the log is purged a segment at a time</td></tr>
 *   <tr><td>{@code authentication}</td><td>required</td><td>{@code none}, {@code shared-secret}
 *       ({@link SharedSecretAuthenticator}) or {@code client-secrets} ({@link ClientIdAuthenticator}
 *       with {@link ClientSecrets})</td></tr>
 *   <tr><td>{@code secret.file}</td><td>with {@code shared-secret}</td><td>the shared secret: the file's
 *       bytes, all of them, at least 16</td></tr>
 *   <tr><td>{@code client.secrets.file}</td><td>with {@code client-secrets}</td><td>one
 *       {@code clientId=secret} line per client, the secret in Base64, at least 16 bytes decoded;
 *       blank lines and {@code #} comments skipped</td></tr>
 *   <tr><td>{@code service.factory}</td><td>the one registered</td><td>the class name of the
 *       {@link ClusteredServiceFactory}; without it, the one factory registered with
 *       {@link java.util.ServiceLoader}</td></tr>
 *   <tr><td>{@code app.*}</td><td>-</td><td>the service's own settings, for the factory
 *       ({@link #appProperties()})</td></tr>
 * </table>
 *
 * <p>Durations are a whole number and a unit: {@code 500ms}, {@code 3s}, {@code 2m}. Sizes are a
 * whole number of bytes, alone or with {@code k}, {@code m} or {@code g} (KiB, MiB, GiB): {@code 64k}. Relative paths
 * are taken from the configuration file's directory. Any other key (a typo) is refused, as is a
 * key given twice or a key of another authentication than the one chosen.
 *
 * <p>{@link #load} refuses a bad entry with an {@link IllegalArgumentException} whose message names
 * the file, the key, the value and what was expected (a secret is never repeated), for instance
 * {@code configuration file /etc/engine/member-0.properties: member.id is '3'; expected 0 to 2,
 * this member's index in members (3 members)}.
 *
 * <pre>{@code
 * LauncherConfig config = LauncherConfig.load(Path.of("/etc/engine/member-0.properties"));
 * ClusteredService service = config.serviceFactory().create(config);
 * try (ClusterMember member = ClusterMember.start(config.memberConfig(), service,
 *         config.authenticator().orElse(null), config.retention())) {
 *     // ...
 * }
 * }</pre>
 */
public final class LauncherConfig {
    /** The key under which the service's own settings go: {@code app.ring.size=4096}. */
    public static final String APP_PREFIX = "app.";

    private static final String MEMBER_ID = "member.id";
    private static final String MEMBERS = "members";
    private static final String BASE_DIR = "base.dir";
    private static final String AERON_DIR = "aeron.dir";
    private static final String LEADER_HEARTBEAT_TIMEOUT = "leader.heartbeat.timeout";
    private static final String FAILOVER = "failover";
    private static final String LEADER_HEARTBEAT_INTERVAL = "leader.heartbeat.interval";
    private static final String ELECTION_TIMEOUT = "election.timeout";
    private static final String ELECTION_STATUS_INTERVAL = "election.status.interval";
    private static final String STARTUP_CANVASS_TIMEOUT = "startup.canvass.timeout";
    private static final String SESSION_TIMEOUT = "session.timeout";
    private static final String TIMER_SERVICE = "timer.service";
    private static final String TIMER_WHEEL_TICK = "timer.wheel.tick";
    private static final String AGENT_IDLE = "agent.idle";
    private static final String AUTHENTICATION = "authentication";
    private static final String SECRET_FILE = "secret.file";
    private static final String CLIENT_SECRETS_FILE = "client.secrets.file";
    private static final String SERVICE_FACTORY = "service.factory";
    private static final String SNAPSHOT_LOG_BYTES = "snapshot.log.bytes";
    private static final String SNAPSHOT_INTERVAL = "snapshot.interval";
    private static final String SNAPSHOTS_KEPT = "snapshots.kept";
    private static final String SEGMENT_LENGTH = "archive.segment.length";
    private static final Set<String> KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(List.of(MEMBER_ID,
            MEMBERS, BASE_DIR, AERON_DIR, FAILOVER, LEADER_HEARTBEAT_TIMEOUT, LEADER_HEARTBEAT_INTERVAL, ELECTION_TIMEOUT,
            ELECTION_STATUS_INTERVAL, STARTUP_CANVASS_TIMEOUT, SESSION_TIMEOUT, TIMER_SERVICE, TIMER_WHEEL_TICK,
            AGENT_IDLE, AUTHENTICATION, SECRET_FILE, CLIENT_SECRETS_FILE, SERVICE_FACTORY, SNAPSHOT_LOG_BYTES,
            SNAPSHOT_INTERVAL, SNAPSHOTS_KEPT, SEGMENT_LENGTH)));
    /** MemberConfig's names for the settings in its messages, and the keys that set them. */
    private static final Map<String, String> KEY_OF_SETTING = Map.of("leaderHeartbeatTimeout",
            LEADER_HEARTBEAT_TIMEOUT, "leaderHeartbeatInterval", LEADER_HEARTBEAT_INTERVAL, "electionTimeout",
            ELECTION_TIMEOUT, "electionStatusInterval", ELECTION_STATUS_INTERVAL, "startupCanvassTimeout",
            STARTUP_CANVASS_TIMEOUT, "sessionTimeout", SESSION_TIMEOUT, "timerWheelTick", TIMER_WHEEL_TICK, "aeronDir",
            AERON_DIR);

    /**
     * How a member admits client sessions: the {@code authentication} key.
     *
     * <pre>{@code
     * if (config.authentication() == LauncherConfig.Authentication.NONE) {
     *     log.warn("any client that reaches the ingress port may send commands");
     * }
     * }</pre>
     */
    public enum Authentication {
        /** {@code none}: every client is admitted, and may say hello with any client id. */
        NONE("none"),
        /** {@code shared-secret}: a {@link SharedSecretAuthenticator} with {@code secret.file}'s bytes. */
        SHARED_SECRET("shared-secret"),
        /** {@code client-secrets}: a {@link ClientIdAuthenticator} with the {@link ClientSecrets} of {@code client.secrets.file}. */
        CLIENT_SECRETS("client-secrets");

        private final String value;

        Authentication(final String value) {
            this.value = value;
        }

        /** @return the value the configuration file gives for it: {@code none}, {@code shared-secret}, {@code client-secrets} */
        public String value() {
            return value;
        }
    }

    private final Path file;
    private final MemberConfig memberConfig;
    private final RetentionPolicy retention;
    private final Authentication authentication;
    private final AuthenticatorSupplier authenticator;
    private final ClusteredServiceFactory serviceFactory;
    private final Map<String, String> appProperties;

    private LauncherConfig(final Path file, final MemberConfig memberConfig, final RetentionPolicy retention,
            final Authentication authentication, final AuthenticatorSupplier authenticator,
            final ClusteredServiceFactory serviceFactory, final Map<String, String> appProperties) {
        this.file = file;
        this.memberConfig = memberConfig;
        this.retention = retention;
        this.authentication = authentication;
        this.authenticator = authenticator;
        this.serviceFactory = serviceFactory;
        this.appProperties = appProperties;
    }

    /**
     * Reads and checks a configuration file; the service factory's class is looked up with the
     * thread's context class loader (else this class's), and the factory is made.
     *
     * @param file the member's configuration file
     * @return the checked configuration
     * @throws IllegalArgumentException naming the file, the key, the value and what was expected,
     *         for the first bad entry: the file unreadable, a key missing, unknown or given twice, a
     *         number, duration, member list or path that is not one, a member id out of range, a
     *         secret file unreadable or too short, a factory not found, not a factory or not makeable
     */
    public static LauncherConfig load(final Path file) {
        final ClassLoader context = Thread.currentThread().getContextClassLoader();
        return load(file, context != null ? context : LauncherConfig.class.getClassLoader());
    }

    /** As {@link #load(Path)}, looking the service factory up in {@code loader}. */
    static LauncherConfig load(final Path file, final ClassLoader loader) {
        Objects.requireNonNull(file, "file must not be null");
        final ConfigFile config = ConfigFile.read(file);
        config.refuseUnknownKeys(KEYS, APP_PREFIX);
        final List<String> members = members(config);
        final int memberId = memberId(config, members.size());
        final Path baseDir = baseDir(config);
        final Path aeronDir = aeronDir(config);
        final boolean fast = failover(config);
        final Duration heartbeat = config.duration(LEADER_HEARTBEAT_TIMEOUT,
                fast ? MemberConfig.FAST_LEADER_HEARTBEAT_TIMEOUT : MemberConfig.DEFAULT_LEADER_HEARTBEAT_TIMEOUT);
        final Duration heartbeatInterval = config.duration(LEADER_HEARTBEAT_INTERVAL,
                fast ? MemberConfig.FAST_LEADER_HEARTBEAT_INTERVAL : MemberConfig.DEFAULT_LEADER_HEARTBEAT_INTERVAL);
        final Duration election = config.duration(ELECTION_TIMEOUT,
                fast ? MemberConfig.FAST_ELECTION_TIMEOUT : MemberConfig.DEFAULT_ELECTION_TIMEOUT);
        final Duration statusInterval = config.duration(ELECTION_STATUS_INTERVAL,
                fast ? MemberConfig.FAST_ELECTION_STATUS_INTERVAL : MemberConfig.DEFAULT_ELECTION_STATUS_INTERVAL);
        final Duration canvass = config.duration(STARTUP_CANVASS_TIMEOUT, MemberConfig.DEFAULT_STARTUP_CANVASS_TIMEOUT);
        final Duration session = config.duration(SESSION_TIMEOUT, MemberConfig.DEFAULT_SESSION_TIMEOUT);
        final MemberConfig.TimerService timers = timerService(config);
        if (timers == MemberConfig.TimerService.PRIORITY_HEAP && config.has(TIMER_WHEEL_TICK)) {
            throw config.fail(TIMER_WHEEL_TICK + " is '" + config.entries().get(TIMER_WHEEL_TICK) + "' but "
                    + TIMER_SERVICE + " is heap, which has no tick; expected no " + TIMER_WHEEL_TICK
                    + " with the heap, or " + TIMER_SERVICE + "=wheel");
        }
        final Duration tick = config.duration(TIMER_WHEEL_TICK, MemberConfig.DEFAULT_TIMER_WHEEL_TICK);
        final MemberConfig memberConfig;
        try {
            memberConfig = new MemberConfig(memberId, members, baseDir, heartbeat, session, timers, tick,
                    heartbeatInterval, election, statusInterval, canvass, aeronDir, agentIdle(config));
        } catch (final IllegalArgumentException e) {
            throw config.fail(inKeys(e.getMessage()) + (fast ? " (" + FAILOVER + "=fast gives the keys left out"
                    + " the fast values)" : ""));
        }
        final RetentionPolicy retention = retention(config);
        final Authentication authentication = authentication(config);
        final AuthenticatorSupplier authenticator = authenticator(config, authentication);
        final Map<String, String> app = new LinkedHashMap<>();
        config.entries().forEach((key, value) -> {
            if (key.startsWith(APP_PREFIX)) {
                app.put(key.substring(APP_PREFIX.length()), value);
            }
        });
        // last: it runs the factory's own code (its class's initializer and constructor)
        final ClusteredServiceFactory factory = ServiceFactories.find(config, SERVICE_FACTORY,
                Objects.requireNonNull(loader, "loader must not be null"));
        return new LauncherConfig(config.path(), memberConfig, retention, authentication, authenticator, factory,
                Collections.unmodifiableMap(app));
    }

    private static List<String> members(final ConfigFile config) {
        final String value = config.required(MEMBERS, "every member's host:basePort, comma-separated, member 0 first,"
                + " such as members=localhost:20100,localhost:20110,localhost:20120");
        final String[] parts = value.split(",", -1);
        final List<String> members = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            final String entry = parts[i].strip();
            if (entry.isEmpty()) {
                throw config.invalid(MEMBERS, value, "host:basePort per member, comma-separated, with none empty;"
                        + " entry " + i + " (from 0) is empty");
            }
            members.add(entry);
        }
        try {
            ClusterMembers.parse(members);
        } catch (final IllegalArgumentException e) {
            final String problem = e.getMessage();
            throw config.fail(MEMBERS + " is '" + value + "': " + problem + (problem.contains("expected") ? ""
                    : "; expected host:basePort per member, base ports on one host at least "
                    + ClusterMembers.PORTS_PER_MEMBER + " apart"));
        }
        return members;
    }

    private static int memberId(final ConfigFile config, final int size) {
        final String expected = "0 to " + (size - 1) + ", this member's index in members (" + size + " members)";
        final String value = config.required(MEMBER_ID, expected + ", such as member.id=0");
        final int id;
        try {
            id = Integer.parseInt(value);
        } catch (final NumberFormatException e) {
            throw config.invalid(MEMBER_ID, value, "a whole number from " + expected);
        }
        if (id < 0 || id >= size) {
            throw config.invalid(MEMBER_ID, value, expected);
        }
        return id;
    }

    private static Path baseDir(final ConfigFile config) {
        final String value = config.required(BASE_DIR, "this member's directory, such as base.dir=/var/lib/engine"
                + " (relative to the configuration file's directory if relative)");
        final Path dir = config.path(BASE_DIR, value);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw config.invalid(BASE_DIR, value, "a directory, or a path where one can be made; " + dir
                    + " is a file");
        }
        return dir;
    }

    /** @return the {@code aeron.dir} path, or null for the default */
    private static Path aeronDir(final ConfigFile config) {
        if (!config.has(AERON_DIR)) {
            return null;
        }
        final String value = config.entries().get(AERON_DIR);
        final Path dir = config.path(AERON_DIR, value);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw config.invalid(AERON_DIR, value, "a directory, or a path where one can be made; " + dir
                    + " is a file");
        }
        return dir;
    }

    /** @return true for {@code failover=fast}, false for {@code default} or no key */
    private static boolean failover(final ConfigFile config) {
        final String value = config.optional(FAILOVER).orElse("default");
        return switch (value) {
            case "default" -> false;
            case "fast" -> true;
            default -> throw config.invalid(FAILOVER, value, "default (Aeron's election settings) or fast (a 500ms"
                    + " heartbeat timeout, 20ms heartbeat interval, 50ms election timeout, 20ms election status"
                    + " interval)");
        };
    }

    /** MemberConfig's message about its settings, in the configuration file's keys. */
    private static String inKeys(final String message) {
        String out = message;
        for (final Map.Entry<String, String> setting : KEY_OF_SETTING.entrySet()) {
            // whole words only: leaderHeartbeatTimeout is not a part of leaderHeartbeatTimeouts
            out = out.replaceAll("\\b" + setting.getKey() + "\\b", setting.getValue());
        }
        return out;
    }

    /** @return the retention the file asks for: its snapshot rule, snapshots kept and segment length */
    private static RetentionPolicy retention(final ConfigFile config) {
        final long logBytes = config.size(SNAPSHOT_LOG_BYTES, 0);
        final Duration interval = config.duration(SNAPSHOT_INTERVAL, Duration.ZERO);   // zero: no time rule
        final int kept;
        final String keptValue = config.optional(SNAPSHOTS_KEPT).orElse("0");
        try {
            kept = Integer.parseInt(keptValue);
        } catch (final NumberFormatException e) {
            throw config.invalid(SNAPSHOTS_KEPT, keptValue, "a whole number: 0 to purge nothing, or the snapshots"
                    + " to keep, such as 2");
        }
        if (kept < 0) {
            throw config.invalid(SNAPSHOTS_KEPT, keptValue, "0 to purge nothing, or the snapshots to keep, such as 2");
        }
        final long segment = config.size(SEGMENT_LENGTH, RetentionPolicy.DEFAULT_SEGMENT_LENGTH);
        if (segment < RetentionPolicy.MIN_SEGMENT_LENGTH || segment > RetentionPolicy.MAX_SEGMENT_LENGTH
                || Long.bitCount(segment) != 1) {
            throw config.invalid(SEGMENT_LENGTH, config.entries().get(SEGMENT_LENGTH), "a power of two from 64k to 1g"
                    + " (Aeron Archive's limits), such as 128m");
        }
        return new RetentionPolicy(logBytes, interval, kept, (int) segment);
    }

    private static MemberConfig.TimerService timerService(final ConfigFile config) {
        final String value = config.optional(TIMER_SERVICE).orElse("wheel");
        return switch (value) {
            case "wheel" -> MemberConfig.TimerService.WHEEL;
            case "heap" -> MemberConfig.TimerService.PRIORITY_HEAP;
            default -> throw config.invalid(TIMER_SERVICE, value, "wheel (a timer wheel, the default) or heap"
                    + " (a priority heap)");
        };
    }

    private static MemberConfig.AgentIdle agentIdle(final ConfigFile config) {
        final String value = config.optional(AGENT_IDLE).orElse("backoff");
        return switch (value) {
            case "backoff" -> MemberConfig.AgentIdle.BACKOFF;
            case "yielding" -> MemberConfig.AgentIdle.YIELDING;
            case "busy-spin" -> MemberConfig.AgentIdle.BUSY_SPIN;
            default -> throw config.invalid(AGENT_IDLE, value, "backoff (spin, yield, then park up to 1 ms: the"
                    + " default), yielding or busy-spin (a core for each of the member's agents)");
        };
    }

    private static Authentication authentication(final ConfigFile config) {
        final String expected = "none, shared-secret (with " + SECRET_FILE + ") or client-secrets (with "
                + CLIENT_SECRETS_FILE + ")";
        final String value = config.required(AUTHENTICATION, expected);
        for (final Authentication candidate : Authentication.values()) {
            if (candidate.value.equals(value)) {
                return candidate;
            }
        }
        throw config.invalid(AUTHENTICATION, value, expected);
    }

    private static AuthenticatorSupplier authenticator(final ConfigFile config, final Authentication authentication) {
        for (final String key : List.of(SECRET_FILE, CLIENT_SECRETS_FILE)) {
            final boolean belongs = key.equals(SECRET_FILE) ? authentication == Authentication.SHARED_SECRET
                    : authentication == Authentication.CLIENT_SECRETS;
            if (config.has(key) && !belongs) {
                throw config.fail(key + " is '" + config.entries().get(key) + "' but " + AUTHENTICATION + " is "
                        + authentication.value + ", which does not read it; expected " + key + " only with "
                        + AUTHENTICATION + "=" + (key.equals(SECRET_FILE) ? Authentication.SHARED_SECRET.value
                        : Authentication.CLIENT_SECRETS.value));
            }
        }
        switch (authentication) {
            case SHARED_SECRET -> {
                final String value = config.required(SECRET_FILE, "the file holding the shared secret (its bytes, at"
                        + " least 16), with " + AUTHENTICATION + "=shared-secret");
                final Path path = config.path(SECRET_FILE, value);
                final byte[] secret;
                try {
                    secret = Files.readAllBytes(path);
                } catch (final IOException e) {
                    throw config.invalid(SECRET_FILE, value, "a readable file holding the shared secret (" + e + ")");
                }
                if (secret.length < ClientSecrets.MIN_SECRET_LENGTH) {
                    throw config.invalid(SECRET_FILE, value, "a file of at least " + ClientSecrets.MIN_SECRET_LENGTH
                            + " bytes, which cannot be guessed (such as head -c 32 /dev/urandom > " + path.getFileName()
                            + "); it holds " + secret.length);
                }
                return new SharedSecretAuthenticator(secret);
            }
            case CLIENT_SECRETS -> {
                final String value = config.required(CLIENT_SECRETS_FILE, "the file of clientId=<base64 secret>"
                        + " lines, with " + AUTHENTICATION + "=client-secrets");
                return new ClientIdAuthenticator(ClientSecretsFile.read(config, CLIENT_SECRETS_FILE, value,
                        config.path(CLIENT_SECRETS_FILE, value)));
            }
            default -> {
                return null;
            }
        }
    }

    /** @return the configuration file, as an absolute path */
    public Path file() {
        return file;
    }

    /** @return the member's config: id, members, directory, timeouts and timers */
    public MemberConfig memberConfig() {
        return memberConfig;
    }

    /** @return when the leader asks for snapshots on its own, and what each member keeps */
    public RetentionPolicy retention() {
        return retention;
    }

    /** @return how the member admits client sessions */
    public Authentication authentication() {
        return authentication;
    }

    /**
     * @return the authenticator for {@link ClusterMember#start(MemberConfig, io.aeron.cluster.service.ClusteredService,
     *         AuthenticatorSupplier)}; empty with {@code authentication=none}
     */
    public Optional<AuthenticatorSupplier> authenticator() {
        return Optional.ofNullable(authenticator);
    }

    /** @return the service factory, made once by {@link #load} */
    public ClusteredServiceFactory serviceFactory() {
        return serviceFactory;
    }

    /**
     * @return the service's own settings: every {@code app.*} key without its {@code app.} prefix,
     *         in the file's order ({@code app.ring.size=4096} is {@code ring.size} to {@code 4096})
     */
    public Map<String, String> appProperties() {
        return appProperties;
    }

    @Override
    public String toString() {
        return "LauncherConfig[" + file + ": " + memberConfig + ", " + retention + ", authentication " + authentication.value
                + ", factory " + serviceFactory.getClass().getName() + ", app " + appProperties.keySet() + "]";
    }
}
