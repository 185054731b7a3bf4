package dev.slipstream.topology;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * Which pipeline a handler instance belongs to, across all pipelines: a handler is called by one
 * thread of one stage, so the same instance in two pipelines would be called by two threads at
 * once. Handlers and pipelines are held weakly; a pipeline gives its handlers back when it stops
 * or when a stage is removed.
 */
final class HandlerOwners {
    private static final Map<Key, Owner> OWNERS = new HashMap<>();
    private static final ReferenceQueue<Object> CLEARED = new ReferenceQueue<>();

    private HandlerOwners() {
    }

    /**
     * Claims {@code handler} for {@code pipeline}'s stage {@code stageName}.
     *
     * @throws IllegalArgumentException naming the handler and the other pipeline, if another
     *     running or new pipeline holds it
     */
    static synchronized void claim(final Object handler, final Slipstream<?> pipeline, final String stageName) {
        check(handler, pipeline);
        OWNERS.put(new Key(handler, CLEARED), new Owner(new WeakReference<>(pipeline), stageName));
    }

    /** Checks without claiming (see {@link #claim}). */
    static synchronized void check(final Object handler, final Slipstream<?> pipeline) {
        expunge();
        final Owner current = OWNERS.get(new Key(handler, null));
        if (current != null) {
            final Slipstream<?> other = current.pipeline().get();
            if (other != null && other != pipeline && !other.isStopped()) {
                throw new IllegalArgumentException("handler " + handler + " is already in pipeline '" + other.name()
                        + "' (stage '" + current.stageName() + "'); a handler instance can be in one pipeline only:"
                        + " remove it from '" + other.name() + "' or shut that pipeline down first, or give '"
                        + pipeline.name() + "' its own instance" + sharedObjectHint(handler));
            }
        }
    }

    /** Why "two" handlers can be one object (a non-capturing lambda); empty for other handlers. */
    static String sharedObjectHint(final Object handler) {
        final Class<?> type = handler.getClass();
        if (!type.isSynthetic() && !type.getName().contains("$$Lambda")) {
            return "";
        }
        return "; note: a lambda that captures no variable is one shared object (the JVM returns the same"
                + " instance each time its expression runs, so two stages built from it hold one handler):"
                + " create an instance per stage, e.g. new MyHandler(), or a lambda that captures a value of"
                + " its own stage";
    }

    /** Gives {@code handler} back if {@code pipeline} holds it. */
    static synchronized void release(final Object handler, final Slipstream<?> pipeline) {
        OWNERS.computeIfPresent(new Key(handler, null), (key, owner) -> owner.pipeline().get() == pipeline ? null : owner);
    }

    private static void expunge() {
        Reference<?> cleared;
        while ((cleared = CLEARED.poll()) != null) {
            OWNERS.remove(cleared);
        }
    }

    private record Owner(WeakReference<Slipstream<?>> pipeline, String stageName) {
    }

    /** A weak key compared by identity of its referent. */
    private static final class Key extends WeakReference<Object> {
        private final int hash;

        Key(final Object referent, final ReferenceQueue<Object> queue) {
            super(referent, queue);
            this.hash = System.identityHashCode(referent);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(final Object other) {
            final Object mine = get();
            return this == other || other instanceof Key key && mine != null && mine == key.get();
        }
    }
}
