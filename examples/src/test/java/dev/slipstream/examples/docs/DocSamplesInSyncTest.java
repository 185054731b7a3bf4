package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the documentation's Java samples honest: every {@code ```java} block of README.md and
 * docs/guide/*.md must appear, line for line (leading indentation aside), in a source file where a
 * test compiles and runs it: this package for README.md and the guide, the aeron module's
 * {@code guide} package for the Aeron bridge page, and the example programs the guide shows whole
 * (examples/src/main/java, each run by a test of its own: {@code LedgerMember} and
 * {@code LedgerClient} by {@code LedgerMemberClientTest}). A line {@code // ...} in a sample marks
 * code left out. Change a sample in the docs and in its host together.
 */
class DocSamplesInSyncTest {
    /** README.md plus docs/guide hold this many Java samples; a new one needs a host test. */
    private static final int EXPECTED_SAMPLES = 51;

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("README.md")) || dir != null && !Files.isDirectory(dir.resolve("docs/guide"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no README.md with docs/guide above " + Path.of("").toAbsolutePath());
        return dir;
    }

    /** The ```java blocks of a Markdown file, each as its lines. */
    static List<List<String>> javaBlocks(final Path markdown) throws IOException {
        final List<List<String>> blocks = new ArrayList<>();
        List<String> current = null;
        for (final String line : Files.readAllLines(markdown, StandardCharsets.UTF_8)) {
            if (current == null && line.strip().equals("```java")) {
                current = new ArrayList<>();
            } else if (current != null && line.strip().equals("```")) {
                blocks.add(current);
                current = null;
            } else if (current != null) {
                current.add(line);
            }
        }
        assertTrue(current == null, markdown + " has an unclosed ```java block");
        return blocks;
    }

    /** Lines with their common leading indentation and trailing blanks removed. */
    static List<String> dedent(final List<String> lines) {
        final int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent).stripTrailing()).collect(Collectors.toList());
    }

    /**
     * Whether a source holds the block. A line {@code // ...} in a block stands for code left out:
     * each part between such lines must appear on its own.
     */
    static boolean containsBlock(final List<String> source, final List<String> block) {
        List<String> part = new ArrayList<>();
        for (final String line : block) {
            if (line.strip().equals("// ...")) {
                if (!containsLines(source, part)) {
                    return false;
                }
                part = new ArrayList<>();
            } else {
                part.add(line);
            }
        }
        return containsLines(source, part);
    }

    private static boolean containsLines(final List<String> source, final List<String> block) {
        if (block.stream().allMatch(String::isBlank)) {
            return true;
        }
        final List<String> wanted = dedent(block);
        for (int start = 0; start + wanted.size() <= source.size(); start++) {
            if (dedent(source.subList(start, start + wanted.size())).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyJavaSampleInTheDocsIsCompiledAndRunHere() throws IOException {
        final Path root = repositoryRoot();
        final List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> guide = Files.list(root.resolve("docs/guide"))) {
            guide.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        // hosts: this package, the guide samples other modules run in their own tests
        // (docs/guide/aeron-bridge.md in aeron/src/test/java/dev/slipstream/aeron/guide), and the
        // example programs the cluster guide shows whole (run by LedgerMemberClientTest)
        final List<List<String>> sources = new ArrayList<>();
        final List<Path> hosts = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).sorted().forEach(hosts::add);
        }
        hosts.add(root.resolve("examples/src/main/java"));
        for (final Path host : hosts) {
            try (Stream<Path> files = Files.walk(host)) {
                for (final Path file : files.filter(p -> p.toString().endsWith(".java")).sorted()
                        .collect(Collectors.toList())) {
                    sources.add(Files.readAllLines(file, StandardCharsets.UTF_8));
                }
            }
        }
        int count = 0;
        final List<String> missing = new ArrayList<>();
        for (final Path page : pages) {
            final List<List<String>> blocks = javaBlocks(page);
            for (int i = 0; i < blocks.size(); i++) {
                count++;
                final List<String> block = blocks.get(i);
                if (sources.stream().noneMatch(source -> containsBlock(source, block))) {
                    missing.add(root.relativize(page) + " sample " + (i + 1) + ", starting: "
                            + block.stream().filter(l -> !l.isBlank()).findFirst().orElse("(empty)").strip());
                }
            }
        }
        if (!missing.isEmpty()) {
            fail("Java samples in the docs with no identical copy in a test source or an example program (for"
                    + " README.md and most guide pages: examples/src/test/java/dev/slipstream/examples/docs; update"
                    + " the host with the sample):\n  " + String.join("\n  ", missing));
        }
        assertEquals(EXPECTED_SAMPLES, count, "number of ```java samples in README.md and docs/guide");
    }

    @Test
    void theMatcherFindsIndentedCopiesAndRejectsChangedOnes() {
        final List<String> block = List.of("a();", "if (x) {", "    b();", "}");
        assertTrue(containsBlock(List.of("class T {", "        a();", "        if (x) {", "            b();",
                "        }", "}"), block));
        assertTrue(!containsBlock(List.of("a();", "if (x) {", "    c();", "}"), block));
        assertTrue(containsBlock(List.of("a();", "x();", "b();"), List.of("a();", "// ...", "b();")));
        assertTrue(!containsBlock(List.of("a();", "x();"), List.of("a();", "// ...", "b();")));
    }
}
