package dev.slipstream.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The little statistics the report needs: medians of fork scores and ratios with an error.
 *
 * <pre>{@code
 * double m = Stats.median(List.of(3.0, 1.0, 2.0));   // 2.0
 * Stats.Ratio r = Stats.ratio(slipstreamForks, lmaxForks);
 * }</pre>
 */
public final class Stats {
    private Stats() {
    }

    /**
     * The median.
     *
     * @param values at least one value
     * @return the median (mean of the two middle values for an even count)
     * @throws IllegalArgumentException if empty
     */
    public static double median(final List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("median of no values");
        }
        final List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        final int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    /**
     * Half the spread of the values: the error bar of a median of few forks.
     *
     * @param values at least one value
     * @return (max - min) / 2
     */
    public static double halfRange(final List<Double> values) {
        return (Collections.max(values) - Collections.min(values)) / 2;
    }

    /**
     * A ratio of two medians.
     *
     * @param value median(a) / median(b)
     * @param error the propagated error: {@code value * sqrt((ea/ma)^2 + (eb/mb)^2)}, with
     *     {@code e} half the spread of each side's forks
     * @param pairedMin the smallest ratio of two forks run one after the other (same round)
     * @param pairedMax the largest such ratio
     */
    public record Ratio(double value, double error, double pairedMin, double pairedMax) {
    }

    /**
     * The ratio of two implementations' fork scores. Forks of the same index were run in the same
     * round (close in time), so their ratios give a second, paired view of the noise.
     *
     * @param a the forks of the numerator
     * @param b the forks of the denominator
     * @return the ratio, or null if either side has no score
     */
    public static Ratio ratio(final List<Double> a, final List<Double> b) {
        if (a == null || b == null || a.isEmpty() || b.isEmpty()) {
            return null;
        }
        final double ma = median(a);
        final double mb = median(b);
        final double value = ma / mb;
        final double ra = halfRange(a) / ma;
        final double rb = halfRange(b) / mb;
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            final double r = a.get(i) / b.get(i);
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        return new Ratio(value, value * Math.sqrt(ra * ra + rb * rb), min, max);
    }
}
