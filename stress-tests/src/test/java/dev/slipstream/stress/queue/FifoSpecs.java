package dev.slipstream.stress.queue;

import java.util.ArrayDeque;

/** Sequential specifications the Lincheck tests compare the queues with. */
final class FifoSpecs {
    private FifoSpecs() {
    }

    /** A FIFO queue of fixed capacity: offer fails exactly when it holds {@code capacity} elements. */
    abstract static class Bounded {
        private final ArrayDeque<Integer> elements = new ArrayDeque<>();
        private final int capacity;

        Bounded(final int capacity) {
            this.capacity = capacity;
        }

        public boolean offer(final int e) {
            if (elements.size() == capacity) {
                return false;
            }
            return elements.add(e);
        }

        public Integer poll() {
            return elements.poll();
        }
    }

    /** Capacity 2. */
    public static final class BoundedTwo extends Bounded {
        public BoundedTwo() {
            super(2);
        }
    }

    /** Capacity 16. */
    public static final class BoundedSixteen extends Bounded {
        public BoundedSixteen() {
            super(16);
        }
    }

    /** An unbounded FIFO queue: offer always succeeds. */
    public static final class Unbounded {
        private final ArrayDeque<Integer> elements = new ArrayDeque<>();

        public boolean offer(final int e) {
            return elements.add(e);
        }

        public Integer poll() {
            return elements.poll();
        }
    }
}
