package dev.slipstream.bench.report;

import dev.slipstream.bench.latency.LatencyResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The wait-strategy chooser: for every wait strategy of every implementation, p50 and p90
 * one-way latency against the consumer stage's CPU per event, one point per strategy and rate,
 * from the {@code latency.tsv} that {@link dev.slipstream.bench.latency.LatencyMain} appends to.
 * A strategy is worth picking at a rate when no other point of that rate is both lower and to the
 * left of it.
 *
 * <pre>{@code
 * for w in busyspin yielding sleeping blocking liteblocking phased hybrid; do
 *   java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.latency.LatencyMain --mode oneway \
 *       --impl slipstream --wait $w --topology unicast --rates 1000,10000,100000,1000000 --out /tmp/lat
 * done
 * java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.report.StrategyChart \
 *     /tmp/lat/latency.tsv docs/benchmarks/strategies
 * }</pre>
 * writes {@code strategies-p50.png}, {@code strategies-p90.png} and {@code strategies.md}.
 */
public final class StrategyChart {
    private StrategyChart() {
    }

    /**
     * Draws the charts and the table.
     *
     * @param args the {@code latency.tsv} file, then the output directory
     * @throws IOException if a file cannot be read or written
     */
    public static void main(final String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: StrategyChart LATENCY_TSV OUTPUT_DIR");
            System.exit(2);
            return;
        }
        final List<LatencyResult> rows = read(Path.of(args[0]));
        final Path dir = Path.of(args[1]);
        Files.createDirectories(dir);
        chart(rows, dir.resolve("strategies-p50.png"), "p50", true);
        chart(rows, dir.resolve("strategies-p90.png"), "p90", false);
        Files.writeString(dir.resolve("strategies.md"), table(rows), StandardCharsets.UTF_8);
    }

    static List<LatencyResult> read(final Path tsv) throws IOException {
        final List<LatencyResult> rows = new ArrayList<>();
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("mode\t")) {
                continue;
            }
            final LatencyResult r = LatencyResult.parse(line);
            if (r.mode().equals("oneway") && r.checksumOk()) {
                rows.add(r);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(tsv + " holds no one-way result with a good checksum");
        }
        return rows;
    }

    private static void chart(final List<LatencyResult> rows, final Path file, final String percentile,
                              final boolean median) throws IOException {
        // one series per implementation/strategy and rate, so that the legend names every point
        final Map<String, double[]> points = new LinkedHashMap<>();
        for (LatencyResult r : rows) {
            final double latencyUs = (median ? r.p50() : r.p90()) / 1000.0;
            points.put(r.series() + " @" + rate(r.rate()), new double[] {Math.max(r.stageCpuPerEvent(), 1.0), latencyUs});
        }
        Charts.scatter(file, "one-way " + rows.get(0).topology() + ": " + percentile
                        + " latency against consumer CPU per event, JDK " + Runtime.version().feature(),
                "consumer stage CPU per event (ns)", percentile + " latency (us)", points, true);
    }

    private static String table(final List<LatencyResult> rows) {
        final StringBuilder md = new StringBuilder();
        md.append("| implementation/strategy | rate | p50 (us) | p90 (us) | p99 (us) | stage CPU ns/event |\n")
                .append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (LatencyResult r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.2f | %.0f |%n", r.series(),
                    rate(r.rate()), r.p50() / 1000.0, r.p90() / 1000.0, r.p99() / 1000.0, r.stageCpuPerEvent()));
        }
        return md.toString();
    }

    private static String rate(final long rate) {
        return rate >= 1_000_000 ? rate / 1_000_000 + "M/s" : rate / 1000 + "k/s";
    }
}
