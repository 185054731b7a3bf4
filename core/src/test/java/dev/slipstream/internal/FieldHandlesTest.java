package dev.slipstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.VarHandle;
import org.junit.jupiter.api.Test;

class FieldHandlesTest {
    static final class Holder {
        private long value;
    }

    @Test
    void findsAPrivateFieldOfAnotherClass() {
        final VarHandle handle = FieldHandles.of(Holder.class, "value", long.class);
        final Holder h = new Holder();
        handle.setVolatile(h, 42L);
        assertEquals(42L, h.value);
    }

    @Test
    void aMissingFieldFailsClassInitialisationWithItsCause() {
        final ExceptionInInitializerError e = assertThrows(ExceptionInInitializerError.class,
                () -> FieldHandles.of(Holder.class, "missing", long.class));
        assertTrue(e.getCause() instanceof NoSuchFieldException, "cause: " + e.getCause());
    }
}
