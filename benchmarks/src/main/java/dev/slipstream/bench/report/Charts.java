package dev.slipstream.bench.report;

import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * PNG charts of the results, drawn with XChart (headless).
 *
 * <pre>{@code
 * Charts.bars(Path.of("ratios.png"), "Slipstream / LMAX", "ratio", categories, series, null, false);
 * Charts.percentiles(Path.of("latency.png"), "one-way unicast, 100k/s", histograms);
 * }</pre>
 */
public final class Charts {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 560;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    /** A grouped bar chart, with an error bar on each bar unless {@code errors} is null. */
    public static void bars(final Path file, final String title, final String yTitle, final List<String> categories,
                            final Map<String, List<Double>> series, final Map<String, List<Double>> errors,
                            final boolean logY) throws IOException {
        final int bars = categories.size() * series.size();
        final CategoryChart chart = new CategoryChartBuilder().width(Math.max(WIDTH, bars * 14)).height(HEIGHT + 80)
                .title(title).xAxisTitle("").yAxisTitle(yTitle).build();
        final var st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setXAxisLabelRotation(30);
        st.setYAxisLogarithmic(logY);
        st.setChartBackgroundColor(java.awt.Color.WHITE);
        // value labels only while they fit above their bars
        st.setLabelsVisible(bars <= 40);
        st.setLabelsFont(st.getLabelsFont().deriveFont(9f));
        st.setYAxisDecimalPattern("#,##0.##");
        double minPositive = Double.MAX_VALUE;
        for (List<Double> values : series.values()) {
            for (Double d : values) {
                if (d != null && d > 0) {
                    minPositive = Math.min(minPositive, d);
                }
            }
        }
        // a missing value still needs a number: zero, or on a log axis a tenth of the smallest bar
        final double missing = logY ? (minPositive == Double.MAX_VALUE ? 1.0 : minPositive / 2) : 0.0;
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            final List<Double> ys = new ArrayList<>();
            boolean any = false;
            for (Double d : e.getValue()) {
                final boolean absent = d == null || d.isNaN() || (logY && d <= 0);
                ys.add(absent ? missing : d);
                any |= !absent;
            }
            if (any && errors != null && errors.containsKey(e.getKey())) {
                final List<Double> errorBars = new ArrayList<>();
                for (Double d : errors.get(e.getKey())) {
                    errorBars.add(d == null || d.isNaN() ? 0.0 : d);
                }
                chart.addSeries(e.getKey(), categories, ys, errorBars);
            } else if (any) {
                chart.addSeries(e.getKey(), categories, ys);
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        if (logY) {
            // bar charts anchor at zero unless told otherwise, which a log axis cannot show
            st.setYAxisMin(missing);
        }
        write(chart, file);
    }

    /**
     * Latency percentile curves, one per histogram, x as "number of nines"
     * ({@code log10(1 / (1 - p))}: 1 is p90, 2 is p99, 3 is p99.9), y in microseconds
     * (logarithmic).
     *
     * @param file the PNG to write
     * @param title the title
     * @param histograms series name to histogram (values in nanoseconds)
     * @throws IOException if the file cannot be written
     */
    public static void percentiles(final Path file, final String title, final Map<String, Histogram> histograms)
            throws IOException {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("percentile").yAxisTitle("latency (us)").build();
        final var st = chart.getStyler();
        st.setYAxisLogarithmic(true);
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(java.awt.Color.WHITE);
        st.setXAxisMin(0.0);
        st.setXAxisMax(5.0);
        chart.setCustomXAxisTickLabelsFormatter(Charts::percentileLabel);
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
            final Histogram h = e.getValue();
            if (h.getTotalCount() == 0) {
                continue;
            }
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            for (int k = 0; k <= 50; k++) {
                // 1 - 10^(-k/10): from p0 to p99.999 in even steps of "nines"
                final double p = 1.0 - Math.pow(10, -k / 10.0);
                xs.add(k / 10.0);
                ys.add(Math.max(h.getValueAtPercentile(p * 100.0), 1) / 1000.0);
            }
            final XYSeries s = chart.addSeries(e.getKey(), xs, ys);
            s.setMarker(SeriesMarkers.NONE);
        }
        write(chart, file);
    }

    private static String percentileLabel(final Double nines) {
        final double p = 100.0 * (1.0 - Math.pow(10, -nines));
        final int decimals = Math.max(0, (int) Math.ceil(nines - 1e-9) - 2);
        return String.format(Locale.ROOT, "%." + decimals + "f%%", p);
    }

    /** A scatter of one named point per configuration (e.g. p99 latency against CPU used), y on a log scale. */
    public static void scatter(final Path file, final String title, final String xTitle, final String yTitle,
                               final Map<String, double[]> points, final boolean logX) throws IOException {
        // tall enough for a legend line per point
        final int height = Math.max(HEIGHT, 18 * points.size() + 120);
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(height).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        final var st = chart.getStyler();
        st.setDefaultSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
        st.setYAxisLogarithmic(true);
        st.setXAxisLogarithmic(logX);
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(java.awt.Color.WHITE);
        st.setMarkerSize(10);
        for (Map.Entry<String, double[]> e : points.entrySet()) {
            chart.addSeries(e.getKey(), new double[] {e.getValue()[0]}, new double[] {Math.max(e.getValue()[1], 1e-3)});
        }
        write(chart, file);
    }

    private static void write(final org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, final Path file)
            throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
