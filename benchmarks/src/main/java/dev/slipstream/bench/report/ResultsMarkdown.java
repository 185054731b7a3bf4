package dev.slipstream.bench.report;

import dev.slipstream.bench.Preset;
import dev.slipstream.bench.latency.LatencyResult;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Writes {@code RESULTS.md} and its charts from one run of the suite.
 *
 * <pre>{@code
 * ResultsMarkdown.Data d = new ResultsMarkdown.Data();
 * // ... fill it ...
 * Path md = new ResultsMarkdown(Path.of("docs/benchmarks"), "RESULTS.md").write(d);
 * }</pre>
 */
public final class ResultsMarkdown {
    /** Where the queues' published figures come from, above the quick table of queue shapes. */
    private static final String QUEUE_SOURCE = "The queues' figures come from the LSCQ article's six workloads measured in a"
            + " steady state (every cell warmed up at full length, one JVM per queue, workload, thread count and"
            + " round, queues interleaved over 7 rounds): [the summary]"
            + "(runs/2026-11-27-epyc-queue-article-forked/article-suite/summary.md) and the"
            + " [queue guide](../guide/lscq.md#which-queue-for-which-workload). The JMH table below is one short fork"
            + " per cell of the quick preset, taken while the machine ran the rest of the suite; it is a smoke of"
            + " every cell, not a claim.\n\n";

    private static final List<String> SHAPES = List.of("unicast", "pipeline", "sequencer", "multicast", "diamond");
    private static final List<String> PEERS = List.of("lmax", "abq");
    private static final Pattern SCQ = Pattern.compile("(?i).*(lscq|scq|slipstream).*");

    private final Path docs;
    private final String name;
    private final String stem;
    private final Path img;

    /** Fork scores of one configuration, in round order. */
    public static final class Scores {
        /** The primary score of each fork. */
        public final List<Double> forks = new ArrayList<>();
        /** Secondary results (e.g. gc.alloc.rate.norm) of each fork. */
        public final Map<String, List<Double>> secondary = new TreeMap<>();
        /** The unit of the primary score. */
        public String unit = "";

