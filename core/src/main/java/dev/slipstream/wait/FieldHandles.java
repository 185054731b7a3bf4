package dev.slipstream.wait;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Looks up the VarHandles of the fields this package's classes share between threads. */
final class FieldHandles {
    private FieldHandles() {
    }

    /** The VarHandle of a field of this package, for a static initialiser: ExceptionInInitializerError if none. */
    static VarHandle of(final Class<?> owner, final String name, final Class<?> type) {
        try {
            return MethodHandles.lookup().findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
