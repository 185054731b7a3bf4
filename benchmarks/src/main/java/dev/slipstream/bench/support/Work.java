package dev.slipstream.bench.support;

/**
 * The per-stage work of each topology and the checksums it must produce.
 *
 * <p>Every stage function is linear so that the expected checksum of a batch has a closed form:
 * the benchmark thread checks a batch in O(1) instead of replaying it. A stage that read an
 * event too early would see the value of the previous lap (a smaller value) and the sum would
 * come out short, so an ordering bug cannot hide behind a matching count.
 *
 * <pre>{@code
 * long expected = Work.pipelineChecksum(Work.sumOfRange(firstValue, n), n);
 * Work.check("pipeline", 0, expected, observed);   // throws on mismatch
 * }</pre>
 */
public final class Work {
    private Work() {
    }

    /**
     * Pipeline stage A.
     *
     * @param value the producer's value
     * @return what A writes into {@code a}
     */
    public static long pipelineA(final long value) {
        return value + 7;
    }

    /** Pipeline stage B. */
    public static long pipelineB(final long a) {
        return a * 3;
    }

    /**
     * Diamond stage A.
     *
     * @param value the producer's value
     * @return what A writes into {@code a}
     */
    public static long diamondA(final long value) {
        return value * 2;
    }

    /**
     * Diamond stage B.
     *
     * @param value the producer's value
     * @return what B writes into {@code b}
     */
    public static long diamondB(final long value) {
        return value + 3;
    }

    /** The sum of {@code first .. first + n - 1} (mod 2^64, like the stages' running sums). */
    public static long sumOfRange(final long first, final long n) {
        return n * first + n * (n - 1) / 2;
    }

    /** What the last pipeline stage sums over {@code n} events whose values sum to {@code values}: {@code sum(3 * (v + 7))}. */
    public static long pipelineChecksum(final long values, final long n) {
        return 3 * values + 21 * n;
    }

    /** What the diamond's join stage sums over {@code n} events whose values sum to {@code values}: {@code sum(2v + v + 3)}. */
    public static long diamondChecksum(final long values, final long n) {
        return 3 * values + 3 * n;
    }

    /**
     * Throws if a checksum does not match; the message starts with "checksum mismatch" so a
     * reader (or grep) finds it in a JMH log.
     *
     * @param what which topology, for the message
     * @param stage which last stage, for the message
     * @param expected the expected value
     * @param actual the observed value
     * @throws IllegalStateException on a mismatch
     */
    public static void check(final String what, final int stage, final long expected, final long actual) {
        if (expected != actual) {
            // the message is built only on failure: a passing check allocates nothing
            throw new IllegalStateException("checksum mismatch in " + what + " stage " + stage + ": expected " + expected
                    + ", got " + actual + " (a fast wrong answer is not a result)");
        }
    }
}