        /** Adds the forks of one JMH result. */
        public void add(final RunResult rr) {
            for (var br : rr.getBenchmarkResults()) {
                // a producer/consumer group's primary score counts every call, empty polls too:
                // its consumers' 'polled' counter is the elements moved
                final Result polled = br.getSecondaryResults().get("polled");
                final Result score = polled != null ? polled : br.getPrimaryResult();
                forks.add(score.getScore());
                unit = score.getScoreUnit();
                for (Map.Entry<String, Result> e : br.getSecondaryResults().entrySet()) {
                    secondary.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue().getScore());
                }
            }
        }
    }

    /** Everything one run measured. */
    public static final class Data {
        /** When the run started. */
        public ZonedDateTime date;
        /** Where it ran. */
        public Machine machine;
        /** The exact command. */
        public String command;
        /** The preset. */
        public Preset preset;
        /** Throughput scores by configuration key. */
        public Map<String, Scores> throughput = Map.of();
        /** Queue scores by configuration key. */
        public Map<String, Scores> queue = Map.of();
        /** Allocation scores by configuration key. */
        public Map<String, Scores> alloc = Map.of();
        /** Single-thread hot-path scores by configuration key. */
        public Map<String, Scores> hotpath = Map.of();
        /** Field-layout scores by configuration key. */
        public Map<String, Scores> layout = Map.of();
        /** Latency results. */
        public List<LatencyResult> latency = List.of();
        /** Where the latency runs wrote their .hlog files. */
        public Path hlogDir;
        /** The 1-minute load average sampled as each phase started. */
        public Map<String, String> load = Map.of();
        /** Failures, empty if none. */
        public List<String> failures = List.of();
        /** How long the run took. */
        public double elapsedMinutes;

    }

    /**
     * Prepares a writer.
     *
     * @param docs the docs/benchmarks directory
     * @param name the Markdown file name, e.g. RESULTS.md
     */
    public ResultsMarkdown(final Path docs, final String name) {
        this.docs = docs;
        this.name = name;
        // a folder per results file and JDK, e.g. img/results-jdk17/ (a folder named just
        // "results" would be ignored by git, like the raw output)
        final String base = name.replaceFirst("\\.md$", "").toLowerCase(Locale.ROOT);
        this.stem = base.contains("jdk") ? base : base + "-jdk" + Runtime.version().feature();
        this.img = docs.resolve("img").resolve(stem);
    }

    /** Writes the Markdown, the charts and a copy of the .hlog files. */
    public Path write(final Data d) throws IOException {
        Files.createDirectories(img);
        final StringBuilder md = new StringBuilder();
        header(md, d);
        final List<String[]> targets = new ArrayList<>();
        final StringBuilder body = new StringBuilder();
        throughput(body, d, targets);
        queue(body, d);
        latency(body, d, targets);
        alloc(body, d, targets);
        hotpath(body, d);
        layout(body, d);
        md.append("## Targets\n\n");
        if (!d.failures.isEmpty()) {
            md.append("**FAILED: ").append(d.failures.size())
                    .append(" benchmark(s) failed or produced no result; their numbers are not results.**\n\n");
            for (String f : d.failures) {
                md.append("- ").append(f.replace(System.getProperty("user.dir") + "/", "")).append('\n');
            }
            md.append('\n');
        }
        if (targets.isEmpty()) {
            md.append("(no target measured in this run)\n\n");
        } else {
            md.append("| target | measured | verdict |\n| --- | --- | --- |\n");
            for (String[] t : targets) {
                md.append("| ").append(t[0]).append(" | ").append(t[1]).append(" | ").append(t[2]).append(" |\n");
            }
            md.append("\nVerdicts: **pass**; **within noise** (misses the target, but the target is inside the"
                    + " error bar); **miss**.\n\n");
        }
        md.append(body);
        final Path file = docs.resolve(name);
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private void header(final StringBuilder md, final Data d) {
        md.append("# Slipstream benchmark results (").append(d.preset.name()).append(" preset, JDK ")
                .append(Runtime.version().feature()).append(")\n\n");
        md.append("Generated by `dev.slipstream.bench.RunAll`; regenerate rather than edit. How to read it: ")
                .append("[README.md](README.md).\n\n");
        md.append("| | |\n| --- | --- |\n");
        md.append("| date | ").append(d.date.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z"))).append(" |\n");
        md.append("| machine | ").append(d.machine.cpu()).append(", ").append(d.machine.cores())
                .append(" cores available to the JVM |\n");
        md.append("| OS | ").append(d.machine.os()).append(" |\n");
        md.append("| JDK | ").append(d.machine.jdk()).append(" (").append(d.machine.vm()).append(") |\n");
        md.append("| command | `").append(d.command).append("` |\n");
        md.append("| settings | throughput: ").append(d.preset.rounds()).append(" rounds of 1 fork, ")
                .append(d.preset.warmupIterations()).append(" x ").append(d.preset.warmupMs()).append(" ms warm-up, ")
                .append(d.preset.iterations()).append(" x ").append(d.preset.iterationMs()).append(" ms measured; ")
                .append("latency: ").append(d.preset.latencyWarmupMs()).append(" ms warm-up and ")
                .append(d.preset.latencyMeasureMs()).append(" ms measured per rate; JVM flags ")
                .append("`-Xms512m -Xmx512m` |\n");
        if (!d.load.isEmpty()) {
            final StringBuilder l = new StringBuilder();
            d.load.forEach((k, v) -> l.append(l.length() == 0 ? "" : ", ").append(k).append(": ").append(v));
            md.append("| load | 1-minute load average as phases started (").append(d.machine.cores())
                    .append(" cores; more than that means other processes competed for them): ").append(l)
                    .append(" |\n");
        }
        md.append("| duration | ").append(String.format(Locale.ROOT, "%.1f", d.elapsedMinutes)).append(" min |\n\n");
    }

    // ---------------------------------------------------------------- throughput

    private void throughput(final StringBuilder md, final Data d, final List<String[]> targets) throws IOException {
        if (d.throughput.isEmpty()) {
            return;
        }
        // shape -> wait -> impl -> scores
        final Map<String, Map<String, Map<String, Scores>>> t = new LinkedHashMap<>();
        for (String s : SHAPES) {
            t.put(s, new TreeMap<>());
        }
        for (Map.Entry<String, Scores> e : d.throughput.entrySet()) {
            final Key k = Key.parse(e.getKey());
            // TopologyThroughput names its shape in a parameter; UnicastThroughput in its class
            final String shape = k.params.getOrDefault("shape",
                    k.simpleClass().replace("Throughput", "").toLowerCase(Locale.ROOT));
            t.computeIfAbsent(shape, x -> new TreeMap<>())
                    .computeIfAbsent(k.params.get("wait"), x -> new TreeMap<>())
                    .put(k.params.get("impl"), e.getValue());
        }
        md.append("## Throughput: the five topologies\n\n");
        md.append("The ring's throughput figures come from the continuous stream (events published back to back,"
                + " the clock stopped when the last stage has seen the last one, one JVM per run, sides interleaved):"
                + " [continuous.md](continuous.md), the source of the README's ring figures. The JMH table below"
                + " publishes a block of events per invocation and waits for the ring to drain, so each invocation"
                + " restarts producer and consumers from an empty ring; it is a smoke of every cell, not a claim.\n\n");
        md.append("Events per second through the whole topology (the last stage has seen and checked every event),"
                + " same ring size (65536) and wait strategy for every implementation. Ratios are Slipstream's"
                + " median over the median of the peer (forks run in interleaved rounds); ± is half the 95%"
                + " confidence interval of the mean per-round ratio (Student's t, Apache Commons Math); *paired* is"
                + " the range of the per-round ratios. Event rates: median ± half the 95% confidence interval of"
                + " the forks' mean.\n\n");
        md.append("| topology | wait | Slipstream (Mev/s) | LMAX (Mev/s) | ABQ (Mev/s) | Slipstream / LMAX | paired"
                + " | Slipstream / ABQ | paired |\n| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |\n");
        final List<String> cats = new ArrayList<>();
        final Map<String, List<Double>> ratioLmax = new LinkedHashMap<>();
        final Map<String, List<Double>> ratioAbq = new LinkedHashMap<>();
        final Map<String, List<Double>> absolute = new LinkedHashMap<>();
        for (String impl : List.of("slipstream", "lmax", "abq")) {
            absolute.put(impl, new ArrayList<>());
        }
        ratioLmax.put("Slipstream / LMAX", new ArrayList<>());
        ratioAbq.put("Slipstream / ABQ", new ArrayList<>());
        final Map<String, List<Double>> errorLmax = new LinkedHashMap<>();
        errorLmax.put("Slipstream / LMAX", new ArrayList<>());
        final Map<String, List<Double>> errorAbq = new LinkedHashMap<>();
        errorAbq.put("Slipstream / ABQ", new ArrayList<>());
        for (Map.Entry<String, Map<String, Map<String, Scores>>> byShape : t.entrySet()) {
            for (Map.Entry<String, Map<String, Scores>> byWait : byShape.getValue().entrySet()) {
                final String shape = byShape.getKey();
                final String wait = byWait.getKey();
                final Map<String, Scores> impls = byWait.getValue();
                final Scores slip = impls.get("slipstream");
                md.append("| ").append(shape).append(" | ").append(wait);
                for (String impl : List.of("slipstream", "lmax", "abq")) {
                    final Scores s = impls.get(impl);
                    final double med = s == null || s.forks.isEmpty() ? Double.NaN : Stats.median(s.forks);
                    absolute.get(impl).add(med / 1e6);
                    md.append(" | ").append(s == null || s.forks.isEmpty() ? "n/a"
                            : fmt(med / 1e6, 1) + " ± " + fmt(Stats.confidenceHalfWidth(s.forks) / 1e6, 1));
                }
                cats.add(shape + "/" + wait);
                for (String peer : PEERS) {
                    final Stats.Ratio r = slip == null || impls.get(peer) == null ? null
                            : Stats.ratio(slip.forks, impls.get(peer).forks);
                    md.append(" | ").append(r == null ? "n/a" : "**" + fmt(r.value(), 2) + "** ± " + fmt(r.error(), 2))
                            .append(" | ").append(r == null ? "" : fmt(r.pairedMin(), 2) + "-" + fmt(r.pairedMax(), 2));
                    (peer.equals("lmax") ? ratioLmax.get("Slipstream / LMAX") : ratioAbq.get("Slipstream / ABQ"))
                            .add(r == null ? Double.NaN : r.value());
                    (peer.equals("lmax") ? errorLmax.get("Slipstream / LMAX") : errorAbq.get("Slipstream / ABQ"))
                            .add(r == null ? Double.NaN : r.error());
                    if (r != null) {
                        final double goal = peer.equals("lmax") ? 1.0 : 5.0;
                        targets.add(new String[] {
                            shape + " (" + wait + "): Slipstream / " + (peer.equals("lmax") ? "LMAX" : "ABQ") + " >= "
                                    + fmt(goal, 1),
                            fmt(r.value(), 2) + " ± " + fmt(r.error(), 2),
                            verdict(r.value(), r.error(), goal)});
                    }
                }
                md.append(" |\n");
            }
        }
        Charts.bars(img.resolve("throughput-vs-lmax.png"), "Throughput ratio Slipstream / LMAX Disruptor 4.0.0"
                + " (1.0 = equal; bars: 95% confidence interval)", "ratio", cats, ratioLmax, errorLmax, false);
        Charts.bars(img.resolve("throughput-vs-abq.png"), "Throughput ratio Slipstream / ArrayBlockingQueue"
                + " (bars: 95% confidence interval)", "ratio", cats, ratioAbq, errorAbq, false);
        Charts.bars(img.resolve("throughput-absolute.png"), "Throughput (median of forks; this machine only)",
                "million events / s", cats, absolute, null, true);
        md.append("\n![Slipstream / LMAX](").append(rel("throughput-vs-lmax.png")).append(")\n\n");
        md.append("![Slipstream / ABQ](").append(rel("throughput-vs-abq.png")).append(")\n\n");
        md.append("![absolute throughput](").append(rel("throughput-absolute.png")).append(")\n\n");
    }

    // ---------------------------------------------------------------- queue (LSCQ shapes)

    private void queue(final StringBuilder md, final Data d) throws IOException {
        if (d.queue.isEmpty()) {
            return;
        }
        md.append("## Queue shapes (LSCQ and peers)\n\n");
        md.append(QUEUE_SOURCE);
        // group: benchmark + params other than the implementation param -> impl -> scores
        final Map<String, Map<String, Scores>> groups = new TreeMap<>();
        String implParam = null;
        for (String key : d.queue.keySet()) {
            final Key k = Key.parse(key);
            for (Map.Entry<String, String> p : k.params.entrySet()) {
                if (p.getKey().equals("impl") || p.getKey().equals("queue") || SCQ.matcher(p.getValue()).matches()) {
                    implParam = p.getKey();
                }
            }
        }
        for (Map.Entry<String, Scores> e : d.queue.entrySet()) {
            final Key k = Key.parse(e.getKey());
            final StringBuilder g = new StringBuilder(k.shortName());
            for (Map.Entry<String, String> p : k.params.entrySet()) {
                if (!p.getKey().equals(implParam)) {
                    g.append(' ').append(p.getKey()).append('=').append(p.getValue());
                }
            }
            final String impl = implParam == null ? "-" : k.params.getOrDefault(implParam, "-");
            groups.computeIfAbsent(g.toString(), x -> new TreeMap<>()).put(impl, e.getValue());
        }
        final Set<String> impls = new LinkedHashSet<>();
        groups.values().forEach(m -> impls.addAll(m.keySet()));
        String ours = null;
        for (String i : impls) {
            if (i.toLowerCase(Locale.ROOT).contains("lscq")) {
                ours = i;
            }
        }
        if (ours == null) {
            for (String i : impls) {
                if (SCQ.matcher(i).matches()) {
                    ours = i;
                }
            }
        }
        md.append("Implementation parameter: `").append(implParam).append("`; ratios are `").append(ours)
                .append("` over each peer (time-per-op scores are inverted so that > 1 always means faster).\n\n");
        final List<String> peers = new ArrayList<>(impls);
        peers.remove(ours);
        md.append("| shape | ").append(ours).append(" (score) |");
        for (String p : peers) {
            md.append(" / ").append(p).append(" |");
        }
        md.append("\n| --- | ---: |");
        peers.forEach(p -> md.append(" ---: |"));
        md.append('\n');
        final List<String> cats = new ArrayList<>();
        final Map<String, List<Double>> series = new LinkedHashMap<>();
        final Map<String, List<Double>> errors = new LinkedHashMap<>();
        for (String p : peers) {
            series.put("/ " + p, new ArrayList<>());
            errors.put("/ " + p, new ArrayList<>());
        }
        for (Map.Entry<String, Map<String, Scores>> g : groups.entrySet()) {
            final Scores mine = g.getValue().get(ours);
            cats.add(g.getKey().replace("QueueShapesOneThread.", "1 thread ").replace("QueueShapesTwoThreads.",
                    "2 threads ").replace("QueueProducerConsumer.", ""));
            md.append("| ").append(g.getKey()).append(" | ");
            md.append(mine == null || mine.forks.isEmpty() ? "n/a"
                    : fmt(Stats.median(mine.forks), 2) + " " + mine.unit).append(" |");
            for (String p : peers) {
                final Scores other = g.getValue().get(p);
                Stats.Ratio r = mine == null || other == null ? null : Stats.ratio(mine.forks, other.forks);
                if (r != null && mine.unit.endsWith("/op")) {
                    r = Stats.ratio(other.forks, mine.forks);
                }
                md.append(' ').append(r == null ? "n/a" : "**" + fmt(r.value(), 2) + "** ± " + fmt(r.error(), 2))
                        .append(" |");
                series.get("/ " + p).add(r == null ? Double.NaN : r.value());
                errors.get("/ " + p).add(r == null ? Double.NaN : r.error());
            }
            md.append('\n');
        }
        Charts.bars(img.resolve("queue-shapes.png"), "Queue shapes: " + ours + " / peer (> 1: " + ours + " faster)",
                "ratio", cats, series, errors, true);
        md.append("\n![queue shapes](").append(rel("queue-shapes.png")).append(")\n\n");
    }

    // ---------------------------------------------------------------- latency

    private void latency(final StringBuilder md, final Data d, final List<String[]> targets) throws IOException {
        if (d.latency.isEmpty()) {
            return;
        }
        md.append("## Latency\n\n");
        md.append("One-way: the producer sends at a fixed rate and stamps each event with its *intended* send time;"
                + " the last stage records `now - intended` (coordinated omission avoided). Ping-pong: round trip"
                + " over two rings, closed loop. CPU: *stages* is the CPU time of the consumer threads per event"
                + " (what the wait strategy burns), *process* includes the pacing producer, JIT and GC. Values in"
                + " microseconds. On two cores the percentiles are indicative; compare rows of one table.\n\n");
        final Path hlogCopy = docs.resolve("hlog").resolve(stem);
        copyHlogs(d.hlogDir, hlogCopy);
        final Map<String, List<LatencyResult>> tables = new LinkedHashMap<>();
        for (LatencyResult r : d.latency) {
            final String title = r.mode().equals("pingpong") ? "ping-pong (round trip), unicast"
                    : "one-way " + r.topology() + " at " + rate(r.rate());
            tables.computeIfAbsent(title, k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<LatencyResult>> e : tables.entrySet()) {
            final List<LatencyResult> rows = e.getValue();
            md.append("### ").append(e.getKey()).append("\n\n");
            md.append("| implementation / wait | p50 | p90 | p99 | p99.9 | p99.99 | max | stage CPU ns/event"
                    + " | stage cores | process CPU ns/event | events |\n"
                    + "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            final Map<String, Histogram> curves = new LinkedHashMap<>();
            for (LatencyResult r : rows) {
                md.append("| ").append(r.series()).append(r.checksumOk() ? "" : " **(checksum mismatch)**")
                        .append(" | ").append(us(r.p50())).append(" | ").append(us(r.p90())).append(" | ")
                        .append(us(r.p99())).append(" | ").append(us(r.p999())).append(" | ").append(us(r.p9999()))
                        .append(" | ").append(us(r.max())).append(" | ").append(fmt(r.stageCpuPerEvent(), 0))
                        .append(" | ").append(fmt(r.stageCores(), 2)).append(" | ")
                        .append(fmt(r.processCpuPerEvent(), 0)).append(" | ").append(r.count()).append(" |\n");
                final Histogram h = readHlog(d.hlogDir, r);
                if (h != null) {
                    curves.put(r.series(), h);
                }
            }
            final LatencyResult first = rows.get(0);
            final String chart = "latency-" + first.mode() + "-" + first.topology()
                    + (first.rate() > 0 ? "-" + first.rate() : "") + ".png";
            Charts.percentiles(img.resolve(chart), e.getKey() + ", JDK " + Runtime.version().feature(), curves);
            md.append("\n![").append(e.getKey()).append("](").append(rel(chart)).append(")\n\n");
        }
        // latency against CPU at 100k/s, unicast: the wait-strategy trade-off in one picture
        final Map<String, double[]> points = new LinkedHashMap<>();
        for (LatencyResult r : d.latency) {
            if (r.mode().equals("oneway") && r.topology().equals("unicast") && r.rate() == 100_000) {
                points.put(r.series(), new double[] {r.stageCores(), r.p99() / 1000.0});
            }
        }
        if (!points.isEmpty()) {
            Charts.scatter(img.resolve("latency-vs-cpu-unicast-100000.png"),
                    "one-way unicast at 100k/s: p99 latency against consumer CPU", "consumer cores used",
                    "p99 (us)", points, false);
            md.append("![p99 against CPU](").append(rel("latency-vs-cpu-unicast-100000.png")).append(")\n\n");
        }
        md.append(".hlog files (one interval histogram per second, values in ns): [hlog/").append(stem)
                .append("/](hlog/").append(stem).append("/)\n\n");
        hybridTargets(d.latency, targets);
    }

    private static void hybridTargets(final List<LatencyResult> all, final List<String[]> targets) {
        LatencyResult hybrid = null;
        LatencyResult spin = null;
        LatencyResult lmaxBlocking = null;
        for (LatencyResult r : all) {
            if (!r.mode().equals("oneway") || !r.topology().equals("unicast") || r.rate() != 100_000) {
                continue;
            }
            if (r.impl().equals("slipstream") && r.strategy().equals("hybrid")) {
                hybrid = r;
            } else if (r.impl().equals("slipstream") && r.strategy().equals("busyspin")) {
                spin = r;
            } else if (r.impl().equals("lmax") && r.strategy().equals("blocking")) {
                lmaxBlocking = r;
            }
        }
        if (hybrid == null) {
            return;
        }
        if (spin != null) {
            final double ratio = hybrid.p99() / (double) spin.p99();
            targets.add(new String[] {"hybrid p99 <= 2 x busy-spin p99 (one-way unicast, 100k/s)",
                "hybrid " + us(hybrid.p99()) + " us, busy-spin " + us(spin.p99()) + " us (x" + fmt(ratio, 2) + ")",
                ratio <= 2.0 ? "**pass**" : "**miss**"});
            final double cpu = hybrid.stageCpuPerEvent() / spin.stageCpuPerEvent();
            targets.add(new String[] {"hybrid consumer CPU < 1/2 of busy-spin's (100k/s)",
                "hybrid " + fmt(hybrid.stageCpuPerEvent(), 0) + " ns/event, busy-spin "
                        + fmt(spin.stageCpuPerEvent(), 0) + " ns/event (x" + fmt(cpu, 2) + ")",
                cpu < 0.5 ? "**pass**" : "**miss**"});
        }
        if (lmaxBlocking != null) {
            final double ratio = lmaxBlocking.p99() / (double) hybrid.p99();
            targets.add(new String[] {"hybrid p99 >= 2 x better than LMAX BlockingWaitStrategy (100k/s)",
                "LMAX blocking " + us(lmaxBlocking.p99()) + " us / hybrid " + us(hybrid.p99()) + " us = x"
                        + fmt(ratio, 2), ratio >= 2.0 ? "**pass**" : "**miss**"});
        }
    }

    private static Histogram readHlog(final Path dir, final LatencyResult r) {
        if (dir == null) {
            return null;
        }
        final String file = r.mode().equals("pingpong")
                ? "pingpong-unicast-" + r.impl() + "-" + r.strategy() + ".hlog"
                : "oneway-" + r.topology() + "-" + r.impl() + "-" + r.strategy() + "-" + r.rate() + ".hlog";
        final Path p = dir.resolve(file);
        if (!Files.exists(p)) {
            return null;
        }
        try {
            final HistogramLogReader reader = new HistogramLogReader(p.toFile());
            final Histogram total = new Histogram(3);
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                total.add((Histogram) h);
            }
            reader.close();
            return total;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void copyHlogs(final Path from, final Path to) throws IOException {
        if (from == null || !Files.isDirectory(from)) {
            return;
        }
        Files.createDirectories(to);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(to, "*.hlog")) {
            for (Path p : old) {
                Files.delete(p);
            }
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(from, "*.hlog")) {
            for (Path p : files) {
                Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    // ---------------------------------------------------------------- allocation and layout

    private void alloc(final StringBuilder md, final Data d, final List<String[]> targets) {
        if (d.alloc.isEmpty()) {
            return;
        }
        md.append("## Allocation per event (`-prof gc`)\n\n");
        md.append("`gc.alloc.rate.norm`: bytes allocated per event by all threads, publish and consume"
                + " (profiler noise is about 0.01 B/op).\n\n| implementation | shape | wait | B/event |\n"
                + "| --- | --- | --- | ---: |\n");
        for (Map.Entry<String, Scores> e : d.alloc.entrySet()) {
            final Key k = Key.parse(e.getKey());
            final List<Double> norm = e.getValue().secondary.get("gc.alloc.rate.norm");
            final double v = norm == null || norm.isEmpty() ? Double.NaN : Stats.median(norm);
            md.append("| ").append(k.params.get("impl")).append(" | ").append(k.params.get("shape")).append(" | ")
                    .append(k.params.get("wait")).append(" | ").append(fmt(v, 3)).append(" |\n");
            if ("slipstream".equals(k.params.get("impl"))) {
                targets.add(new String[] {"Slipstream allocation, " + k.params.get("shape") + " ("
                        + k.params.get("wait") + "): about 0 B/event",
                    fmt(v, 3) + " B/event", v < 0.5 ? "**pass**" : "**miss**"});
            }
        }
        md.append('\n');
    }

    private void hotpath(final StringBuilder md, final Data d) {
        if (d.hotpath.isEmpty()) {
            return;
        }
        md.append("## Single-thread hot path\n\n");
        md.append("One thread claims, writes and publishes, then reads the event back through a barrier and"
                + " releases the slot: no other thread, no waiting, so this is the instruction cost of each"
                + " library's publish and consume path (ns per event, lower is better). It tells whether a"
                + " difference in the threaded benchmarks comes from the code path or from the threads.\n\n"
                + "| path | producers | Slipstream ns/event | LMAX ns/event | LMAX / Slipstream (> 1: Slipstream"
                + " faster) |\n| --- | --- | ---: | ---: | ---: |\n");
        final Map<String, Scores[]> pairs = new TreeMap<>();
        for (Map.Entry<String, Scores> e : d.hotpath.entrySet()) {
            final Key k = Key.parse(e.getKey());
            final String method = k.benchmark.substring(k.benchmark.lastIndexOf('.') + 1);
            final boolean slip = method.startsWith("slipstream");
            final String path = method.replaceFirst("^(slipstream|lmax)", "").toLowerCase(Locale.ROOT);
            final String group = (path.equals("one") ? "one event" : "batch of 64") + " | "
                    + k.params.getOrDefault("producers", "");
            pairs.computeIfAbsent(group, x -> new Scores[2])[slip ? 0 : 1] = e.getValue();
        }
        for (Map.Entry<String, Scores[]> e : pairs.entrySet()) {
            final Scores s = e.getValue()[0];
            final Scores l = e.getValue()[1];
            final Stats.Ratio r = s == null || l == null ? null : Stats.ratio(l.forks, s.forks);
            md.append("| ").append(e.getKey()).append(" | ")
                    .append(s == null ? "n/a" : fmt(Stats.median(s.forks), 2)).append(" | ")
                    .append(l == null ? "n/a" : fmt(Stats.median(l.forks), 2)).append(" | ")
                    .append(r == null ? "n/a" : "**" + fmt(r.value(), 2) + "** ± " + fmt(r.error(), 2)).append(" |\n");
        }
        md.append('\n');
    }

    private void layout(final StringBuilder md, final Data d) {
        if (d.layout.isEmpty()) {
            return;
        }
        md.append("## Field layout: does padding matter?\n\n");
        md.append("Two threads each write their own counter (volatile store) as fast as they can; the score is"
                + " both threads' writes per microsecond, median of forks. Unpadded counters share a cache line"
                + " unless the JVM happens to place them across a line boundary.\n\n"
                + "| counters | writes/us (median) | forks | padded / this |\n| --- | ---: | --- | ---: |\n");
        List<Double> padded = null;
        for (Map.Entry<String, Scores> e : d.layout.entrySet()) {
            if (Key.parse(e.getKey()).shortName().endsWith(".padded")) {
                padded = e.getValue().forks;
            }
        }
        for (Map.Entry<String, Scores> e : d.layout.entrySet()) {
            final List<Double> f = e.getValue().forks;
            final Stats.Ratio r = padded == null ? null : Stats.ratio(padded, f);
            final StringBuilder forks = new StringBuilder();
            for (double x : f) {
                forks.append(forks.length() == 0 ? "" : ", ").append(fmt(x, 0));
            }
            md.append("| ").append(Key.parse(e.getKey()).shortName()).append(" | ").append(fmt(Stats.median(f), 1))
                    .append(" | ").append(forks).append(" | ")
                    .append(r == null ? "n/a" : fmt(r.value(), 2) + " ± " + fmt(r.error(), 2)).append(" |\n");
        }
        md.append('\n');
    }

    // ---------------------------------------------------------------- helpers

    private String rel(final String png) {
        return "img/" + stem + "/" + png;
    }

    private static String verdict(final double value, final double error, final double goal) {
        if (value >= goal) {
            return "**pass**";
        }
        return value + error >= goal ? "**within noise**" : "**miss**";
    }

    private static String rate(final long r) {
        return r >= 1_000_000 ? r / 1_000_000 + "M/s" : r >= 1000 ? r / 1000 + "k/s" : r + "/s";
    }

    private static String us(final long nanos) {
        final double u = nanos / 1000.0;
        return u >= 100 ? fmt(u, 0) : u >= 10 ? fmt(u, 1) : fmt(u, 2);
    }

    private static String fmt(final double v, final int decimals) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** A parsed configuration key: benchmark name and parameters. */
    private record Key(String benchmark, Map<String, String> params) {
        static Key parse(final String key) {
            final String[] parts = key.split(" ");
            final Map<String, String> params = new TreeMap<>();
            for (int i = 1; i < parts.length; i++) {
                final int eq = parts[i].indexOf('=');
                params.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
            return new Key(parts[0], params);
        }

        /** Class.method without the package. */
        String shortName() {
            final String[] s = benchmark.split("\\.");
            return s.length < 2 ? benchmark : s[s.length - 2] + "." + s[s.length - 1];
        }

        String simpleClass() {
            final String[] s = benchmark.split("\\.");
            return s.length < 2 ? benchmark : s[s.length - 2];
        }
    }
}
