package dev.slipstream.stress.ring;

/**
 * A ring slot for the ring tests: three plain fields that a producer fills and a consumer
 * checks. {@link #isWrittenFor(long)} tells a fully written event of a given sequence from a
 * fresh, stale or half-written one.
 *
 * <pre>{@code
 * StressEvent e = ring.get(seq);
 * e.write(seq, producerId);
 * ring.publish(seq);
 * // consumer, after the barrier handed it seq:
 * boolean ok = ring.get(seq).isWrittenFor(seq);
 * }</pre>
 */
public final class StressEvent {
    /** The sequence written into this slot last; -1 while fresh. */
    public long sequence = -1;
    /** Which producer wrote it, 1 or 2; 0 while fresh. */
    public long producer;
    /** A check value derived from the two fields above. */
    public long check;
    /** A reference to an object created by the producer, to check object-graph publication. */
    public Payload payload;

    /** An object created per publication; its field is plain, published only through the ring. */
    public static final class Payload {
        /** The sequence it was created for. */
        public long sequence;
    }

    /**
     * Writes every field for a sequence, as a producer does between claim and publish.
     *
     * @param seq the claimed sequence
     * @param producerId the producer, 1 or 2
     */
    public void write(final long seq, final long producerId) {
        final Payload p = new Payload();
        p.sequence = seq;
        sequence = seq;
        producer = producerId;
        check = checkOf(seq, producerId);
        payload = p;
    }

    /**
     * Whether every field holds what {@link #write(long, long)} stored for {@code seq}.
     *
     * @param seq the sequence the reader was handed
     * @return true if fully written for it
     */
    public boolean isWrittenFor(final long seq) {
        final long s = sequence;
        final long id = producer;
        final long c = check;
        final Payload p = payload;
        return s == seq && (id == 1 || id == 2) && c == checkOf(seq, id) && p != null && p.sequence == seq;
    }

    private static long checkOf(final long seq, final long producerId) {
        return seq * 31 + producerId * 1_000_003;
    }
}
