package dev.slipstream.queue;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Predicate;

/**
 * What every queue of this package shares as a {@link java.util.Collection}: elements leave only
 * at the head ({@code poll}, {@code drain}, {@code clear}); removing one from the middle throws
 * {@link UnsupportedOperationException}, because a ring would need a state that every offer and
 * poll checks, which costs the hot path. The spliterator wraps the queue's weakly consistent
 * iterator.
 *
 * @param <E> the element type; null elements are rejected
 */
abstract class PollOnlyQueue<E> extends AbstractQueue<E> {
    /**
     * A spliterator over the {@linkplain #iterator() weakly consistent iterator}: ordered,
     * non-null and concurrent, without a known size.
     *
     * @return the spliterator
     */
    @Override
    public final Spliterator<E> spliterator() {
        return Spliterators.spliteratorUnknownSize(iterator(),
                Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.CONCURRENT);
    }

    /**
     * Not supported: removing an element from the middle of a ring would need a state that every
     * offer and poll checks, which costs the hot path. Use {@link #poll()} or {@code drain}.
     *
     * @param o ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public final boolean remove(final Object o) {
        throw unsupported("remove(Object)");
    }

    /**
     * Not supported, as {@link #remove(Object)}.
     *
     * @param c ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public final boolean removeAll(final Collection<?> c) {
        throw unsupported("removeAll(Collection)");
    }

    /**
     * Not supported, as {@link #remove(Object)}.
     *
     * @param c ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public final boolean retainAll(final Collection<?> c) {
        throw unsupported("retainAll(Collection)");
    }

    /**
     * Not supported, as {@link #remove(Object)}.
     *
     * @param filter ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public final boolean removeIf(final Predicate<? super E> filter) {
        throw unsupported("removeIf(Predicate)");
    }

    /** Removes every element, by polling until the queue is empty. */
    @Override
    public final void clear() {
        while (poll() != null) {
            // keep polling (a bounded blocking queue's poll also wakes waiting putters)
        }
    }

    /** The exception for an operation that would remove from the middle. */
    static UnsupportedOperationException unsupported(final String what) {
        return new UnsupportedOperationException(what + " is not supported by Slipstream's lock-free queues: "
                + "removing an element from the middle of a ring would cost every offer and poll; use poll() "
                + "or drain()");
    }
}
