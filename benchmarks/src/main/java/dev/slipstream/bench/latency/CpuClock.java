package dev.slipstream.bench.latency;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the whole process and of chosen threads, to show what each wait strategy burns.
 *
 * <pre>{@code
 * long before = CpuClock.processNanos();
 * // ... run ...
 * long used = CpuClock.processNanos() - before;
 * }</pre>
 */
public final class CpuClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuClock() {
    }

    /** CPU time of the process (every thread, JIT and GC included), or -1 if unknown. */
    public static long processNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The summed CPU time of {@code threads}, or -1 if the JVM cannot measure it. */
    @SuppressWarnings("deprecation")
    public static long threadsNanos(final Thread[] threads) {
        if (!THREADS.isThreadCpuTimeSupported()) {
            return -1;
        }
        long sum = 0;
        for (Thread t : threads) {
            final long n = THREADS.getThreadCpuTime(t.getId());
            if (n < 0) {
                return -1;
            }
            sum += n;
        }
        return sum;
    }
}
