package dev.slipstream.sequence;

/**
 * Helpers over arrays of {@link Sequence}.
 *
 * <pre>{@code
 * long slowest = Sequences.minimum(consumerSequences, cursor.get());
 * }</pre>
 */
public final class Sequences {
    private Sequences() {
    }

    /**
     * The smallest value among {@code sequences}, or {@code minimum} if that is smaller or the
     * array is empty. Each read is an acquire load: a producer that sees a consumer past a slot
     * also sees that consumer's reads of it done, so the producer may overwrite it; callers rely
     * on this without saying so again.
     *
     * @param sequences the sequences to read
     * @param minimum the upper bound of the result
     * @return the minimum
     */
    public static long minimum(final Sequence[] sequences, final long minimum) {
        long min = minimum;
        for (final Sequence sequence : sequences) {
            final long value = sequence.get();
            if (value < min) {
                min = value;
            }
        }
        return min;
    }

    /**
     * The smallest value among {@code sequences}.
     *
     * @param sequences at least one sequence
     * @return the minimum
     * @throws IllegalArgumentException if {@code sequences} is empty
     */
    public static long minimum(final Sequence[] sequences) {
        if (sequences.length == 0) {
            throw new IllegalArgumentException("sequences must not be empty");
        }
        return minimum(sequences, Long.MAX_VALUE);
    }
}
