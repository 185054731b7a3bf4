package dev.slipstream.bench;

import dev.slipstream.bench.latency.LatencyResult;
import dev.slipstream.bench.report.Machine;
import dev.slipstream.bench.report.ResultsMarkdown;
import dev.slipstream.bench.support.CommandLine;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One command for the whole benchmark suite: throughput of the five topologies, the queue (LSCQ)
 * shapes when present, latency, allocation, the single-thread hot path and field layout; then
 * {@code docs/benchmarks/RESULTS.md} with ratio tables and PNG charts.
 *
 * <p>Every implementation is measured in the same run and only ratios between them are
 * reported as results: absolute numbers on a shared or virtual machine are not comparable from
 * one run to the next, ratios measured side by side are. The throughput suite runs in rounds of
 * one fork per configuration, so that the forks of different implementations interleave in
 * time and share the machine's noise.
 *
 * <p>Exits with status 1 and a message naming the failures if any benchmark failed (a checksum
 * mismatch throws inside the benchmark) or produced no result, or a latency run lost events.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.RunAll --preset quick
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.RunAll --preset full --only throughput,latency
 * }</pre>
 */
public final class RunAll {
    /** The throughput benchmarks. */
    public static final String THROUGHPUT = "dev\\.slipstream\\.bench\\.throughput\\.";
    /** The allocation benchmark. */
    public static final String ALLOC = "dev\\.slipstream\\.bench\\.alloc\\.";
    /** The single-thread hot-path benchmark. */
    public static final String HOTPATH = "dev\\.slipstream\\.bench\\.hotpath\\.";
    /** The field-layout benchmark. */
    public static final String LAYOUT = "dev\\.slipstream\\.bench\\.layout\\.";

    private static final List<String> JVM_ARGS = List.of("-Xms512m", "-Xmx512m");
    /** An exception line of a failed benchmark in a JMH log: checksum mismatches, dead producers. */
    private static final Pattern FAILURE_LINE =
            Pattern.compile("(?m)^(Caused by: )?[\\w.$]+(Exception|Error): .*$");

    private final Preset preset;
    private final Path out;
    private final Path docs;
    private final String resultsName;
    private final Set<String> only;
    private final String command;
    private final List<String> failures = new ArrayList<>();
    private final Map<String, String> load = new LinkedHashMap<>();
    private final long started = System.nanoTime();

    private RunAll(final Preset preset, final Path out, final Path docs, final String resultsName,
                   final Set<String> only, final String command) {
        this.preset = preset;
        this.out = out;
        this.docs = docs;
        this.resultsName = resultsName;
        this.only = only;
        this.command = command;
    }

    /**
     * Runs the suite.
     *
     * @param args {@code --preset quick|full} [{@code --out DIR}] [{@code --docs DIR}]
     *     [{@code --results-name NAME.md}] [{@code --only throughput,queue,latency,alloc,hotpath,layout}]
     * @throws Exception if the suite cannot run at all
     */
    public static void main(final String[] args) throws Exception {
        final Map<String, String> opts;
        final Preset preset;
        try {
            opts = CommandLine.pairs(args, Set.of("preset", "out", "docs", "results-name", "only"));
            preset = Preset.named(opts.getOrDefault("preset", "quick"));
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        final String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        final Path out = Path.of(opts.getOrDefault("out",
                "results/" + stamp + "-" + preset.name() + "-jdk" + Machine.jdkFeature()));
        final Path docs = Path.of(opts.getOrDefault("docs", "docs/benchmarks"));
        final String name = opts.getOrDefault("results-name", "RESULTS.md");
        final Set<String> only = new LinkedHashSet<>(Arrays.asList(
                opts.getOrDefault("only", "throughput,queue,latency,alloc,hotpath,layout").split(",")));
        final String cmd = "java -cp " + System.getProperty("java.class.path") + " " + RunAll.class.getName()
                + (args.length == 0 ? "" : " " + String.join(" ", args));
        final RunAll run = new RunAll(preset, out, docs, name, only, cmd);
        final boolean ok = run.run();
        System.exit(ok ? 0 : 1);
    }

    private static void usage(final String message) {
        System.err.println("error: " + message);
        System.err.println("usage: java -cp benchmarks.jar " + RunAll.class.getName()
                + " --preset quick|full [--out DIR] [--docs DIR] [--results-name RESULTS.md]"
                + " [--only throughput,queue,latency,alloc,hotpath,layout]");
        System.exit(2);
    }

    private boolean run() throws IOException, InterruptedException {
        Files.createDirectories(out);
        final ZonedDateTime date = ZonedDateTime.now();
        final Machine machine = Machine.describe();
        log("Slipstream benchmark suite, preset " + preset.name() + ", results in " + out);
        log("machine: " + machine.cpu() + ", " + machine.cores() + " cores; JDK " + machine.jdk());
        final ResultsMarkdown.Data data = new ResultsMarkdown.Data();
        data.date = date;
        data.machine = machine;
        data.command = command;
        data.preset = preset;
        if (only.contains("throughput")) {
            data.throughput = rounds("throughput", THROUGHPUT, preset.rounds(), null);
        }
        if (only.contains("queue")) {
            if (hasBenchmarks(preset.queueInclude())) {
                data.queue = rounds("queue", preset.queueInclude(), preset.queueRounds(), null);
            } else {
                log("queue: no benchmark matches " + preset.queueInclude() + ", skipped");
            }
        }
        if (only.contains("alloc")) {
            data.alloc = rounds("alloc", ALLOC, 1, GCProfiler.class);
        }
        if (only.contains("hotpath")) {
            data.hotpath = rounds("hotpath", HOTPATH, preset.layoutForks(), null);
        }
        if (only.contains("layout")) {
            data.layout = rounds("layout", LAYOUT, preset.layoutForks(), null);
        }
        if (only.contains("latency")) {
            // the latency JVMs are no JMH runs: hold JMH's machine-wide lock for them ourselves,
            // so that no benchmark run shares the machine with them (and they with none)
            try (MachineLock lock = MachineLock.acquire(RunAll::log)) {
                data.latency = latency();
            }
            data.hlogDir = out.resolve("latency").resolve("hlog");
        }
        data.failures = failures;
        data.load = load;
        data.elapsedMinutes = (System.nanoTime() - started) / 60e9;
        final Path md = new ResultsMarkdown(docs, resultsName).write(data);
        log("wrote " + md + " (" + String.format(java.util.Locale.ROOT, "%.1f", data.elapsedMinutes) + " min)");
        if (!failures.isEmpty()) {
            System.err.println();
            System.err.println("FAILED: " + failures.size() + " benchmark(s) failed or produced no result:");
            for (String f : failures) {
                System.err.println("  - " + f);
            }
            System.err.println("A checksum mismatch means an implementation delivered wrong data: its speed is not a result.");
            return false;
        }
        return true;
    }

    private static boolean hasBenchmarks(final String include) {
        return !BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(System.out,
                VerboseMode.SILENT), List.of(include), List.of()).isEmpty();
    }

