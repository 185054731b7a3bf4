package dev.slipstream.bench.cluster;

import dev.slipstream.bench.support.CommandLine;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.SleepingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * The round-trip benchmark's command line, checked: {@code --name value} pairs (see
 * {@link ClusterRoundTripBench}).
 *
 * <pre>{@code
 * Options o = Options.parse(new String[] {"--impl", "echo", "--rate", "10000"});
 * }</pre>
 */
final class Options {
    private static final Set<String> NAMES = Set.of("impl", "rate", "seconds", "warmup", "stages", "ring-wait",
            "timers", "tick-ms", "client-idle", "port", "members", "fast-replies", "client-driver",
            "member-idle");
    final String impl;
    final int rate;
    final int seconds;
    final int warmup;
    final int stages;
    final String ringWaitName;
    final Supplier<WaitStrategy> ringWait;
    final String timers;
    final int tickMs;
    final String clientIdleName;
    final IdleStrategy clientIdle;
    final int port;
    final int members;
    /** The pipeline's leader sends replies from doBackgroundWork too ({@code --fast-replies on}, the default). */
    final boolean fastReplies;
    /**
     * The client's media driver: {@code own} (the default), a driver of its own as on a client
     * machine, or {@code member}, member 0's driver, one agent fewer on the cores.
     */
    final String clientDriver;
    /** How the members' agents wait ({@code --member-idle backoff|yielding|busy-spin}, default backoff). */
    final MemberConfig.AgentIdle memberIdle;

    private Options(final Map<String, String> o) {
        impl = oneOf(o, "impl", "pipeline", "echo", "pipeline");
        rate = positive(o, "rate", 10_000);
        seconds = positive(o, "seconds", 10);
        warmup = positive(o, "warmup", 3);
        stages = positive(o, "stages", 1);
        ringWaitName = oneOf(o, "ring-wait", "blocking", "blocking", "sleeping", "yielding", "spin");
        ringWait = switch (ringWaitName) {
            case "blocking" -> BlockingWaitStrategy::new;
            case "sleeping" -> SleepingWaitStrategy::new;
            case "yielding" -> YieldingWaitStrategy::new;
            default -> BusySpinWaitStrategy::new;
        };
        timers = oneOf(o, "timers", "wheel", "wheel", "heap");
        tickMs = positive(o, "tick-ms", 8);
        clientIdleName = oneOf(o, "client-idle", "yield", "yield", "spin", "backoff");
        clientIdle = switch (clientIdleName) {
            case "yield" -> new YieldingIdleStrategy();
            case "spin" -> new BusySpinIdleStrategy();
            default -> new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MICROSECONDS.toNanos(20));
        };
        port = positive(o, "port", 22300);
        members = positive(o, "members", 1);
        fastReplies = oneOf(o, "fast-replies", "on", "on", "off").equals("on");
        clientDriver = oneOf(o, "client-driver", "own", "own", "member");
        memberIdle = switch (oneOf(o, "member-idle", "backoff", "backoff", "yielding", "busy-spin")) {
            case "yielding" -> MemberConfig.AgentIdle.YIELDING;
            case "busy-spin" -> MemberConfig.AgentIdle.BUSY_SPIN;
            default -> MemberConfig.AgentIdle.BACKOFF;
        };
        if (members % 2 == 0) {
            throw new IllegalArgumentException("--members must be odd (a majority must be able to commit), was "
                    + members);
        }
        if ((long) rate * (warmup + seconds) > 50_000_000L) {
            throw new IllegalArgumentException("--rate x (--warmup + --seconds) is " + (long) rate * (warmup + seconds)
                    + " commands; expected at most 50,000,000 (one slot per command is kept)");
        }
    }

    static Options parse(final String[] args) {
        return new Options(CommandLine.parse(args, NAMES));
    }

    /** @return commands sent, warm-up included */
    long total() {
        return (long) rate * (warmup + seconds);
    }

    /** @return commands sent before the measured ones */
    long warmupCommands() {
        return (long) rate * warmup;
    }

    private static String oneOf(final Map<String, String> o, final String name, final String fallback,
            final String... allowed) {
        final String value = o.getOrDefault(name, fallback);
        for (final String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw new IllegalArgumentException("--" + name + " must be one of " + String.join(", ", allowed) + ", was "
                + value);
    }

    private static int positive(final Map<String, String> o, final String name, final int fallback) {
        final String value = o.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            final int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (final NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("--" + name + " must be a positive whole number, was " + value);
    }
}
