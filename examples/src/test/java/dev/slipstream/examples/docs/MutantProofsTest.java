package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code stress-tests/MUTANTS.md} says which command runs each seeded-bug proof: the ones its
 * "In every build" list names run in {@code mvn -B verify}, every other one is tagged
 * {@code stress} and runs with {@code -Pstress} (CI runs both). This keeps that true: every proof
 * the page names as {@code Class.method} exists in a module's test sources, and it is tagged
 * {@code stress} (on the method or its class) exactly when the list does not name it. A proof
 * that silently dropped out of CI, or one listed as run in every build that no longer is, fails
 * here. The check is also run on a page and a source written to be wrong.
 */
class MutantProofsTest {
    /** {@code Class.method} in backticks, where the class name ends in Test. */
    private static final Pattern PROOF = Pattern.compile("`(\\w+Test)\\.(\\w+)`");
    private static final Pattern EVERY_BUILD = Pattern.compile(
            "(?s)\\*\\*In every build\\*\\*.*?\\n\\n");

    @Test
    void eachProofIsTaggedStressUnlessThePageSaysItRunsInEveryBuild() throws IOException {
        final Path root = root();
        final String page = Files.readString(root.resolve("stress-tests/MUTANTS.md"));
        final Map<String, String> sources = testSources(root);
        final List<String> problems = problems(page, sources);
        assertEquals(List.of(), problems);
        assertTrue(proofs(page).size() >= 40, "the page names " + proofs(page).size() + " proofs");
    }

    @Test
    void theCheckCatchesAProofLeftOutOfBothCommandsAndOneListedWrongly() {
        final String page = "- **In every build** (`mvn -B verify`):\n  - `FastTest.theCheckCatchesA`\n\n"
                + "| `SlowTest.theCheckCatchesB` | `FastTest.theCheckCatchesA` | `GoneTest.theCheckCatchesC` |\n";
        final Map<String, String> sources = Map.of(
                "SlowTest", "class SlowTest {\n    @Test\n    void theCheckCatchesB() {}\n}",
                "FastTest", "class FastTest {\n    @Test\n    @Tag(\"stress\")\n    void theCheckCatchesA() {}\n}");
        final List<String> problems = problems(page, sources);
        assertEquals(List.of("FastTest.theCheckCatchesA is listed as run in every build but is tagged stress",
                "SlowTest.theCheckCatchesB is not tagged stress and not listed as run in every build",
                "GoneTest.theCheckCatchesC: no such test method in any module's test sources"), problems);
        assertEquals(List.of(), problems(page.replace("`GoneTest.theCheckCatchesC` ", ""), Map.of(
                "SlowTest", "@Tag(\"stress\")\nclass SlowTest {\n    @Test\n    void theCheckCatchesB() {}\n}",
                "FastTest", "class FastTest {\n    @Test\n    void theCheckCatchesA() {}\n}")),
                "a page and sources that agree");
    }

    /** What is wrong with the page against these sources (class name to source text). */
    static List<String> problems(final String page, final Map<String, String> sources) {
        final Matcher listed = EVERY_BUILD.matcher(page);
        final Set<String> everyBuild = listed.find() ? proofs(listed.group()) : Set.of();
        final List<String> problems = new ArrayList<>();
        for (final String proof : proofs(page)) {
            final String type = proof.substring(0, proof.indexOf('.'));
            final String method = proof.substring(proof.indexOf('.') + 1);
            final String source = sources.get(type);
            final Matcher declaration = source == null ? null : Pattern.compile(
                    "((?:\\n\\s*@[^\\n]*)*)\\n\\s*(?:public\\s+)?void\\s+" + method + "\\(").matcher(source);
            if (declaration == null || !declaration.find()) {
                if (Character.isLowerCase(method.charAt(0))) {
                    // a nested mutant class (Test.Mutant) is named too: only methods are proofs
                    problems.add(proof + ": no such test method in any module's test sources");
                }
                continue;
            }
            final boolean tagged = declaration.group(1).contains("@Tag(\"stress\")")
                    || Pattern.compile("@Tag\\(\"stress\"\\)\\s*(?:public\\s+|final\\s+)*class\\s+" + type + "\\b")
                            .matcher(source).find();
            if (everyBuild.contains(proof) && tagged) {
                problems.add(proof + " is listed as run in every build but is tagged stress");
            } else if (!everyBuild.contains(proof) && !tagged) {
                problems.add(proof + " is not tagged stress and not listed as run in every build");
            }
        }
        return problems;
    }

    private static Set<String> proofs(final String text) {
        final Set<String> proofs = new LinkedHashSet<>();
        final Matcher m = PROOF.matcher(text);
        while (m.find()) {
            proofs.add(m.group(1) + "." + m.group(2));
        }
        return proofs;
    }

    /** Simple class name to source text, over every module's test sources. */
    private static Map<String, String> testSources(final Path root) throws IOException {
        final Map<String, String> byName = new HashMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (final Path module : modules.toList()) {
                final Path tests = module.resolve("src/test/java");
                if (!Files.isDirectory(tests)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(tests)) {
                    for (final Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        // two modules may hold a test class of one name: look in both
                        byName.merge(f.getFileName().toString().replace(".java", ""), Files.readString(f),
                                (a, b) -> a + "\n" + b);
                    }
                }
            }
        }
        return byName;
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("stress-tests/MUTANTS.md"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no stress-tests/MUTANTS.md above " + Path.of("").toAbsolutePath());
        return dir;
    }
}
