package dev.slipstream.bench.report;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The statistics the report needs, computed with Apache Commons Math (the library JMH itself
 * uses for its score errors): medians of fork scores, 95% confidence intervals, and ratios of two
 * implementations measured in interleaved rounds.
 *
 * <pre>{@code
 * double m = Stats.median(List.of(3.0, 1.0, 2.0));   // 2.0
 * Stats.Ratio r = Stats.ratio(slipstreamForks, lmaxForks);
 * }</pre>
 */
public final class Stats {
    private static final double CONFIDENCE = 0.95;

    private Stats() {
    }

    /** The median. */
    public static double median(final List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("median of no values");
        }
        return new Median().evaluate(toArray(values));
    }

    /**
     * Half the width of the 95% confidence interval of the values' mean (Student's t with
     * {@code n - 1} degrees of freedom), the error bar of a score measured by a few forks.
     *
     * @param values the fork scores
     * @return the half-width, or NaN for fewer than two values
     */
    public static double confidenceHalfWidth(final List<Double> values) {
        if (values.size() < 2) {
            return Double.NaN;
        }
        final SummaryStatistics s = new SummaryStatistics();
        values.forEach(s::addValue);
        final double t = new TDistribution(values.size() - 1).inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
        return t * s.getStandardDeviation() / Math.sqrt(values.size());
    }

    /**
     * A ratio of two implementations.
     *
     * @param value median(a) / median(b)
     * @param error half the width of the 95% confidence interval of the mean per-round ratio
     *     (NaN with fewer than two rounds)
     * @param pairedMin the smallest ratio of two forks run one after the other (same round)
     * @param pairedMax the largest such ratio
     */
    public record Ratio(double value, double error, double pairedMin, double pairedMax) {
    }

    /**
     * The ratio of two implementations' fork scores. Forks of the same index were run in the same
     * round (close in time), so each pair gives one ratio; their spread is the error.
     *
     * @param a the forks of the numerator
     * @param b the forks of the denominator
     * @return the ratio, or null if either side has no score
     */
    public static Ratio ratio(final List<Double> a, final List<Double> b) {
        if (a == null || b == null || a.isEmpty() || b.isEmpty()) {
            return null;
        }
        final List<Double> paired = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            paired.add(a.get(i) / b.get(i));
        }
        final SummaryStatistics s = new SummaryStatistics();
        paired.forEach(s::addValue);
        return new Ratio(median(a) / median(b), confidenceHalfWidth(paired), s.getMin(), s.getMax());
    }

    private static double[] toArray(final List<Double> values) {
        final double[] array = new double[values.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = values.get(i);
        }
        return array;
    }
}
