package dev.slipstream.layers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of {@code core} as docs/architecture.md draws them: a package's code (comments
 * aside) refers only to the packages below it in that graph, which has no cycle, so no package
 * depends on one above it or beside it (the queues use neither the ring nor the processors).
 */
class PackageLayersTest {
    /** What each package may use. */
    static final Map<String, Set<String>> ALLOWED = Map.of(
            "internal", Set.of(),
            "sequence", Set.of("internal"),
            "wait", Set.of("internal", "sequence"),
            "ring", Set.of("internal", "sequence"),
            "monitor", Set.of("internal", "sequence"),
            "agent", Set.of("internal", "sequence"),
            "processor", Set.of("agent", "internal", "ring", "sequence"),
            "queue", Set.of("internal", "sequence", "wait"),
            "topology", Set.of("agent", "internal", "monitor", "processor", "queue", "ring", "sequence", "wait"));

    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.slipstream\\.([a-z]+)\\.");
    private static final Path SOURCES = Path.of("src/main/java/dev/slipstream");

    @Test
    void everyPackageRefersOnlyToPackagesBelowIt() throws IOException {
        final List<String> upward = new ArrayList<>();
        for (final String pkg : ALLOWED.keySet()) {
            try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
                for (final Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    upward.addAll(upwardReferences(pkg, file.getFileName().toString(),
                            Files.readString(file, StandardCharsets.UTF_8)));
                }
            }
        }
        assertEquals(List.of(), upward);
    }

    @Test
    void everyPackageHasItsPlace() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            dirs.filter(Files::isDirectory).forEach(dir -> assertTrue(ALLOWED.containsKey(dir.getFileName().toString()),
                    "package " + dir.getFileName() + " is not in PackageLayersTest.ALLOWED: say what it may use"));
        }
    }

    /** The check catches a queue class that imports the ring, and ignores what comments name. */
    @Test
    void theCheckCatchesAnUpwardImportAndIgnoresComments() {
        final String source = "package dev.slipstream.queue;\n\nimport dev.slipstream.ring.RingBuffer;\n"
                + "import dev.slipstream.sequence.Backoff;\n/** Not {@link dev.slipstream.topology.Slipstream}. */\n"
                + "// see dev.slipstream.processor.ExceptionHandler\nfinal class X {}\n";
        assertEquals(List.of("queue/X.java:3 refers to dev.slipstream.ring, which queue may not use"),
                upwardReferences("queue", "X.java", source));
    }

    /** References outside comments to a package that {@code pkg} may not use. */
    static List<String> upwardReferences(final String pkg, final String fileName, final String source) {
        final List<String> found = new ArrayList<>();
        final Set<String> allowed = ALLOWED.get(pkg);
        final String[] lines = source.split("\n", -1);
        boolean inComment = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (inComment) {
                final int end = line.indexOf("*/");
                if (end < 0) {
                    continue;
                }
                line = line.substring(end + 2);
                inComment = false;
            }
            final int open = line.indexOf("/*");
            if (open >= 0) {
                inComment = line.indexOf("*/", open) < 0;
                line = line.substring(0, open);
            }
            final int slashes = line.indexOf("//");
            if (slashes >= 0) {
                line = line.substring(0, slashes);
            }
            if (line.startsWith("package ")) {
                continue;
            }
            final Matcher m = REFERENCE.matcher(line);
            while (m.find()) {
                final String target = m.group(1);
                if (!target.equals(pkg) && !allowed.contains(target)) {
                    found.add(pkg + "/" + fileName + ":" + (i + 1) + " refers to dev.slipstream." + target
                            + ", which " + pkg + " may not use");
                }
            }
        }
        return found;
    }
}