    /**
     * Runs the benchmarks matching {@code include} in {@code rounds} rounds of one fork each and
     * collects each configuration's fork scores (and secondary results) in round order.
     */
    private Map<String, ResultsMarkdown.Scores> rounds(final String phase, final String include, final int rounds,
                                                       final Class<? extends org.openjdk.jmh.profile.Profiler> profiler)
            throws IOException {
        final Set<String> expected = expectedKeys(include);
        final Map<String, ResultsMarkdown.Scores> scores = new TreeMap<>();
        for (int r = 1; r <= rounds; r++) {
            final Path logFile = out.resolve("jmh-" + phase + "-round" + r + ".log");
            final Path json = out.resolve("jmh-" + phase + "-round" + r + ".json");
            log(phase + ": round " + r + "/" + rounds + " (" + expected.size() + " configurations, log " + logFile + ")");
            sampleLoad(phase + (rounds > 1 ? " " + r : ""));
            final ChainedOptionsBuilder b = new OptionsBuilder()
                    .include(include)
                    .forks(1)
                    .warmupIterations(preset.warmupIterations())
                    .warmupTime(TimeValue.milliseconds(preset.warmupMs()))
                    .measurementIterations(preset.iterations())
                    .measurementTime(TimeValue.milliseconds(preset.iterationMs()))
                    .jvmArgsAppend(JVM_ARGS.toArray(new String[0]))
                    .shouldFailOnError(false)
                    .timeout(TimeValue.minutes(2))
                    .output(logFile.toString())
                    .resultFormat(ResultFormatType.JSON)
                    .result(json.toString());
            if (profiler != null) {
                b.addProfiler(profiler);
            }
            if (phase.equals("queue") && preset.queueIterationMs() > 0) {
                b.warmupIterations(1).warmupTime(TimeValue.milliseconds(preset.queueIterationMs()))
                        .measurementIterations(2).measurementTime(TimeValue.milliseconds(preset.queueIterationMs()));
            }
            if (phase.equals("layout") || phase.equals("hotpath")) {
                b.warmupIterations(1).warmupTime(TimeValue.seconds(1))
                        .measurementIterations(3).measurementTime(TimeValue.milliseconds(preset.iterationMs()));
            }
            final List<RunResult> results = runWhenLockFree(b, phase + " round " + r);
            if (results == null) {
                continue;
            }
            final Set<String> seen = new LinkedHashSet<>();
            for (RunResult rr : results) {
                final String key = key(rr);
                seen.add(key);
                scores.computeIfAbsent(key, k -> new ResultsMarkdown.Scores()).add(rr);
            }
            final String logText = Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
            final Matcher m = FAILURE_LINE.matcher(logText);
            final Set<String> mismatches = new LinkedHashSet<>();
            while (m.find()) {
                mismatches.add(m.group());
            }
            for (String mm : mismatches) {
                failures.add(phase + " round " + r + ": " + mm);
            }
            for (String e : expected) {
                if (!seen.contains(e)) {
                    failures.add(phase + " round " + r + ": no result for " + e + " (it threw; see " + logFile + ")");
                }
            }
            log(phase + ": round " + r + " done, " + seen.size() + "/" + expected.size() + " results ("
                    + elapsed() + ")");
        }
        return scores;
    }

