package dev.slipstream.cluster;

import java.lang.reflect.Proxy;

/** Stubs of Aeron's interfaces ({@code Cluster}, {@code ClientSession}) whose methods answer by name. */
final class Stubs {
    private Stubs() {
    }

    /** A stub of an interface whose methods answer by name. */
    @SuppressWarnings("unchecked")
    static <I> I proxy(final Class<I> type, final Answer answer) {
        return (I) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> switch (method.getName()) {
                    case "toString" -> "stub " + type.getSimpleName();
                    case "hashCode" -> System.identityHashCode(self);
                    case "equals" -> self == args[0];
                    default -> answer.answer(method.getName(), args);
                });
    }

    @FunctionalInterface
    interface Answer {
        Object answer(String method, Object[] args);
    }
}
