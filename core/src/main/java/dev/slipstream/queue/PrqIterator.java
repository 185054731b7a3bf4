package dev.slipstream.queue;

/**
 * The weakly consistent iterator of {@link LprqQueue}: walks each ring's positions from its head
 * to its tail and returns the element each position holds, checked against the cell's epoch so
 * that an element of another lap is never returned in place of the one at the position (why that
 * is weakly consistent: {@link LookAheadIterator}).
 *
 * @param <E> the element type
 */
final class PrqIterator<E> extends LookAheadIterator<E> {
    /** The ring being walked; null once the walk is over. */
    private PrqRing ring;
    /** The last ring to walk, found when the iterator was created. */
    private final PrqRing last;
    /** The tail of {@code last} (closed bit cleared) when the iterator was created. */
    private final long lastEnd;
    /** The next position of {@code ring} to look at. */
    private long position;
    /** Where the walk of {@code ring} ends. */
    private long end;

    /**
     * An iterator from {@code first} through its successors up to {@code last}, ending at
     * {@code lastEnd} in {@code last}.
     *
     * @param first the head ring, read before {@code last}
     * @param last the last ring, reachable from {@code first}
     * @param lastEnd the tail of {@code last}, read after {@code last} was found
     */
    PrqIterator(final PrqRing first, final PrqRing last, final long lastEnd) {
        this.last = last;
        this.lastEnd = lastEnd;
        enter(first);
        start();
    }

    private void enter(final PrqRing r) {
        ring = r;
        // volatile loads (in firstPosition and endPosition): positions below the head are taken
        // or being taken; a ring with a successor is closed, so its tail bounds its elements
        position = r.firstPosition();
        end = r == last ? Math.min(lastEnd, r.endPosition()) : r.endPosition();
    }

    @Override
    Object findNext() {
        PrqRing r = ring;
        while (r != null) {
            while (position < end) {
                final Object e = r.elementAt(position);
                position++;
                if (e != null) {
                    return e;
                }
            }
            if (r == last) {
                break;
            }
            r = r.lvNext();
            if (r == null || r == LprqQueue.CLOSED_LINK) {
                break; // defensive: last is always reachable
            }
            enter(r);
        }
        ring = null;
        return null;
    }
}