    /**
     * Runs JMH; while another JMH run holds the machine-wide lock (a measurement must not share
     * the machine with another one), waits and retries for up to 30 minutes.
     */
    private List<RunResult> runWhenLockFree(final ChainedOptionsBuilder b, final String what) {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        boolean told = false;
        while (true) {
            try {
                return new ArrayList<>(new Runner(b.build()).run());
            } catch (RunnerException e) {
                final String msg = String.valueOf(e.getMessage()) + (e.getCause() == null ? "" : " " + e.getCause());
                if (msg.contains("JMH lock") && System.nanoTime() - deadline < 0) {
                    if (!told) {
                        log(what + ": another JMH run holds /tmp/jmh.lock; waiting for it to finish");
                        told = true;
                    }
                    sleep(10_000);
                    continue;
                }
                failures.add(what + ": JMH failed: " + msg);
                return null;
            }
        }
    }

    private static void sleep(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The benchmark name plus its parameters, sorted: the key of one configuration. */
    static String key(final RunResult rr) {
        final var p = rr.getParams();
        final StringBuilder sb = new StringBuilder(p.getBenchmark());
        for (String k : new java.util.TreeSet<>(p.getParamsKeys())) {
            sb.append(' ').append(k).append('=').append(p.getParam(k));
        }
        return sb.toString();
    }

    /** Every configuration the benchmark list promises for {@code include}. */
    private static Set<String> expectedKeys(final String include) {
        final Set<String> keys = new LinkedHashSet<>();
        for (BenchmarkListEntry e : BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(include), List.of())) {
            final Map<String, String[]> params = new TreeMap<>(e.getParams().orElse(Map.of()));
            List<String> partial = List.of(e.getUsername());
            for (Map.Entry<String, String[]> p : params.entrySet()) {
                final List<String> next = new ArrayList<>();
                for (String prefix : partial) {
                    for (String v : p.getValue()) {
                        next.add(prefix + ' ' + p.getKey() + '=' + v);
                    }
                }
                partial = next;
            }
            keys.addAll(partial);
        }
        return keys;
    }

    /** Runs every latency configuration of the preset, each in its own JVM. */
    private List<LatencyResult> latency() throws IOException, InterruptedException {
        final Path dir = out.resolve("latency");
        Files.createDirectories(dir);
        final Path tsv = dir.resolve("latency.tsv");
        Files.deleteIfExists(tsv);
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final StringBuilder rates = new StringBuilder();
        for (long r : preset.rates()) {
            rates.append(rates.length() == 0 ? "" : ",").append(r);
        }
        int n = 0;
        for (Preset.LatencySpec s : preset.latency()) {
            n++;
            final List<String> cmd = new ArrayList<>(List.of(java));
            cmd.addAll(JVM_ARGS);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
                    "dev.slipstream.bench.latency.LatencyMain", "--mode", s.mode(), "--impl", s.impl(),
                    "--wait", s.strategy(), "--topology", s.topology(), "--rates", rates.toString(),
                    "--warmup-ms", Long.toString(preset.latencyWarmupMs()),
                    "--measure-ms", Long.toString(preset.latencyMeasureMs()), "--out", dir.toString()));
            final Path logFile = dir.resolve("latency.log");
            final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            final String what = s.mode() + " " + s.topology() + " " + s.impl() + "/" + s.strategy();
            log("latency " + n + "/" + preset.latency().size() + ": " + what);
            if (n == 1 || n == preset.latency().size() / 2) {
                sampleLoad("latency " + n);
            }
            final Process p = pb.start();
            final long budgetMs = 60_000L + 4L * preset.rates().size()
                    * (preset.latencyWarmupMs() + preset.latencyMeasureMs());
            if (!p.waitFor(budgetMs, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                failures.add("latency " + what + ": did not finish within " + budgetMs / 1000 + " s");
                continue;
            }
            if (p.exitValue() == 3) {
                failures.add("latency " + what + ": checksum mismatch or lost events (see " + logFile + ")");
            } else if (p.exitValue() != 0) {
                failures.add("latency " + what + ": exited with status " + p.exitValue() + " (see " + logFile + ")");
            }
        }
        final List<LatencyResult> results = new ArrayList<>();
        if (Files.exists(tsv)) {
            for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.startsWith("mode\t")) {
                    results.add(LatencyResult.parse(line));
                }
            }
        }
        log("latency: " + results.size() + " results (" + elapsed() + ")");
        return results;
    }

    /** Remembers the 1-minute load average: how much else competed for the CPUs. */
    private void sampleLoad(final String when) {
        try {
            load.put(when, Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            load.put(when, "?");
        }
    }

    private String elapsed() {
        return String.format(java.util.Locale.ROOT, "%.1f min elapsed", (System.nanoTime() - started) / 60e9);
    }

    private static void log(final String line) {
        final PrintStream o = System.out;
        o.println("[" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss")) + "] " + line);
        o.flush();
    }
}
