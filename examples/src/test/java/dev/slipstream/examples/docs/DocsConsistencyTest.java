package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Catches documentation that contradicts the project, where a machine can tell:
 * <ul>
 *   <li>every version of a {@code dev.slipstream} artifact in a Maven or Gradle snippet is the
 *       project's version (the parent POM's);</li>
 *   <li>every API name in backticks that names a Slipstream class, {@code dev.slipstream.ring.EventSink}
 *       or {@code Slipstream.STOP_GRACE} or {@code ShutdownResult.eventsSkipped()}, exists: the
 *       class in a module's main sources, the member in that class's code, comments and strings
 *       aside (declared, used, or inherited through a Slipstream supertype);</li>
 *   <li>the migration guide does not call a concept "no equivalent" or "no separate interfaces"
 *       when Slipstream has a public type of that name;</li>
 *   <li>no page, code comments in its samples included, repeats a claim the code contradicts
 *       ({@link #CONTRADICTED}), such as "halt() stops at once" (a halt stops after the batch in
 *       hand).</li>
 * </ul>
 * The migration guide's first column names LMAX Disruptor's API, which is not checked. Each check
 * is also run on a page written to be wrong, to show it catches what it is for.
 */
class DocsConsistencyTest {
    private static final Pattern ARTIFACT_VERSION = Pattern.compile(
            "<groupId>dev\\.slipstream</groupId>\\s*<artifactId>[^<]+</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern GRADLE = Pattern.compile("\"dev\\.slipstream:[a-z-]+:([^\"]+)\"");
    private static final Pattern SPAN = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern QUALIFIED = Pattern.compile(
            "(dev\\.slipstream(?:\\.[a-z]+)+)\\.([A-Z]\\w*)(?:[.#](\\w+))?(?:\\(.*\\))?");
    private static final Pattern MEMBER = Pattern.compile("([A-Z]\\w*)[.#]([a-zA-Z_]\\w*)(?:\\(.*\\))?");
    private static final Pattern SUPERTYPES = Pattern.compile(
            "(?:class|interface)\\s+\\w+(?:<[^{]*?>)?\\s+(?:extends\\s+([^{]+?))?\\s*(?:implements\\s+([^{]+?))?\\s*\\{");

    /** Claims the code contradicts, with what is true instead. */
    static final Map<Pattern, String> CONTRADICTED = Map.of(
            Pattern.compile("(?i)halt\\(\\)`?,?\\s+(stops|halts)\\s+at\\s+once"),
            "halt() stops each stage after the batch in hand, without draining",
            Pattern.compile("(?i)tryPublishEvents?[^.\\n]*throws?\\s+`?SequencerClosedException"),
            "a tryPublish... on a closed ring returns false",
            Pattern.compile("(?i)plain non-daemon threads"),
            "stage threads are daemon threads by default");

    /** Places where a page repeats a contradicted claim. */
    static List<String> contradictions(final String page, final String text) {
        final List<String> found = new ArrayList<>();
        CONTRADICTED.forEach((claim, truth) -> {
            final Matcher m = claim.matcher(text);
            while (m.find()) {
                found.add(page + ": \"" + m.group() + "\", but " + truth);
            }
        });
        return found;
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs/guide")))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no README.md with docs/guide above " + Path.of("").toAbsolutePath());
        return dir;
    }

    /** The project's version: the parent POM's own, the first version after its artifactId. */
    static String projectVersion(final Path root) throws IOException {
        final String pom = Files.readString(root.resolve("pom.xml"));
        final Matcher m = Pattern.compile("<artifactId>slipstream-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(pom);
        assertTrue(m.find(), "no slipstream-parent version in pom.xml");
        return m.group(1);
    }

    /** Simple class name to the source files of that name, over every module's main sources. */
    static Map<String, List<Path>> sources(final Path root) throws IOException {
        final Map<String, List<Path>> byName = new HashMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (final Path module : modules.toList()) {
                final Path main = module.resolve("src/main/java/dev/slipstream");
                if (!Files.isDirectory(main)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(f -> byName.computeIfAbsent(
                            f.getFileName().toString().replace(".java", ""), k -> new ArrayList<>()).add(f));
                }
            }
        }
        return byName;
    }

    /** The pages checked, with their text. */
    private static Map<String, String> pages(final Path root) throws IOException {
        final Map<String, String> pages = new HashMap<>();
        final List<Path> paths = new ArrayList<>(List.of(root.resolve("README.md"),
                root.resolve("docs/migrating-from-lmax.md"), root.resolve("docs/architecture.md")));
        try (Stream<Path> guide = Files.list(root.resolve("docs/guide"))) {
            guide.filter(p -> p.toString().endsWith(".md")).forEach(paths::add);
        }
        for (final Path path : paths) {
            pages.put(root.relativize(path).toString(), Files.readString(path, StandardCharsets.UTF_8));
        }
        return pages;
    }

    /** Wrong artifact versions in a page's Maven and Gradle snippets. */
    static List<String> wrongVersions(final String page, final String text, final String version) {
        final List<String> wrong = new ArrayList<>();
        for (final Pattern pattern : List.of(ARTIFACT_VERSION, GRADLE)) {
            final Matcher m = pattern.matcher(text);
            while (m.find()) {
                if (!m.group(1).equals(version)) {
                    wrong.add(page + ": version " + m.group(1) + " in `" + m.group().replaceAll("\\s+", " ")
                            + "`, but the project is " + version);
                }
            }
        }
        return wrong;
    }

    /**
     * API names in backticks, outside code blocks, that name something Slipstream does not have.
     * On the migration guide only table cells after the first column (the LMAX one) count.
     */
    static List<String> missingApiNames(final String page, final String text, final Map<String, List<Path>> sources) {
        final List<String> missing = new ArrayList<>();
        for (final String span : spans(page, text)) {
            final Matcher qualified = QUALIFIED.matcher(span);
            if (qualified.matches()) {
                final List<Path> files = sources.get(qualified.group(2));
                final String packagePath = qualified.group(1).replace('.', '/');
                if (files == null || files.stream().noneMatch(f -> f.toString().replace('\\', '/')
                        .endsWith(packagePath + "/" + qualified.group(2) + ".java"))) {
                    missing.add(page + ": `" + span + "`: no class " + qualified.group(1) + "." + qualified.group(2));
                } else if (qualified.group(3) != null && !declares(qualified.group(2), qualified.group(3), sources)) {
                    missing.add(page + ": `" + span + "`: " + qualified.group(2) + " has no " + qualified.group(3));
                }
                continue;
            }
            final Matcher member = MEMBER.matcher(span);
            if (member.matches() && sources.containsKey(member.group(1))
                    && !declares(member.group(1), member.group(2), sources)) {
                missing.add(page + ": `" + span + "`: " + member.group(1) + " has no " + member.group(2));
            }
        }
        return missing;
    }

    /** Rows of the migration guide that say "no ..." for a name Slipstream has as a type. */
    static List<String> deniedTypes(final String page, final String text, final Map<String, List<Path>> sources) {
        final List<String> denied = new ArrayList<>();
        for (final String line : text.split("\n")) {
            final String[] cells = line.split("\\|");
            if (cells.length < 4 || !cells[2].strip().startsWith("no ")) {
                continue;
            }
            final Matcher m = SPAN.matcher(cells[1]);
            while (m.find()) {
                if (m.group(1).matches("[A-Z]\\w*") && sources.containsKey(m.group(1))) {
                    denied.add(page + ": says '" + cells[2].strip() + "' for `" + m.group(1) + "`, but "
                            + sources.get(m.group(1)).get(0).getFileName() + " exists");
                }
            }
        }
        return denied;
    }

    private static List<String> spans(final String page, final String text) {
        final String prose = text.replaceAll("(?s)```.*?```", "");
        final List<String> spans = new ArrayList<>();
        final boolean migration = page.endsWith("migrating-from-lmax.md");
        for (final String line : prose.split("\n")) {
            String checked = line;
            if (migration) {
                final String[] cells = line.split("\\|");
                if (cells.length < 4) {
                    continue;
                }
                checked = String.join("|", java.util.Arrays.copyOfRange(cells, 2, cells.length));
            }
            final Matcher m = SPAN.matcher(checked);
            while (m.find()) {
                spans.add(m.group(1).strip());
            }
        }
        return spans;
    }

    /** Whether the type's source, or a Slipstream supertype's, names the member. */
    private static boolean declares(final String type, final String member, final Map<String, List<Path>> sources) {
        return declares(type, member, sources, 0);
    }

    private static boolean declares(final String type, final String member, final Map<String, List<Path>> sources,
                                    final int depth) {
        final List<Path> files = sources.get(type);
        if (files == null || depth > 5) {
            return false;
        }
        final Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
        for (final Path file : files) {
            final String source = code(read(file));
            if (word.matcher(source).find()) {
                return true;
            }
            final Matcher supers = SUPERTYPES.matcher(source);
            if (supers.find()) {
                final String all = (supers.group(1) == null ? "" : supers.group(1)) + ","
                        + (supers.group(2) == null ? "" : supers.group(2));
                for (final String name : all.replaceAll("<[^>]*>", "").split("[,\\s]+")) {
                    if (!name.isBlank() && declares(name.strip(), member, sources, depth + 1)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Source without comments and string literals: a name in Javadoc prose is not a member. */
    private static String code(final String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ")
                .replaceAll("\"(?:[^\"\\\\\n]|\\\\.)*\"", "\"\"");
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everySlipstreamVersionInTheDocsIsTheProjects() throws IOException {
        final Path root = root();
        final String version = projectVersion(root);
        final List<String> wrong = new ArrayList<>();
        pages(root).forEach((page, text) -> wrong.addAll(wrongVersions(page, text, version)));
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyApiNameTheDocsMentionExists() throws IOException {
        final Path root = root();
        final Map<String, List<Path>> sources = sources(root);
        final List<String> missing = new ArrayList<>();
        pages(root).forEach((page, text) -> missing.addAll(missingApiNames(page, text, sources)));
        assertEquals(List.of(), missing);
    }

    @Test
    void theMigrationGuideDoesNotDenyATypeSlipstreamHas() throws IOException {
        final Path root = root();
        final String page = "docs/migrating-from-lmax.md";
        assertEquals(List.of(), deniedTypes(page, Files.readString(root.resolve(page)), sources(root)));
    }

    @Test
    void noPageRepeatsAClaimTheCodeContradicts() throws IOException {
        final List<String> found = new ArrayList<>();
        pages(root()).forEach((page, text) -> found.addAll(contradictions(page, text)));
        assertEquals(List.of(), found);
    }

    @Test
    void eachCheckCatchesAPageWrittenToBeWrong() throws IOException {
        final Path root = root();
        final Map<String, List<Path>> sources = sources(root);
        final String version = projectVersion(root);
        final String wrongVersion = "```xml\n<dependency>\n  <groupId>dev.slipstream</groupId>\n"
                + "  <artifactId>slipstream-micrometer</artifactId>\n  <version>0.0.1</version>\n</dependency>\n```\n"
                + "Gradle: `implementation(\"dev.slipstream:slipstream-core:" + version + "\")`\n";
        assertEquals(1, wrongVersions("wrong.md", wrongVersion, version).size());
        final String wrongNames = "Call `Slipstream.shutdown(timeout)` and `Slipstream.STOP_GRACE`, read"
                + " `ShutdownResult.eventsSkipped()` and `ShutdownResult.clean()`, publish to"
                + " `dev.slipstream.ring.EventSink`, not `dev.slipstream.ring.EventSource`; `Slipstream.publishEvent`"
                + " is inherited.";
        assertEquals(List.of("wrong.md: `ShutdownResult.clean()`: ShutdownResult has no clean",
                "wrong.md: `dev.slipstream.ring.EventSource`: no class dev.slipstream.ring.EventSource"),
                missingApiNames("wrong.md", wrongNames, sources));
        final String denying = "| LMAX | Slipstream | notes |\n| --- | --- | --- |\n"
                + "| `EventSink`, `Cursored` | no separate interfaces | |\n";
        assertEquals(1, deniedTypes("docs/migrating-from-lmax.md", denying, sources).size());
        final String contradicting = "journal.halt();   // halt() stops at once: events not yet handled are skipped\n"
                + "After a shutdown `tryPublishEvent` throws `SequencerClosedException`.\n";
        assertEquals(2, contradictions("wrong.md", contradicting).size(), contradictions("wrong.md", contradicting)::toString);
    }
}
