package dev.slipstream.journal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Unmaps a segment the writer has finished with, so that its address space and, once retention
 * deletes the file, its disk blocks are freed now rather than whenever the garbage collector
 * collects the buffer. Java 17 has no public unmap; {@code sun.misc.Unsafe#invokeCleaner} (in
 * module {@code jdk.unsupported}) is the one supported way. If it is not there, the buffer is left
 * to the collector. Only the writer's own mapping is unmapped, after its last use: touching an
 * unmapped buffer crashes the JVM, so buffers handed to codecs or handlers are never unmapped.
 */
final class Unmapper {
    private static final MethodHandle INVOKE_CLEANER = find();

    private Unmapper() {
    }

    private static MethodHandle find() {
        try {
            final Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            final Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(theUnsafe.get(null));
        } catch (ReflectiveOperationException | RuntimeException unavailable) {
            return null;
        }
    }

    static void unmap(final ByteBuffer mapping) {
        if (INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact(mapping);
        } catch (Throwable notUnmapped) {
            // left to the garbage collector
        }
    }
}
