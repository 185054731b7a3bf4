package dev.slipstream.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the results were measured on: CPU model, cores, OS and JVM.
 *
 * <pre>{@code
 * Machine m = Machine.describe();
 * System.out.println(m.cpu() + ", " + m.cores() + " cores");
 * }</pre>
 *
 * @param cpu the CPU model from /proc/cpuinfo
 * @param cores available processors
 * @param os OS name, version and architecture
 * @param jdk vendor and version of the JVM
 * @param vm the VM name and version
 * @param javaHome where the JVM lives
 */
public record Machine(String cpu, int cores, String os, String jdk, String vm, String javaHome) {
    /** Describes this machine and JVM. */
    public static Machine describe() {
        String cpu = "unknown";
        try {
            final List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String l : lines) {
                if (l.startsWith("model name")) {
                    cpu = l.substring(l.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            cpu = System.getProperty("os.arch") + " (no /proc/cpuinfo)";
        }
        return new Machine(cpu, Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                System.getProperty("java.home"));
    }

    /** The feature version of the JVM, e.g. 17 or 25. */
    public static int jdkFeature() {
        return Runtime.version().feature();
    }
}
