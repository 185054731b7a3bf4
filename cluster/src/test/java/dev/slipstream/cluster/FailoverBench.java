package dev.slipstream.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Measures failover as a client sees it, on three {@link MemberProcess}es on this machine, for
 * {@code benchmarks/scripts/failover.sh} (which documents the command and the output).
 *
 * <p>{@code kills}: a client sends at a steady rate; again and again the leader is killed with
 * SIGKILL, and the time from the kill to the answer of the first command sent after it is taken,
 * with where it went: the followers' wait for the dead leader ({@code detect}), the election's
 * phases as the new leader's election state shows them ({@code canvass}, {@code nominate},
 * {@code ballot}, {@code takeover}: from its win to the election's end), the new-leader event
 * reaching the client ({@code event}) and the first answer after it ({@code answer}). The dead
 * member is started again and catches up before the next kill.
 *
 * <p>{@code false-elections}: no kills; the client sends at a steady rate for a while, and the
 * members' election counters say how many elections the load (a CPU burner the script starts)
 * caused.
 *
 * <p>Both end with every command answered and the members' state checked against the commands
 * sent: an acknowledged command missing from it is lost, one counted twice applied twice. Lines
 * for a person start with {@code #} or a word; the figures a script reads start with
 * {@code RESULT}.
 */
public final class FailoverBench {
    private static final Duration LIMIT = Duration.ofMinutes(2);

    private final String mode;
    private final String config;
    private final int kills;
    private final int rate;
    private final double minutes;
    private final int basePort;
    private final Path dir;
    private final long gapNs;
    private final boolean verbose;

    private FailoverBench(final Map<String, String> options) {
        this.mode = options.getOrDefault("mode", "kills");
        this.config = options.getOrDefault("config", "fast");
        this.kills = Integer.parseInt(options.getOrDefault("kills", "20"));
        this.rate = Integer.parseInt(options.getOrDefault("rate", "kills".equals(mode) ? "1000" : "10000"));
        this.minutes = Double.parseDouble(options.getOrDefault("minutes", "10"));
        this.basePort = Integer.parseInt(options.getOrDefault("base-port", "28400"));
        this.dir = Path.of(options.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/failover-bench"));
        this.gapNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(options.getOrDefault("gap-ms", "1000")));
        this.verbose = Boolean.parseBoolean(options.getOrDefault("verbose", "false"));
        if (!"kills".equals(mode) && !"false-elections".equals(mode)) {
            throw new IllegalArgumentException("--mode is '" + mode + "'; expected kills or false-elections");
        }
        if (rate < 1 || kills < 1 || minutes <= 0) {
            throw new IllegalArgumentException("--rate, --kills and --minutes must be positive");
        }
    }

    /**
     * @param args {@code --mode kills|false-elections}, {@code --config fast|default|<heartbeat ms>},
     *        {@code --kills N}, {@code --rate commands/s}, {@code --minutes M}, {@code --base-port P}
     *        (P to P+24 on localhost), {@code --dir D}, {@code --gap-ms G} (steady load before each kill),
     *        {@code --verbose true} (every surviving member's election states, in ms after each kill)
     * @throws Exception if the run fails; the exit status is 1 if a check failed
     */
    public static void main(final String[] args) throws Exception {
        final Map<String, String> options = new TreeMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + String.join(" ", args));
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        final boolean ok = new FailoverBench(options).run();
        System.out.flush();
        // the client driver's and Aeron's threads must not keep the JVM
        System.exit(ok ? 0 : 1);
    }

    private boolean run() throws Exception {
        Files.createDirectories(dir);
        final Path runDir = Files.createTempDirectory(dir, mode + "-" + config + "-");
        final ProcessCluster cluster = new ProcessCluster(runDir, basePort, 3, "plain", config).trace();
        final MemberConfig members = cluster.memberConfig();
        final Counts counts = new Counts();
        try (cluster; ClientDriver driver = new ClientDriver(runDir.resolve("client-driver"))) {
            System.out.printf(Locale.ROOT, "# %s %s: config %s (leader heartbeat timeout %d ms, interval %d ms,"
                    + " election timeout %d ms, election status interval %d ms), %,d commands/s, %d cores, load %s,"
                    + " directory %s%n", Instant.now(), mode, config, members.leaderHeartbeatTimeout().toMillis(),
                    members.leaderHeartbeatInterval().toMillis(), members.electionTimeout().toMillis(),
                    members.electionStatusInterval().toMillis(), rate, Runtime.getRuntime().availableProcessors(),
                    load(), runDir);
            cluster.startAll();
            try (ClusterCommandClient client = cluster.connect(driver, counts, LIMIT,
                    context -> context.limits(4096, Long.BYTES).commandTimeout(Duration.ofMinutes(10)))) {
                System.out.printf(Locale.ROOT, "# client re-sends after %d ms without an answer"
                        + " (resendAfterFailoverOf the members' settings)%n",
                        TimeUnit.NANOSECONDS.toMillis(new ClusterCommandClient.Context().resendAfterFailoverOf(members)
                                .resendAfterNs()));
                final Sender sender = new Sender(client, counts, rate);
                final boolean ok = "kills".equals(mode) ? kills(cluster, sender) : falseElections(cluster, sender);
                return check(cluster, sender) && ok;
            }
        } finally {
            // the members' logs and archives: tens of megabytes a run
            try (java.util.stream.Stream<Path> files = Files.walk(runDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** Sends at the rate, from each command's intended time, and polls the client. */
    private static final class Sender {
        final ClusterCommandClient client;
        final Counts counts;
        final long periodNs;
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[Long.BYTES]);
        long intendedNs = System.nanoTime();
        long sent;
        boolean sending = true;

        Sender(final ClusterCommandClient client, final Counts counts, final int rate) {
            this.client = client;
            this.counts = counts;
            this.periodNs = 1_000_000_000L / rate;
        }

        /** One round: what is due sent, the client polled; parks briefly when there was nothing to do. */
        int step() {
            int work = 0;
            final long now = System.nanoTime();
            while (sending && now - intendedNs >= 0) {
                payload.putLong(0, sent + 1);
                if (client.trySend(payload, 0, Long.BYTES) < 0) {
                    break;  // the window is full: sent when answers free it, from its intended time
                }
                sent++;
                intendedNs += periodNs;
                work++;
            }
            work += client.poll();
            if (work == 0) {
                LockSupport.parkNanos(50_000);
            }
            return work;
        }

        void runFor(final long nanos) {
            final long end = System.nanoTime() + nanos;
            while (System.nanoTime() - end < 0) {
                step();
            }
        }
    }

    /** What the client was answered. */
    private static final class Counts implements ReplyListener {
        final BitSet answeredIds = new BitSet();
        long answered;
        long applied;
        long duplicates;
        long unknown;
        long other;
        long repeated;
        /** Set by the kill loop: the first answer to a command with a higher id is the failover's end. */
        long watchAbove = Long.MAX_VALUE;
        long firstAnswerNs;

        @Override
        public void onReply(final long correlationId, final byte status, final DirectBuffer buffer, final int offset,
                final int length) {
            if (answeredIds.get((int) correlationId)) {
                repeated++;
            }
            answeredIds.set((int) correlationId);
            answered++;
            switch (status) {
                case CommandWireFormat.STATUS_APPLIED -> applied++;
                case CommandWireFormat.STATUS_DUPLICATE -> duplicates++;
                case CommandWireFormat.STATUS_OUTCOME_UNKNOWN -> unknown++;
                default -> other++;
            }
            if (correlationId > watchAbove && firstAnswerNs == 0 && status != CommandWireFormat.STATUS_OUTCOME_UNKNOWN) {
                firstAnswerNs = System.nanoTime();
            }
        }
    }

    /** One kill's figures, in milliseconds; -1 where the trace did not show the phase. */
    private record Kill(double total, double detect, double canvass, double nominate, double ballot, double takeover,
            double event, double answer, long timerResends) {
        static final String[] PHASES = {"detect", "canvass", "nominate", "ballot", "takeover", "event", "answer"};

        double[] phases() {
            return new double[] {detect, canvass, nominate, ballot, takeover, event, answer};
        }
    }

    private boolean kills(final ProcessCluster cluster, final Sender sender) throws Exception {
        final List<Kill> results = new ArrayList<>();
        sender.runFor(2 * gapNs);  // warm-up: the JIT, the first term's sessions
        for (int k = 1; k <= kills; k++) {
            sender.runFor(gapNs);
            final ClusterCommandClient client = sender.client;
            final int leader = client.leaderMemberId();
            if (leader < 0) {
                System.out.println("# kill " + k + ": the client knows no leader; waiting");
                k--;
                continue;
            }
            for (int i = 0; i < cluster.size(); i++) {
                cluster.traces(i);  // what came before this kill
            }
            final long resendsAtKill = client.resends();
            sender.counts.watchAbove = sender.sent;
            sender.counts.firstAnswerNs = 0;
            final long answeredAtKill = sender.counts.answered;
            final long killNs = System.nanoTime();
            cluster.kill(leader);
            long newLeaderNs = 0;
            int newLeader = -1;
            long timerResends = 0;
            final long deadline = killNs + LIMIT.toNanos();
            while (sender.counts.firstAnswerNs == 0) {
                if (System.nanoTime() - deadline > 0) {
                    System.out.println("FAILED kill " + k + ": no answer " + LIMIT + " after the kill");
                    return false;
                }
                final long resendsBefore = client.resends();
                sender.step();
                final int now = client.leaderMemberId();
                if (newLeaderNs == 0 && now >= 0 && now != leader) {
                    newLeaderNs = System.nanoTime();
                    newLeader = now;
                    // re-sends before the event went to the dead leader: the timer's
                    timerResends = resendsBefore - resendsAtKill;
                }
            }
            final long firstNs = sender.counts.firstAnswerNs;
            if (newLeaderNs == 0) {
                newLeaderNs = firstNs;
                newLeader = client.leaderMemberId();
            }
            // the trace lines of the election's end are printed before the answer; give the pipe a moment
            sender.runFor(TimeUnit.MILLISECONDS.toNanos(100));
            final List<List<String>> traces = new ArrayList<>();
            for (int i = 0; i < cluster.size(); i++) {
                traces.add(cluster.traces(i));
            }
            final Kill kill = phases(newLeader >= 0 ? traces.get(newLeader) : List.of(), killNs, newLeaderNs, firstNs,
                    timerResends);
            if (verbose) {
                for (int i = 0; i < traces.size(); i++) {
                    final StringBuilder states = new StringBuilder();
                    for (final String line : traces.get(i)) {
                        final String[] parts = line.split(" ");
                        states.append(String.format(Locale.ROOT, " %s@%.1f", parts[2],
                                ms(Long.parseLong(parts[1]) - killNs)));
                    }
                    System.out.println("#   member " + i + (i == newLeader ? " (new leader)" : "") + ":" + states);
                }
                System.out.printf(Locale.ROOT, "#   client: new-leader event @%.1f, first answer @%.1f%n",
                        ms(newLeaderNs - killNs), ms(firstNs - killNs));
            }
            results.add(kill);
            System.out.printf(Locale.ROOT, "kill %d/%d %s: leader %d killed at %,d answered; new leader %d; kill to"
                    + " first answer %.0f ms (%s); re-sends to the dead leader %d%n", k, kills, config, leader,
                    answeredAtKill, newLeader, kill.total(), describe(kill), timerResends);
            final int dead = leader;
            final long target = sender.counts.answered;
            // started again in the background: the client keeps sending and polling meanwhile
            final CompletableFuture<Void> repair = CompletableFuture.runAsync(() -> {
                try {
                    cluster.start(dead);
                    cluster.awaitAnswer(dead, "digest", "DIGEST", digest -> !digest.startsWith("none")
                            && Long.parseLong(digest.substring(0, digest.indexOf('/'))) >= target, LIMIT);
                } catch (final Exception e) {
                    throw new IllegalStateException("member " + dead + " did not come back: " + e, e);
                }
            });
            while (!repair.isDone()) {
                sender.step();
            }
            repair.join();
            for (int i = 0; i < cluster.size(); i++) {
                cluster.traces(i);
            }
        }
        summarise(results);
        return true;
    }

    /** The phases from the new leader's trace: the last time it entered each state before the election's end. */
    private static Kill phases(final List<String> trace, final long killNs, final long newLeaderNs,
            final long firstNs, final long timerResends) {
        final Map<String, Long> entered = new TreeMap<>();
        long start = 0;
        long end = 0;
        for (final String line : trace) {
            final String[] parts = line.split(" ");
            final long at = Long.parseLong(parts[1]);
            final String state = parts[2];
            if (at < killNs) {
                continue;
            }
            if ("CLOSED".equals(state)) {
                end = at;
                break;
            }
            if (start == 0) {
                start = at;
            }
            entered.put(state, at);
        }
        final double total = ms(firstNs - killNs);
        if (start == 0 || end == 0) {
            return new Kill(total, -1, -1, -1, -1, -1, -1, ms(firstNs - newLeaderNs), timerResends);
        }
        final long canvass = entered.getOrDefault("CANVASS", start);
        final long nominate = entered.getOrDefault("NOMINATE", 0L);
        final long ballot = entered.getOrDefault("CANDIDATE_BALLOT", 0L);
        final long won = entered.getOrDefault("LEADER_LOG_REPLICATION", entered.getOrDefault("LEADER_READY", 0L));
        return new Kill(total, ms(start - killNs), nominate == 0 ? -1 : ms(nominate - canvass),
                nominate == 0 || ballot == 0 ? -1 : ms(ballot - nominate), ballot == 0 || won == 0 ? -1 : ms(won - ballot),
                won == 0 ? -1 : ms(end - won), ms(newLeaderNs - end), ms(firstNs - newLeaderNs), timerResends);
    }

    private static String describe(final Kill kill) {
        final StringBuilder out = new StringBuilder();
        final double[] values = kill.phases();
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ", ").append(Kill.PHASES[i]).append(' ')
                    .append(values[i] < 0 ? "?" : String.format(Locale.ROOT, "%.0f", values[i]));
        }
        return out.toString();
    }

    private void summarise(final List<Kill> results) {
        final double[] totals = results.stream().mapToDouble(Kill::total).sorted().toArray();
        System.out.printf(Locale.ROOT, "%s: %d kills, kill to first answer median %.0f ms, min %.0f ms, max %.0f ms%n",
                config, totals.length, median(totals), totals[0], totals[totals.length - 1]);
        final StringBuilder phases = new StringBuilder();
        for (int p = 0; p < Kill.PHASES.length; p++) {
            final int index = p;
            final double[] values = results.stream().mapToDouble(kill -> kill.phases()[index]).filter(v -> v >= 0)
                    .sorted().toArray();
            phases.append(p == 0 ? "" : ", ").append(Kill.PHASES[p]).append(' ')
                    .append(values.length == 0 ? "?" : String.format(Locale.ROOT, "%.0f", median(values)));
        }
        System.out.println(config + ": median per phase (ms): " + phases);
        System.out.printf(Locale.ROOT, "RESULT mode=kills config=%s kills=%d median_ms=%.1f min_ms=%.1f max_ms=%.1f"
                + " timer_resends=%d%n", config, totals.length, median(totals), totals[0], totals[totals.length - 1],
                results.stream().mapToLong(Kill::timerResends).sum());
        for (int p = 0; p < Kill.PHASES.length; p++) {
            final int index = p;
            final double[] values = results.stream().mapToDouble(kill -> kill.phases()[index]).filter(v -> v >= 0)
                    .sorted().toArray();
            if (values.length > 0) {
                System.out.printf(Locale.ROOT, "RESULT mode=kills config=%s phase=%s median_ms=%.1f max_ms=%.1f%n",
                        config, Kill.PHASES[p], median(values), values[values.length - 1]);
            }
        }
    }

    private boolean falseElections(final ProcessCluster cluster, final Sender sender) throws Exception {
        sender.runFor(2_000_000_000L);  // warm-up
        final long[] before = elections(cluster);
        final long start = System.nanoTime();
        final long end = start + (long) (minutes * 60e9);
        final long progressNs = TimeUnit.SECONDS.toNanos(Math.max(1, Math.min(10, (long) (minutes * 6))));
        int leaderChanges = 0;
        int leader = sender.client.leaderMemberId();
        long lastProgress = start;
        long answeredAtLast = sender.counts.answered;
        while (System.nanoTime() - end < 0) {
            sender.step();
            final int now = sender.client.leaderMemberId();
            if (now >= 0 && now != leader) {
                leaderChanges++;
                System.out.printf(Locale.ROOT, "[%s] the leader changed: %d to %d%n", clock(start), leader, now);
                leader = now;
            }
            if (System.nanoTime() - lastProgress >= progressNs) {
                final long t = System.nanoTime();
                final long[] current = elections(cluster);
                System.out.printf(Locale.ROOT, "[%s] sent %,d, answered %,d (%,.0f/s), in flight %d, elections so far"
                        + " %d, load %s%n", clock(start), sender.sent, sender.counts.answered,
                        (sender.counts.answered - answeredAtLast) / ((t - lastProgress) / 1e9),
                        sender.client.inFlight(), rise(before, current), load());
                lastProgress = System.nanoTime();
                answeredAtLast = sender.counts.answered;
            }
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        final long elections = rise(before, elections(cluster));
        System.out.printf(Locale.ROOT, "%s: %.1f minutes at %,d commands/s asked, %,.0f/s answered: %d elections, %d"
                + " leader changes seen by the client%n", config, seconds / 60, rate,
                sender.counts.answered / seconds, elections, leaderChanges);
        System.out.printf(Locale.ROOT, "RESULT mode=false-elections config=%s minutes=%.1f rate=%d answered_per_s=%.0f"
                + " elections=%d leader_changes=%d%n", config, seconds / 60, rate, sender.counts.answered / seconds,
                elections, leaderChanges);
        return true;
    }

    /** Each member's election count now. */
    private static long[] elections(final ProcessCluster cluster) throws Exception {
        final long[] counts = new long[cluster.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = Long.parseLong(cluster.ask(i, "elections", "ELECTIONS"));
        }
        return counts;
    }

    /** Elections since {@code before}: the most any member took part in (each counts every election it saw). */
    private static long rise(final long[] before, final long[] after) {
        long most = 0;
        for (int i = 0; i < before.length; i++) {
            most = Math.max(most, after[i] - before[i]);
        }
        return most;
    }

    /** Every command answered, then each member's state against the commands sent. */
    private boolean check(final ProcessCluster cluster, final Sender sender) throws Exception {
        sender.sending = false;
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (sender.client.inFlight() > 0 && System.nanoTime() - deadline < 0) {
            sender.step();
        }
        final Counts counts = sender.counts;
        final long n = sender.sent;
        long sum = 0;
        long fingerprint = 0;
        for (long v = 1; v <= n; v++) {
            sum += v;
            fingerprint += Ledger.hash(v);
        }
        boolean ok = counts.answered == n && counts.repeated == 0 && counts.unknown == 0 && counts.other == 0;
        long lost = 0;
        long twice = 0;
        for (int i = 0; i < cluster.size(); i++) {
            final String digest = cluster.awaitAnswer(i, "digest", "DIGEST", d -> !d.startsWith("none")
                    && Long.parseLong(d.substring(0, d.indexOf('/'))) >= counts.applied, LIMIT);
            final String[] parts = digest.split("/");
            final long count = Long.parseLong(parts[0]);
            final boolean same = count == n && Long.parseLong(parts[1]) == sum
                    && parts[3].equals(Long.toHexString(fingerprint));
            if (!same) {
                ok = false;
                lost = Math.max(lost, n - count);
                twice = Math.max(twice, count - n);
                System.out.println("FAILED member " + i + " holds " + count + " commands (sum " + parts[1]
                        + "); expected each of the " + n + " sent once (sum " + sum + ")");
            }
        }
        System.out.printf(Locale.ROOT, "%s: %,d commands sent, %,d answered (%,d applied, %,d duplicates, %,d outcome"
                + " unknown, %,d other, %,d answered twice); acknowledged commands lost %d, applied twice %d; client"
                + " re-sends %,d, reconnects %d%n", config, n, counts.answered, counts.applied, counts.duplicates,
                counts.unknown, counts.other, counts.repeated, Math.max(0, lost), Math.max(0, twice),
                sender.client.resends(), sender.client.reconnects());
        System.out.printf(Locale.ROOT, "RESULT mode=%s config=%s sent=%d answered=%d lost=%d applied_twice=%d"
                + " duplicates=%d resends=%d check=%s%n", mode, config, n, counts.answered, Math.max(0, lost),
                Math.max(0, twice), counts.duplicates, sender.client.resends(), ok ? "ok" : "FAILED");
        return ok;
    }

    private static double median(final double[] sorted) {
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double ms(final long nanos) {
        return nanos / 1e6;
    }

    private static String clock(final long startNs) {
        final long s = (System.nanoTime() - startNs) / 1_000_000_000L;
        return String.format(Locale.ROOT, "%02d:%02d", s / 60, s % 60);
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (final java.io.IOException | RuntimeException e) {
            return "?";
        }
    }
}
