package dev.slipstream.examples.cluster;

import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.ClusterMembers;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.examples.orderbook.ReferenceMatcher;
import dev.slipstream.examples.orderbook.Side;
import dev.slipstream.topology.StageSpec;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The order-matching engine, replicated by Aeron Cluster: three members as separate processes,
 * a client sending orders, the leader killed with SIGKILL mid-stream, the client going on
 * through the new leader, the dead member started again (it catches up from its snapshot and
 * the log). At the end every member must have applied every command exactly once, in the same
 * order, and hold the book and the executions of the reference matcher fed the commands in that
 * order. It prints a line per phase and event (members started, the leader elected, orders sent,
 * the kill, the new leader's first answer, the restart, the check), each stamped with the seconds
 * since the start, then a summary.
 *
 * <pre>{@code
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp examples/target/examples.jar \
 *     dev.slipstream.examples.cluster.ClusteredExchange [orders]
 * }</pre>
 *
 * <p>Members here use base ports 22100, 22110, 22120 on localhost, directories under a new
 * temporary directory, and a 3 s leader heartbeat timeout (Aeron's default is 10 s; the shorter
 * one makes the failover quick to watch).
 */
public final class ClusteredExchange {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    /** The longest the run stays silent while orders are in flight (a failover takes seconds). */
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(2);
    /** How often the members are asked for their role after the kill, until one leads. */
    private static final Duration ROLE_CHECK_INTERVAL = Duration.ofMillis(250);

    private ClusteredExchange() {
    }

    /**
     * Runs the demonstration, or (first argument {@code member}) one member.
     *
     * @param args {@code [orders]}, or {@code member id members dir heartbeatMillis}
     * @throws Exception if a member fails to start or the check fails
     */
    public static void main(final String[] args) throws Exception {
        if (args.length > 0 && "member".equals(args[0])) {
            runMember(Integer.parseInt(args[1]), Arrays.asList(args[2].split(",")), Path.of(args[3]),
                    Duration.ofMillis(Long.parseLong(args[4])));
            return;
        }
        final int orders = args.length > 0 ? Integer.parseInt(args[0]) : 3_000;
        final Path dir = Files.createTempDirectory("clustered-exchange");
        try {
            System.out.println(run(dir, orders, 22100));
        } finally {
            try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** The clustered service: match, then acknowledge. */
    static PipelineClusteredService<ExchangeCommand> service(final AtomicReference<ClusteredBook> current) {
        return PipelineClusteredService.builder(ExchangeCommand::new)
                .ingress((buffer, offset, length, into) -> into.decode(buffer, offset, length))
                .ringSize(1024)
                .pipeline((pipeline, outbox, states) -> {
                    final ClusteredBook book = new ClusteredBook();
                    states.register("book", book);
                    current.set(book);
                    pipeline.handleEventsWith(StageSpec.of("match", book))
                            .then(StageSpec.of("ack", (command, sequence, endOfBatch) ->
                                    outbox.reply(command, (buffer, offset, arg) -> 0, null)));
                })
                .build();
    }

    private static void runMember(final int id, final List<String> members, final Path dir,
            final Duration heartbeat) throws IOException {
        final AtomicReference<ClusteredBook> book = new AtomicReference<>();
        final MemberConfig config = new MemberConfig(id, members, dir, heartbeat, Duration.ofSeconds(60));
        try (ClusterMember member = ClusterMember.start(config, service(book))) {
            System.out.println("READY");
            System.out.flush();
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"stop".equals(line)) {
                final ClusteredBook current = book.get();
                if ("digest".equals(line)) {
                    System.out.println("DIGEST " + (current == null ? "none" : current.digest()));
                } else if ("order".equals(line)) {
                    System.out.println("ORDER " + (current == null ? "" : current.appliedOrder()));
                } else if ("role".equals(line)) {
                    System.out.println("ROLE " + member.role());
                }
                System.out.flush();
            }
        }
    }

    /**
     * Runs the whole demonstration, printing a line per phase and event to standard output.
     *
     * @param dir where the members keep their directories
     * @param orders how many commands to send
     * @param basePort member 0's base port (members 1 and 2 follow, 10 apart)
     * @return a summary of the run
     * @throws Exception if a member fails or the check fails (an {@link IllegalStateException})
     */
    public static String run(final Path dir, final int orders, final int basePort) throws Exception {
        final Progress progress = new Progress();
        final List<String> members = List.of("localhost:" + basePort, "localhost:" + (basePort + 10),
                "localhost:" + (basePort + 20));
        final Member[] processes = new Member[3];
        final List<String> events = new ArrayList<>();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(dir.resolve("client-driver").toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000))
                .dirDeleteOnStart(true).dirDeleteOnShutdown(true))) {
            progress.say("starting 3 members, one process each, 3 s leader heartbeat timeout, logs in " + dir);
            for (int i = 0; i < 3; i++) {
                processes[i] = startMember(progress, i, members, dir, false);
            }
            final List<ExchangeCommand> sent = new ArrayList<>();
            final long[] answered = {0};
            progress.say("waiting for the members to elect a leader");
            try (ClusterCommandClient client = connect(driver.aeronDirectoryName(), members,
                    (correlationId, status, buffer, offset, length) -> answered[0]++)) {
                progress.say("leader elected: member " + client.leaderMemberId() + "; the client is connected");
                progress.say("sending " + orders + " orders (limit, market and cancel, seeded), up to 256 unanswered");
                final Random random = new Random(42);
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[ExchangeCommand.LENGTH]);
                int dead = -1;
                Failover failover = null;
                int reported = 0;
                final long deadline = System.nanoTime() + LIMIT.toNanos();
                while (sent.size() < orders || client.inFlight() > 0) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("timed out: sent " + sent.size() + ", answered " + answered[0]
                                + ", events " + events);
                    }
                    if (sent.size() < orders) {
                        final ExchangeCommand command = next(random, sent.size() + 1);
                        command.encode(payload, 0);
                        if (client.trySend(payload, 0, ExchangeCommand.LENGTH) > 0) {
                            sent.add(command.copy());
                        }
                    }
                    client.poll();
                    final int tenths = sent.size() * 10 / orders;
                    if (tenths > reported || progress.quietFor(PROGRESS_INTERVAL)) {
                        reported = Math.max(reported, tenths);
                        progress.say("orders " + sent.size() + "/" + orders + " sent, " + answered[0] + " answered"
                                + (failover != null && !failover.answered() ? "; waiting for a new leader" : ""));
                    }
                    if (failover == null && answered[0] >= orders / 3) {
                        dead = client.leaderMemberId();
                        failover = new Failover(answered[0]);
                        processes[dead].kill();
                        events.add("SIGKILL to leader " + dead + " after " + answered[0] + " answers");
                        progress.say("leader member " + dead + " killed (SIGKILL) at order " + sent.size() + ", "
                                + answered[0] + " answered");
                    }
                    if (failover != null && !failover.answered()) {
                        failover.watch(answered[0], processes, dead, client, progress);
                    }
                    if (dead >= 0 && answered[0] >= orders / 2) {
                        if (!failover.answered()) {
                            failover.checkNow();  // the answers that reached half may be the new leader's
                            failover.watch(answered[0], processes, dead, client, progress);
                        }
                        progress.say("restarting member " + dead + " after " + answered[0] + " answers");
                        processes[dead] = startMember(progress, dead, members, dir, true);
                        events.add("member " + dead + " started again after " + answered[0] + " answers, leader "
                                + client.leaderMemberId());
                        dead = -1;
                    }
                }
                if (failover != null && !failover.answered()) {
                    failover.checkNow();  // the last answers came since the last check
                    failover.watch(answered[0], processes, dead, client, progress);
                }
                if (dead >= 0) {
                    processes[dead] = startMember(progress, dead, members, dir, true);
                }
                progress.say("all " + orders + " orders answered; the client re-sent " + client.resends()
                        + " and reconnected " + client.reconnects() + " times");
                events.add("client: " + client.resends() + " re-sent, " + client.reconnects() + " reconnects");
            }
            final String summary = check(progress, processes, sent, events);
            progress.say("every member applied the " + sent.size() + " commands once each, in one order, and holds"
                    + " the reference matcher's book and executions");
            return summary;
        } finally {
            for (final Member m : processes) {
                if (m != null) {
                    m.kill();
                }
            }
        }
    }

    private static Member startMember(final Progress progress, final int id, final List<String> members,
            final Path dir, final boolean again) throws IOException, InterruptedException {
        final int base = ClusterMembers.parse(members).port(id, 0);
        progress.say("member " + id + " starting: localhost, ports " + base + "-"
                + (base + ClusterMembers.PORTS_PER_MEMBER - 1));
        final Member member = new Member(id, members, dir);
        progress.say("member " + id + (again ? " started again (pid " + member.pid() + "), catching up with the cluster"
                : " started (pid " + member.pid() + ")"));
        return member;
    }

    /** Every member applied 1..n once each, in one order, and holds the reference's book for that order. */
    private static String check(final Progress progress, final Member[] members, final List<ExchangeCommand> sent,
            final List<String> events) throws Exception {
        progress.say("checking every member's state: commands applied, their order, the book against the reference");
        final String[] orders = new String[members.length];
        final String[] digests = new String[members.length];
        for (int i = 0; i < members.length; i++) {
            final long startNs = System.nanoTime();
            final long deadline = startNs + LIMIT.toNanos();
            boolean behind = false;
            while (true) {
                digests[i] = members[i].ask("digest", "DIGEST");
                if (digests[i].startsWith(sent.size() + " commands")) {
                    break;
                }
                behind = true;
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("member " + i + " holds " + digests[i] + "; expected "
                            + sent.size() + " commands; " + events);
                }
                if (progress.quietFor(PROGRESS_INTERVAL)) {
                    final int comma = digests[i].indexOf(',');
                    progress.say("member " + i + " holds " + (comma < 0 ? digests[i] : digests[i].substring(0, comma))
                            + " of " + sent.size() + ", catching up");
                }
                Thread.sleep(50);  // polling the member's state while it catches up
            }
            final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            progress.say("member " + i + " has applied all " + sent.size() + " commands"
                    + (behind ? " (caught up " + waitedMs + " ms into the check)" : ""));
            orders[i] = members[i].ask("order", "ORDER");
        }
        final long[] applied = Arrays.stream(orders[0].split(",")).mapToLong(Long::parseLong).toArray();
        final boolean[] seen = new boolean[sent.size() + 1];
        for (final long id : applied) {
            if (id < 1 || id > sent.size() || seen[(int) id]) {
                throw new IllegalStateException("command " + id + " applied twice or never sent; " + events);
            }
            seen[(int) id] = true;
        }
        final ReferenceMatcher reference = new ReferenceMatcher(ClusteredBook.MAX_PRICE, ClusteredBook.CAPACITY);
        final ClusteredBook.Digest executions = new ClusteredBook.Digest();
        for (final long id : applied) {
            sent.get((int) id - 1).applyTo(reference, executions);
        }
        final String expected = ClusteredBook.digest(applied.length, reference, executions);
        for (int i = 0; i < members.length; i++) {
            if (!orders[i].equals(orders[0])) {
                throw new IllegalStateException("members 0 and " + i + " applied the commands in different orders");
            }
            if (!digests[i].equals(expected)) {
                throw new IllegalStateException("member " + i + " holds " + digests[i] + "; the reference matcher "
                        + expected + "; " + events);
            }
        }
        return "clustered exchange: " + sent.size() + " commands, each applied once on every member; " + events
                + "; every member and the reference: " + expected;
    }

    /** Mostly limit orders around 500, some market orders and cancels of earlier orders. */
    private static ExchangeCommand next(final Random random, final long id) {
        final int kind = random.nextInt(100);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        if (kind < 70 || id < 10) {
            return new ExchangeCommand().limit(id, side, 490 + random.nextInt(21), 1 + random.nextInt(10));
        }
        if (kind < 85) {
            return new ExchangeCommand().market(id, side, 1 + random.nextInt(10));
        }
        return new ExchangeCommand().cancel(1 + random.nextInt((int) id - 1));
    }

    private static ClusterCommandClient connect(final String driverDir, final List<String> members,
            final dev.slipstream.cluster.ReplyListener listener) {
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            try {
                return ClusterCommandClient.connect(new ClusterCommandClient.Context()
                        .aeronDirectoryName(driverDir)
                        .ingressEndpoints(ClusterMembers.parse(members).ingressEndpoints())
                        .clientId(1)
                        .limits(256, ExchangeCommand.LENGTH)
                        .replyListener(listener));
            } catch (final IllegalStateException noLeaderYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw noLeaderYet;
                }
            }
        }
    }

    /** A member process: started from this class with {@code member ...}, spoken to over stdin and stdout. */
    private static final class Member {
        private final Process process;
        private final Writer input;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final int id;

        Member(final int id, final List<String> members, final Path dir) throws IOException, InterruptedException {
            this.id = id;
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            this.process = new ProcessBuilder(java, "-Xmx256m", "--add-opens",
                    "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    ClusteredExchange.class.getName(), "member", Integer.toString(id), String.join(",", members),
                    dir.resolve("member-" + id).toString(), "3000")
                    .redirectError(dir.resolve("member-" + id + ".log").toFile())
                    .start();
            this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
            final Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.US_ASCII))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (final IOException gone) {
                    // the member was killed
                }
            }, "member-" + id + "-output");
            reader.setDaemon(true);
            reader.start();
            expect("READY");
        }

        String ask(final String command, final String prefix) throws IOException, InterruptedException {
            input.write(command + "\n");
            input.flush();
            return expect(prefix);
        }

        private String expect(final String prefix) throws InterruptedException {
            while (true) {
                final String line = lines.poll(60, TimeUnit.SECONDS);
                if (line == null) {
                    throw new IllegalStateException("member " + id + " did not answer " + prefix + " within 60 s");
                }
                if (line.startsWith(prefix)) {
                    return line.substring(prefix.length()).trim();
                }
            }
        }

        long pid() {
            return process.pid();
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Which member leads after the kill and when it first answered. The members are asked for their
     * role (every {@link #ROLE_CHECK_INTERVAL}): the client hears of a new leader only after its first
     * replies. An answer counts as the new leader's if it came after a check that found no leader,
     * so that the replies the old leader had sent before it died do not.
     */
    private static final class Failover {
        private final long killedNs = System.nanoTime();
        private long answeredAtCheck;
        private long firstAnswerNs;
        private long nextCheckNs = killedNs;
        private boolean answered;

        Failover(final long answered) {
            this.answeredAtCheck = answered;
        }

        boolean answered() {
            return answered;
        }

        void checkNow() {
            nextCheckNs = System.nanoTime();
        }

        void watch(final long answeredNow, final Member[] members, final int dead, final ClusterCommandClient client,
                final Progress progress) throws IOException, InterruptedException {
            final long now = System.nanoTime();
            if (firstAnswerNs == 0 && answeredNow > answeredAtCheck) {
                firstAnswerNs = now;
            }
            if (now - nextCheckNs < 0) {
                return;
            }
            nextCheckNs = now + ROLE_CHECK_INTERVAL.toNanos();
            final int leader = leader(members, dead);
            if (leader < 0) {
                answeredAtCheck = answeredNow;
                firstAnswerNs = 0;
            } else if (firstAnswerNs != 0) {
                answered = true;
                progress.say("new leader member " + leader + " answered "
                        + TimeUnit.NANOSECONDS.toMillis(firstAnswerNs - killedNs) + " ms after the kill; the client"
                        + " re-sent " + client.resends() + " commands");
            }
        }

        /** @return the running member whose role is leader, or -1 while none is (during an election) */
        private static int leader(final Member[] members, final int dead) throws IOException, InterruptedException {
            for (int i = 0; i < members.length; i++) {
                if (i != dead && "LEADER".equals(members[i].ask("role", "ROLE"))) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** One line per phase or event, stamped with the seconds since the run started. */
    private static final class Progress {
        private final long startNs = System.nanoTime();
        private long lastNs = startNs;

        void say(final String line) {
            lastNs = System.nanoTime();
            System.out.printf(Locale.ROOT, "[%4.1f s] %s%n", (lastNs - startNs) / 1e9, line);
            System.out.flush();
        }

        boolean quietFor(final Duration interval) {
            return System.nanoTime() - lastNs > interval.toNanos();
        }
    }
}
