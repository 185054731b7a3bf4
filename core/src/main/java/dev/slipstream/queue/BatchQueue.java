package dev.slipstream.queue;

import java.util.Queue;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link Queue} that also moves elements in batches: {@link #drain} hands up to a limit of
 * elements to a consumer, {@link #fill} takes up to a limit from a supplier. Both are plain
 * loops over the queue's own poll and offer paths, without the per-call overhead of the
 * {@code Queue} methods and without an intermediate collection.
 *
 * <pre>{@code
 * BatchQueue<Job> jobs = new LscqQueue<>();
 * jobs.fill(() -> new Job(next++), 100);                // enqueue 100
 * int done = jobs.drain(Job::run, 32);                  // run up to 32
 * }</pre>
 *
 * @param <E> the element type
 */
public interface BatchQueue<E> extends Queue<E> {
    /**
     * Removes up to {@code limit} elements, oldest first, and hands each to {@code consumer}.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    int drain(Consumer<? super E> consumer, int limit);

    /**
     * Inserts up to {@code limit} elements obtained from {@code supplier}, stopping early if the
     * queue cannot take more.
     *
     * @param supplier produces the elements; must not return null
     * @param limit the most to insert, {@code >= 0}
     * @return how many were inserted
     * @throws NullPointerException if {@code supplier} is null or returns null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    int fill(Supplier<? extends E> supplier, int limit);
}
