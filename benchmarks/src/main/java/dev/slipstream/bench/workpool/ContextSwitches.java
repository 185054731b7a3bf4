package dev.slipstream.bench.workpool;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the kernel's context-switch counts of every thread of this process from
 * {@code /proc/self/task/<tid>/status} (Linux only): {@code voluntary_ctxt_switches} (the thread
 * blocked: park, lock, I/O) and {@code nonvoluntary_ctxt_switches} (the scheduler took the core
 * away: time slice used up, a yield that handed the core over).
 */
final class ContextSwitches {
    /** One thread's counts at one moment. */
    record ThreadCounts(String name, long voluntary, long involuntary) {
    }

    /** Counts of a set of threads between two snapshots. */
    record Delta(long voluntary, long involuntary) {
        long total() {
            return voluntary + involuntary;
        }
    }

    private ContextSwitches() {
    }

    static boolean available() {
        return Files.isDirectory(Path.of("/proc/self/task"));
    }

    /** Every live thread of the process, by kernel thread id. */
    static Map<String, ThreadCounts> snapshot() {
        final Map<String, ThreadCounts> threads = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (final Path task : tasks) {
                try {
                    final List<String> lines = Files.readAllLines(task.resolve("status"));
                    String name = "";
                    long voluntary = 0;
                    long involuntary = 0;
                    for (final String line : lines) {
                        if (line.startsWith("Name:")) {
                            name = line.substring(5).trim();
                        } else if (line.startsWith("voluntary_ctxt_switches:")) {
                            voluntary = Long.parseLong(line.substring(24).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            involuntary = Long.parseLong(line.substring(27).trim());
                        }
                    }
                    threads.put(task.getFileName().toString(), new ThreadCounts(name, voluntary, involuntary));
                } catch (IOException | RuntimeException threadEnded) {
                    // the thread ended while we listed the directory: it is not part of the run
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/task: context switches need Linux", e);
        }
        return threads;
    }

    /**
     * Switches between two snapshots of the threads whose kernel name starts with one of
     * {@code prefixes} (all threads if none is given). A thread that did not exist at the first
     * snapshot counts from zero.
     */
    static Delta between(final Map<String, ThreadCounts> before, final Map<String, ThreadCounts> after,
                         final String... prefixes) {
        long voluntary = 0;
        long involuntary = 0;
        for (final Map.Entry<String, ThreadCounts> entry : after.entrySet()) {
            final ThreadCounts now = entry.getValue();
            if (!matches(now.name(), prefixes)) {
                continue;
            }
            final ThreadCounts then = before.get(entry.getKey());
            voluntary += now.voluntary() - (then != null ? then.voluntary() : 0);
            involuntary += now.involuntary() - (then != null ? then.involuntary() : 0);
        }
        return new Delta(voluntary, involuntary);
    }

    private static boolean matches(final String name, final String[] prefixes) {
        if (prefixes.length == 0) {
            return true;
        }
        for (final String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
