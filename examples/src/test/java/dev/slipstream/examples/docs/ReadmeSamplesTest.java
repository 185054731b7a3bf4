package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The code sample of README.md ({@link QuickStart}, as written there), run as a reader runs it. */
class ReadmeSamplesTest {
    private static final String OUTPUT = "trade 0: price 1000, fee 10, tax 20\n"
            + "trade 1: price 2000, fee 20, tax 40\n"
            + "trade 2: price 3000, fee 30, tax 60";

    /** The repository's root: the folder with README.md and docs/guide. */
    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs/guide")))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no README.md with docs/guide above " + Path.of("").toAbsolutePath());
        return dir;
    }

    @Test
    void quickStartSettlesEveryTradeAfterBothParallelStages() throws Exception {
        final PrintStream out = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(out);
        }
        // the README shows this output under the sample
        assertEquals(OUTPUT, captured.toString(StandardCharsets.UTF_8).strip().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void theReadmeShowsTheOutputAndRunsTheJarThisVersionBuilds() throws Exception {
        final Path root = root();
        final String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("```\n" + OUTPUT + "\n```"), "README.md shows the output of QuickStart");
        final String version = DocsConsistencyTest.projectVersion(root);
        final Matcher jar = Pattern.compile("core/target/slipstream-core-([^ ]+)\\.jar QuickStart\\.java").matcher(readme);
        assertTrue(jar.find(), "README.md runs QuickStart.java against the core jar");
        assertEquals(version, jar.group(1), "the core jar's version in README.md's run command");
    }
}
