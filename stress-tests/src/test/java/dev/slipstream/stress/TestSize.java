package dev.slipstream.stress;

/**
 * How big a scaled test runs: {@link #QUICK} in {@code mvn -B verify}, {@link #FULL} with the
 * stress profile ({@code -Pstress}, which CI runs), {@link #LONG} with
 * {@code -Dslipstream.stress.long=true} (runs of many minutes, by hand). A class whose size comes
 * from here is tagged {@code scaled}, so that CI's stress pass ({@code -Dgroups=stress,scaled})
 * runs it again at full size.
 *
 * <pre>{@code
 * private static final int ROUNDS = TestSize.pick(200, 2_000, 50_000);
 * }</pre>
 */
public enum TestSize {
    /** A few seconds per class: every build. */
    QUICK,
    /** The size the seeded-bug proofs were tuned at: the stress profile and CI. */
    FULL,
    /** Long runs, by hand. */
    LONG;

    /** The size this JVM runs at, from {@code slipstream.stress.long} and {@code slipstream.stress}. */
    public static final TestSize CURRENT = Boolean.getBoolean("slipstream.stress.long") ? LONG
            : Boolean.getBoolean("slipstream.stress") ? FULL : QUICK;

    /**
     * @param quick the count for {@link #QUICK}
     * @param full the count for {@link #FULL}
     * @param longRun the count for {@link #LONG}
     * @return the one for {@link #CURRENT}
     */
    public static int pick(final int quick, final int full, final int longRun) {
        return (int) pick((long) quick, full, longRun);
    }

    /**
     * @param quick the amount for {@link #QUICK}
     * @param full the amount for {@link #FULL}
     * @param longRun the amount for {@link #LONG}
     * @return the one for {@link #CURRENT}
     */
    public static long pick(final long quick, final long full, final long longRun) {
        return switch (CURRENT) {
            case QUICK -> quick;
            case FULL -> full;
            case LONG -> longRun;
        };
    }
}
