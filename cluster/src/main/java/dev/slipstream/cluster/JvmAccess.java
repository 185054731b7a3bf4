package dev.slipstream.cluster;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Checks, before Aeron is touched, that the JVM lets Agrona (which Aeron is built on) reach
 * {@code jdk.internal.misc}: without {@code --add-opens java.base/jdk.internal.misc=...} the first
 * Aeron call fails deep inside Agrona with an {@code IllegalAccessError} that does not name the flag.
 *
 * <pre>{@code
 * JvmAccess.requireAgronaAccess("cluster member 0");   // throws naming the flag to add
 * }</pre>
 */
final class JvmAccess {
    private static final String PACKAGE = "jdk.internal.misc";

    private JvmAccess() {
    }

    /** @return null if Agrona can reach {@code jdk.internal.misc}, else the flag the JVM needs */
    static String missingFlag() {
        final Module agrona = UnsafeBuffer.class.getModule();
        if (Object.class.getModule().isOpen(PACKAGE, agrona)) {
            return null;
        }
        return "--add-opens java.base/" + PACKAGE + "=" + (agrona.isNamed() ? agrona.getName() : "ALL-UNNAMED");
    }

    /**
     * @param who what is starting, for the message ("cluster member 0", "cluster client 7")
     * @throws IllegalStateException naming the missing JVM flag
     */
    static void requireAgronaAccess(final String who) {
        final String flag = missingFlag();
        if (flag != null) {
            throw new IllegalStateException(who + " cannot start: Aeron's Agrona needs the JVM option " + flag
                    + " (add it to the java command line, or to the test runner's argLine)");
        }
    }
}
