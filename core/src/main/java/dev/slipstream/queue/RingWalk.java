package dev.slipstream.queue;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The loops {@link LscqQueue} and {@link LprqQueue} run over their linked list of rings, written
 * once: peek, size, drain and the walk to the last ring. Each queue holds one stateless instance
 * that says how it reads its list (LSCQ acquire, LPRQ volatile); the ring pointers and the offer
 * and poll paths stay in the queues, untouched by this class.
 *
 * @param <Q> the queue
 * @param <R> its ring type
 */
abstract class RingWalk<Q, R> {
    /** The head ring, read as the queue's poll reads it. */
    abstract R head(Q queue);

    /** The ring linked after {@code ring}, or null when it is the last (open or sealed by close). */
    abstract R next(R ring);

    /** The oldest element of {@code ring}, or null. */
    abstract Object peekRing(R ring);

    /** The elements in {@code ring}. */
    abstract long countRing(R ring);

    /** Removes up to {@code limit} elements from the head ring alone, for a queue that can. */
    abstract int drainHead(Q queue, Consumer<Object> sink, int limit);

    /** The queue's poll, which crosses to the next ring. */
    abstract Object poll(Q queue);

    final Object peek(final Q queue) {
        for (R r = head(queue); r != null; r = next(r)) {
            final Object e = peekRing(r);
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    final int size(final Q queue) {
        long size = 0;
        for (R r = head(queue); r != null; r = next(r)) {
            size += countRing(r);
        }
        return (int) Math.min(size, Integer.MAX_VALUE);
    }

    /** The last ring reachable from {@code first}. */
    final R last(final R first) {
        R last = first;
        for (R n; (n = next(last)) != null; ) {
            last = n;
        }
        return last;
    }

    @SuppressWarnings("unchecked")
    final int drain(final Q queue, final Consumer<?> consumer, final int limit) {
        Objects.requireNonNull(consumer, "consumer must not be null");
        ScqQueue.checkLimit(limit);
        final Consumer<Object> sink = (Consumer<Object>) consumer;
        int n = 0;
        while (n < limit) {
            n += drainHead(queue, sink, limit - n);
            if (n == limit) {
                break;
            }
            final Object e = poll(queue); // crosses to the next ring, or finds the queue empty
            if (e == null) {
                break;
            }
            n++;
            sink.accept(e);
        }
        return n;
    }
}
