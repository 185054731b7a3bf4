package dev.slipstream.queue;

/**
 * The weakly consistent iterator of the SCQ and LSCQ queues: walks the positions of each
 * segment's allocated ring from its head to its tail and returns the element each position holds,
 * validated against the ring entry so that an element taken meanwhile is skipped, never returned
 * in place of another (why that is weakly consistent: {@link LookAheadIterator}).
 *
 * @param <E> the element type
 */
final class ScqIterator<E> extends LookAheadIterator<E> {
    /** The segment being walked; null once the walk is over. */
    private Scq segment;
    /** The last segment to walk, found when the iterator was created. */
    private final Scq last;
    /** The tail of {@code last} when the iterator was created: where the walk ends. */
    private final long lastEnd;
    /** The next position of {@code segment} to look at. */
    private long position;
    /** Where the walk of {@code segment} ends. */
    private long end;

    /**
     * Creates an iterator over {@code first} and its successors up to {@code last}, ending at
     * position {@code lastEnd} of {@code last}.
     *
     * @param first the head segment, read before {@code last} and {@code lastEnd}
     * @param last the last segment, reachable from {@code first}
     * @param lastEnd the tail of {@code last}'s allocated ring, read after {@code last} was found
     */
    ScqIterator(final Scq first, final Scq last, final long lastEnd) {
        this.last = last;
        this.lastEnd = lastEnd;
        enter(first);
        start();
    }

    /** An iterator over one bounded SCQ, ending at its current tail. */
    static <E> ScqIterator<E> of(final Scq scq) {
        return new ScqIterator<>(scq, scq, scq.aq.lvTailPosition());
    }

    private void enter(final Scq s) {
        segment = s;
        // volatile loads: the walk starts at the head as it is now (positions below it are
        // taken or being taken) and ends at the tail (a segment that has a successor is
        // finalized, so no element is added to it any more)
        position = s.aq.lvHead();
        end = s == last ? lastEnd : s.aq.lvTailPosition();
    }

    @Override
    Object findNext() {
        Scq s = segment;
        while (s != null) {
            int sinceHead = 0;
            while (end - position > 0) {
                final Object e = s.elementAt(position);
                position++;
                if (e != null) {
                    return e;
                }
                if (++sinceHead == Scq.SCAN_HEAD_INTERVAL) {
                    // fallen behind the consumers: skip the positions they already took
                    sinceHead = 0;
                    final long h = s.aq.lvHead();
                    if (h - position > 0) {
                        position = h;
                    }
                }
            }
            if (s == last) {
                break;
            }
            s = s.successor();
            if (s == null) {
                break; // defensive: last is always reachable
            }
            enter(s);
        }
        segment = null;
        return null;
    }
}
