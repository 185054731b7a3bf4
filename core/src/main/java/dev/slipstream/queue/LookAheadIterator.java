package dev.slipstream.queue;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * What the queues' weakly consistent iterators share: the element to return next is found one
 * step ahead (so that {@link #hasNext()} is a field read and a walk that ends leaves nothing
 * behind), and {@link #remove()} is refused. A subclass walks its rings in {@link #findNext()}
 * and calls {@link #start()} once its own fields are set.
 *
 * <p>Why the guarantees of {@code ScqQueue.iterator()} hold for every subclass: the walk ends at
 * the tail of the last ring as it was at creation, so every element present for the whole
 * iteration lies in the walked range and none offered later is returned; positions only grow
 * along the walk and each holds at most one element, so nothing comes twice and the order is FIFO.
 * It only reads: iterating costs producers and consumers nothing but the lines it reads.
 *
 * @param <E> the element type
 */
abstract class LookAheadIterator<E> implements Iterator<E> {
    /** The element {@link #next()} returns next; null when there is none. */
    private Object next;

    /** The next element of the walk, or null once the walk is over (and from then on). */
    abstract Object findNext();

    /** Finds the first element; called by the subclass's constructor, last. */
    final void start() {
        next = findNext();
    }

    @Override
    public final boolean hasNext() {
        return next != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public final E next() {
        final Object e = next;
        if (e == null) {
            throw new NoSuchElementException("no more elements");
        }
        next = findNext();
        return (E) e;
    }

    /**
     * Not supported: an element in the middle of a ring cannot be removed.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public final void remove() {
        throw PollOnlyQueue.unsupported("Iterator.remove()");
    }
}
