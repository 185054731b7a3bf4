package dev.slipstream.cluster;

import static dev.slipstream.cluster.TimerPipelines.schedule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stage timers in three members, each a process of its own ({@link ProcessCluster}, mode
 * {@code timers}: {@link TimerPipelines}' policy and its {@link SeenEvents} stage). Each round
 * schedules timers from commands, some due within 100 ms and some 1.5 to 6 s later; once the
 * leader's stage has seen the short ones fire, the leader is killed with SIGKILL while the long
 * ones are pending; the client schedules more through the new leader; the dead member is started
 * again and catches up. Then every member's stage has seen every scheduled timer fire exactly
 * once, at a cluster time no earlier than its command's cluster time plus its delay, and the three
 * records (every command and timer event, in order, with its cluster time) are equal. Timers
 * that fell due during the election fire late, once the new leader runs, and not necessarily in
 * the order of their deadlines (the runs print each one's lateness in log order): the test asserts
 * neither an order between timers nor a bound on lateness.
 *
 * <p>The members run on one host, so the cluster's clock (the leader's epoch milliseconds) and
 * this JVM's {@code System.currentTimeMillis()} agree to within a clock read: the test uses that
 * only to check its own premise, that some deadlines fell after the kill and so had to be fired
 * by the new leader. {@code -Dslipstream.cluster.timerKills=N} sets the number of rounds (one
 * kill each; one by default, five in the {@code cluster-long} profile).
 */
class TimerFailoverTest {
    private static final Duration LIMIT = Duration.ofMinutes(1);
    /** Delays (ms) of the timers due before the kill. */
    private static final long[] SHORT = {30, 60, 90};
    /** Delays (ms) of the timers pending at the kill: due during the election or after it. */
    private static final long[] LONG = {1_500, 3_000, 4_500, 6_000};
    /** Delays (ms) of the timers scheduled through the new leader. */
    private static final long[] AFTER = {50, 100, 150};
    /**
     * How long past the latest deadline each member has to show every timer fired: the timer's
     * event, its replication and the stages take milliseconds; the restarted member's catch-up
     * takes the rest. A timer that never fires (the seeded bug) costs the test this much.
     */
    private static final Duration SLACK = Duration.ofSeconds(6);

    @TempDir
    Path dir;

    @Test
    void timersPendingWhenTheLeaderIsKilledFireOnceOnEveryMemberNoEarlierThanTheirDeadline() throws Exception {
        final String report = run(22200, Integer.getInteger("slipstream.cluster.timerKills", 1), "timers");
        System.out.println("timers across a leader kill: " + report);
    }

    @Test
    @Tag("stress")
    void theTimerCheckCatchesAPolicyThatSchedulesOnlyOnTheLeader() {
        // the new leader's consensus module holds none of the timers pending at the kill: they never fire
        final AssertionError caught = assertThrows(AssertionError.class, () -> run(22500, 1, "timers-leader-only"));
        assertTrue(caught.getMessage().contains("every timer fired on member"), caught.getMessage());
    }

    @Test
    @Tag("stress")
    void theTimerCheckCatchesAStageThatRecordsFiringsByTheWallClock() {
        // each member handles a timer event at its own moment; the restarted member, replaying, seconds later
        final AssertionError caught = assertThrows(AssertionError.class, () -> run(22600, 1, "timers-wall-clock"));
        assertTrue(caught.getMessage().contains("saw the same events"), caught.getMessage());
    }

    /** Runs {@code rounds} rounds (one kill each) and checks the members' records; returns what happened. */
    private String run(final int basePort, final int rounds, final String mode) throws Exception {
        final List<String> log = new ArrayList<>();
        try (ProcessCluster cluster = new ProcessCluster(dir.resolve(mode), basePort, 3, mode);
             ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            cluster.startAll();
            // timer id to the amount of the command that scheduled it
            final Map<Long, Long> scheduled = new LinkedHashMap<>();
            try (ClusterCommandClient client = cluster.connect(driver, new Replies(), LIMIT)) {
                for (int round = 0; round < rounds; round++) {
                    final long base = 100L * round;
                    final long[] before = amounts(scheduled, base + 1, SHORT, LONG);
                    SingleMember.sendAll(client, before);
                    final int leader = client.leaderMemberId();
                    // the short timers fired in the old leader's term
                    final List<String> atKill = Arrays.asList(cluster.awaitAnswer(leader, "seen", "SEEN",
                            seen -> firedAll(seen, base + 1, SHORT.length), LIMIT).split(","));
                    final List<Long> beforeKill = new ArrayList<>();
                    long latest = 0;
                    for (int i = 0; i < before.length; i++) {
                        latest = Math.max(latest, deadline(atKill, base + 1 + i, before[i]));
                        beforeKill.add(base + 1 + i);
                    }
                    cluster.kill(leader);
                    final long killedAt = System.currentTimeMillis();
                    log.add("round " + round + ": leader " + leader + " killed");
                    // timers scheduled through the new leader (the client re-sends what was not answered)
                    SingleMember.sendAll(client, amounts(scheduled, base + 1 + SHORT.length + LONG.length, AFTER));
                    log.add("new leader " + client.leaderMemberId() + " answered "
                            + (System.currentTimeMillis() - killedAt) + " ms after the kill");
                    cluster.start(leader);
                    latest = Math.max(latest, System.currentTimeMillis() + AFTER[AFTER.length - 1]);
                    final long firedBy = awaitEveryTimer(cluster, scheduled, latest, log);
                    SingleMember.sendAll(client, 0);
                    final int marks = round + 1;
                    final String[] records = new String[cluster.size()];
                    for (int i = 0; i < cluster.size(); i++) {
                        records[i] = cluster.awaitAnswer(i, "seen", "SEEN", seen -> count(seen, "C0@") == marks, LIMIT);
                    }
                    final List<String> events = Arrays.asList(records[0].split(","));
                    check(events, scheduled, log);
                    for (int i = 1; i < records.length; i++) {
                        assertEquals(records[0], records[i], "members 0 and " + i + " saw the same events at the"
                                + " same cluster times; " + log);
                    }
                    final List<Long> dueAfterKill = beforeKill.stream()
                            .filter(id -> deadline(events, id, scheduled.get(id)) > killedAt).toList();
                    assertTrue(!dueAfterKill.isEmpty(), "some timers were due after the kill: " + events);
                    log.add("timers due after the kill, in log order, fired how long past their deadline: "
                            + events.stream().filter(e -> e.startsWith("T")
                                    && dueAfterKill.contains(Long.parseLong(e.substring(1, e.indexOf(':')))))
                            .map(e -> {
                                final long id = Long.parseLong(e.substring(1, e.indexOf(':')));
                                return "T" + id + " +" + (timeOf(e) - deadline(events, id, scheduled.get(id))) + " ms";
                            }).toList()
                            + "; every member had seen every timer " + (firedBy - killedAt) + " ms after the kill");
                }
            }
        }
        return log.toString();
    }

    /** Appends one schedule command per delay, timer ids from {@code firstId}; returns their amounts. */
    private static long[] amounts(final Map<Long, Long> scheduled, final long firstId, final long[]... delays) {
        final List<Long> amounts = new ArrayList<>();
        long id = firstId;
        for (final long[] group : delays) {
            for (final long delay : group) {
                final long amount = schedule(id, delay);
                scheduled.put(id++, amount);
                amounts.add(amount);
            }
        }
        return amounts.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Waits until every member's stage has seen every scheduled timer fire: for each member at
     * most until {@link #SLACK} after {@code latest}, the latest deadline (the members' clock is
     * this host's; the new leader is up and the restarted member running when this starts).
     * Returns the time it saw the last.
     */
    private static long awaitEveryTimer(final ProcessCluster cluster, final Map<Long, Long> scheduled,
            final long latest, final List<String> log) throws Exception {
        for (int i = 0; i < cluster.size(); i++) {
            final Duration limit = Duration.ofMillis(Math.max(0, latest - System.currentTimeMillis()))
                    .plus(SLACK);
            try {
                cluster.awaitAnswer(i, "seen", "SEEN",
                        seen -> scheduled.keySet().stream().allMatch(id -> count(seen, "T" + id + ":") > 0), limit);
            } catch (final AssertionError missing) {
                throw new AssertionError("every timer fired on member " + i + ": " + missing.getMessage() + "; " + log,
                        missing);
            }
        }
        return System.currentTimeMillis();
    }

    /** Every scheduled timer fired exactly once, no earlier than its deadline; no other timer fired. */
    private static void check(final List<String> events, final Map<Long, Long> scheduled, final List<String> log) {
        final long timerEvents = events.stream().filter(e -> e.startsWith("T")).count();
        assertEquals(scheduled.size(), timerEvents, "one timer event per scheduled timer: " + events + "; " + log);
        for (final Map.Entry<Long, Long> timer : scheduled.entrySet()) {
            final String prefix = "T" + timer.getKey() + ":";
            final List<String> fired = events.stream().filter(e -> e.startsWith(prefix)).toList();
            assertEquals(1, fired.size(), "timer " + timer.getKey() + " fired once: " + events);
            final long firedAt = timeOf(fired.get(0));
            final long deadline = deadline(events, timer.getKey(), timer.getValue());
            assertTrue(firedAt >= deadline, "timer " + timer.getKey() + " fired at " + firedAt
                    + ", before its deadline " + deadline + ": " + events);
        }
    }

    /** The cluster time of the command that scheduled the timer plus its delay. */
    private static long deadline(final List<String> events, final long id, final long amount) {
        final String command = "C" + amount + "@";
        final List<String> commands = events.stream().filter(e -> e.startsWith(command)).toList();
        assertEquals(1, commands.size(), "the command that scheduled timer " + id + " applied once: " + events);
        return timeOf(commands.get(0)) + amount % 10_000;
    }

    private static long timeOf(final String event) {
        return Long.parseLong(event.substring(event.indexOf('@') + 1));
    }

    private static boolean firedAll(final String seen, final long firstId, final int n) {
        for (long id = firstId; id < firstId + n; id++) {
            if (count(seen, "T" + id + ":") == 0) {
                return false;
            }
        }
        return true;
    }

    /** How many events of a {@code seen} answer start with {@code prefix}. */
    private static long count(final String seen, final String prefix) {
        return seen.isEmpty() ? 0 : Arrays.stream(seen.split(",")).filter(e -> e.startsWith(prefix)).count();
    }
}
