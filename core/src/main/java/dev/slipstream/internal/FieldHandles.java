package dev.slipstream.internal;

import dev.slipstream.internal.FieldHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Looks up the {@link VarHandle} of a field that threads share, for a static initialiser of any
 * class of this module, private fields included. Not exported: the module's own plumbing.
 *
 * <pre>{@code
 * private static final VarHandle VALUE = FieldHandles.of(Counter.class, "value", long.class);
 * }</pre>
 */
public final class FieldHandles {
    private FieldHandles() {
    }

    /**
     * The VarHandle of field {@code name} of {@code owner}.
     *
     * @param owner the class that declares the field, in this module
     * @param name the field's name
     * @param type the field's type
     * @return its VarHandle
     * @throws ExceptionInInitializerError if there is no such field (the caller is a static initialiser)
     */
    public static VarHandle of(final Class<?> owner, final String name, final Class<?> type) {
        try {
            // a private lookup in the owner: allowed because the owner is in this module
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
