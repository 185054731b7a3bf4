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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 *       hand), or shows a sample thread factory that makes non-daemon stage threads;</li>
 *   <li>every name in backticks that reads as a Java type ({@code LprqQueue}, {@code Thread.onSpinWait()},
 *       {@code JournalCrashTest}) names one that exists: in a module's main or test sources, in the
 *       JDK or a library on this module's class path (its member checked by reflection), or in
 *       {@link #ELSEWHERE};</li>
 *   <li>an index page (README.md, the guide's index, the architecture page) that mentions a queue
 *       names every public queue class of {@code dev.slipstream.queue}: none left out;</li>
 *   <li>the architecture page's access mode for a constructor (its memory-ordering table) is the
 *       one the constructor's code uses: a "release store" needs a {@code setRelease} there, a
 *       "plain store" has no ordered store (rows of other methods are not checked: they reach
 *       their ordering through calls, such as {@code Sequence.set});</li>
 *   <li>every relative link of README.md, CHANGELOG.md and docs/ points at a file that exists, and
 *       an anchor at a heading of that page;</li>
 *   <li>every page {@code docs/...md} that a Java source or a benchmark script names exists (a
 *       comment that says where a figure comes from must still lead there after a page moves).</li>
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
            "stage threads are daemon threads by default",
            Pattern.compile("threadFactory\\(Thread::new\\)"),
            "Thread::new called from main makes non-daemon stage threads, and a stuck stage then keeps the"
                    + " JVM alive after shutdown: make daemon threads (setDaemon(true)) as the default factory does");

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

    /** A name in backticks that reads as a Java type, with an optional member: {@code Type}, {@code Type<E>}, {@code Type.member()}. */
    private static final Pattern TYPE_NAME = Pattern.compile(
            "([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:<[^>]*>)?(?:[.#]([a-zA-Z_]\\w*))?(?:\\(.*\\))?");
    /** Packages where a name that is not Slipstream's is looked up: the JDK's, and the libraries on this module's class path. */
    private static final List<String> FOREIGN_PACKAGES = List.of("java.lang", "java.util", "java.util.concurrent",
            "java.util.concurrent.atomic", "java.util.concurrent.locks", "java.util.function", "java.util.stream",
            "java.io", "java.nio", "java.nio.channels", "java.nio.file", "java.time", "java.lang.invoke",
            "java.lang.management", "java.lang.ref", "java.net", "jdk.jfr", "sun.misc", "io.aeron", "io.aeron.driver",
            "io.aeron.logbuffer", "io.aeron.cluster", "io.aeron.cluster.service", "io.aeron.cluster.client",
            "io.aeron.cluster.codecs", "org.agrona", "org.agrona.concurrent",
            "org.HdrHistogram", "io.micrometer.core.instrument", "io.micrometer.core.instrument.binder");
    /** Types the docs name that are on no class path of this module, with where they come from. */
    static final Map<String, String> ELSEWHERE = Map.of(
            "QueueTestSuiteBuilder", "Guava testlib, a test dependency of core");
    /** The pages that list what the project has: each names every queue if it names one. */
    static final List<String> INDEX_PAGES = List.of("README.md", "docs/guide/README.md", "docs/architecture.md");
    private static final Pattern QUEUE_WORDS = Pattern.compile("\\b(?:SCQ|LSCQ|LPRQ|\\w+Queue)\\b");
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern ACCESS_MODE = Pattern.compile(
            "^(plain|release|acquire|opaque|volatile) (store|load)s?\\b");
    /** What a constructor's code must (or, for a plain store, must not) contain for each ordered store. */
    private static final Map<String, Pattern> STORE_MARKERS = Map.of(
            "release", Pattern.compile("\\.setRelease\\(|\\.lazySet\\(|\\bso[A-Z]\\w*\\("),
            "opaque", Pattern.compile("\\.setOpaque\\(|\\bsr[A-Z]\\w*\\("),
            "volatile", Pattern.compile("\\.setVolatile\\(|\\bsv[A-Z]\\w*\\("));

    /**
     * Simple names of the types declared in every module's main and test sources: nested and
     * package-private ones included (a padding class, a sample's host, a test the docs name).
     */
    static Set<String> declaredTypes(final Path root) throws IOException {
        final Set<String> names = new HashSet<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (final Path dir : modules.flatMap(m -> Stream.of(m.resolve("src/main/java"), m.resolve("src/test/java")))
                    .filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(dir)) {
                    for (final Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        names.add(f.getFileName().toString().replace(".java", ""));
                        final Matcher nested = Pattern.compile("(?:class|interface|enum|record)\\s+([A-Z]\\w*)")
                                .matcher(code(read(f)));
                        while (nested.find()) {
                            names.add(nested.group(1));
                        }
                    }
                }
            }
        }
        return names;
    }

    /** The JDK's or a library's class of that simple name, or null. */
    private static Class<?> foreign(final String simpleName) {
        for (final String pkg : FOREIGN_PACKAGES) {
            try {
                return Class.forName(pkg + "." + simpleName, false, DocsConsistencyTest.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // not in this package
            }
        }
        return null;
    }

    private static boolean hasMember(final Class<?> type, final String member) {
        return Stream.of(type.getMethods()).anyMatch(m -> m.getName().equals(member))
                || Stream.of(type.getFields()).anyMatch(f -> f.getName().equals(member))
                || Stream.of(type.getClasses()).anyMatch(c -> c.getSimpleName().equals(member));
    }

    /**
     * Names in backticks, outside code blocks, that read as a Java type but name none that exists:
     * not declared in the sources (main or test), not in the JDK or on this module's class path, not in
     * {@link #ELSEWHERE}; or a JDK or library type's member that the type does not have. Names all
     * in capitals ({@code SHARED}) are constants, not types, and are not checked here.
     */
    static List<String> unknownTypes(final String page, final String text, final Map<String, List<Path>> sources,
                                     final Set<String> declared) {
        final List<String> unknown = new ArrayList<>();
        for (final String span : spans(page, text)) {
            final Matcher m = TYPE_NAME.matcher(span);
            if (!m.matches() || sources.containsKey(m.group(1)) || ELSEWHERE.containsKey(m.group(1))) {
                continue;
            }
            if (declared.contains(m.group(1))) {
                continue;
            }
            final Class<?> type = foreign(m.group(1));
            if (type == null) {
                unknown.add(page + ": `" + span + "`: no type " + m.group(1) + " in the sources, the JDK or the"
                        + " libraries on the class path (a name from elsewhere goes in ELSEWHERE, with where it comes from)");
            } else if (m.group(2) != null && !hasMember(type, m.group(2))) {
                unknown.add(page + ": `" + span + "`: " + type.getName() + " has no " + m.group(2));
            }
        }
        return unknown;
    }

    /** The public, concrete queue classes of {@code dev.slipstream.queue}: the families an index must list. */
    static List<String> queueClasses(final Path root) throws IOException {
        final List<String> queues = new ArrayList<>();
        try (Stream<Path> files = Files.list(root.resolve("core/src/main/java/dev/slipstream/queue"))) {
            for (final Path f : files.filter(f -> f.toString().endsWith("Queue.java")).sorted().toList()) {
                final String name = f.getFileName().toString().replace(".java", "");
                if (Pattern.compile("public\\s+(?:final\\s+)?class\\s+" + name + "\\b").matcher(code(read(f))).find()) {
                    queues.add(name);
                }
            }
        }
        return queues;
    }

    /** The queue classes an index page leaves out, when it mentions a queue (SCQ, LSCQ, LPRQ or a class) at all. */
    static List<String> missingQueues(final String page, final String text, final List<String> queues) {
        final Matcher mention = QUEUE_WORDS.matcher(text);
        boolean mentions = false;
        while (mention.find()) {
            final String word = mention.group();
            mentions |= !word.endsWith("Queue") || queues.contains(word);
        }
        final List<String> missing = new ArrayList<>();
        if (mentions) {
            for (final String queue : queues) {
                if (!Pattern.compile("\\b" + queue + "\\b").matcher(text).find()) {
                    missing.add(page + ": mentions the queues but not " + queue);
                }
            }
        }
        return missing;
    }

    /** The bodies of a source's constructors or methods of that name, comments and strings aside. */
    private static List<String> bodies(final String source, final String name) {
        final List<String> bodies = new ArrayList<>();
        final String code = code(source);
        final Matcher m = Pattern.compile("\\b" + Pattern.quote(name) + "\\s*\\([^;{)]*\\)\\s*(?:throws[^{;]*)?\\{")
                .matcher(code);
        while (m.find()) {
            int depth = 1;
            int i = m.end();
            while (depth > 0 && i < code.length()) {
                final char c = code.charAt(i++);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            }
            bodies.add(code.substring(m.end(), i));
        }
        return bodies;
    }

    /**
     * Rows of a memory-ordering table (columns file, method, access) whose method is a constructor
     * and whose access mode, a store, is not the one the constructor's code uses. A row with an
     * empty file cell continues the file above; {@code readSource} gives a file's source by the
     * path in its cell, or null.
     */
    static List<String> wrongConstructorModes(final String page, final String text,
                                              final java.util.function.Function<String, String> readSource) {
        final List<String> wrong = new ArrayList<>();
        String file = null;
        for (final String line : text.split("\n")) {
            final String[] cells = line.split("\\|", -1);
            if (cells.length < 5 || !line.startsWith("|")) {
                continue;
            }
            final Matcher fileCell = Pattern.compile("`([\\w/]+/([A-Z]\\w*)\\.java)`").matcher(cells[1]);
            if (fileCell.find()) {
                file = fileCell.group(1);
            } else if (!cells[1].isBlank()) {
                file = null;
            }
            final String method = cells[2].strip();
            final Matcher mode = ACCESS_MODE.matcher(cells[3].strip().toLowerCase(java.util.Locale.ROOT));
            if (file == null || !method.startsWith("constructor") || !mode.find() || !mode.group(2).equals("store")) {
                continue;
            }
            final String source = readSource.apply(file);
            if (source == null) {
                wrong.add(page + ": no source " + file + " for the row `" + line.strip() + "`");
                continue;
            }
            final String type = file.substring(file.lastIndexOf('/') + 1).replace(".java", "");
            final String constructors = String.join("\n", bodies(source, type));
            final String claimed = mode.group(1);
            final boolean holds = claimed.equals("plain")
                    ? STORE_MARKERS.values().stream().noneMatch(p -> p.matcher(constructors).find())
                    : STORE_MARKERS.containsKey(claimed) && STORE_MARKERS.get(claimed).matcher(constructors).find();
            if (!holds) {
                wrong.add(page + ": says the " + type + " constructor does a " + claimed + " store, but its code"
                        + (claimed.equals("plain") ? " has an ordered store" : " has no " + claimed + " store"));
            }
        }
        return wrong;
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String anchor(final String heading) {
        return heading.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    /** Relative links of a page (code blocks aside) whose file does not exist, or whose anchor no heading has. */
    static List<String> brokenLinks(final Path root, final Path page) throws IOException {
        final List<String> broken = new ArrayList<>();
        final String text = Files.readString(page, StandardCharsets.UTF_8).replaceAll("(?s)```.*?```", "");
        final Matcher m = LINK.matcher(text);
        while (m.find()) {
            final String target = m.group(1);
            if (target.matches("^[a-z]+:.*") || target.startsWith("/")) {
                continue;
            }
            final int hash = target.indexOf('#');
            final String file = hash < 0 ? target : target.substring(0, hash);
            final Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
            if (!Files.exists(resolved)) {
                broken.add(root.relativize(page) + ": (" + target + "): no such file");
            } else if (hash >= 0 && resolved.toString().endsWith(".md")) {
                final String wanted = target.substring(hash + 1);
                final Matcher h = HEADING.matcher(Files.readString(resolved, StandardCharsets.UTF_8)
                        .replaceAll("(?s)```.*?```", ""));
                boolean found = false;
                while (h.find() && !found) {
                    found = anchor(h.group(1)).equals(wanted);
                }
                if (!found) {
                    broken.add(root.relativize(page) + ": (" + target + "): no heading with that anchor");
                }
            }
        }
        return broken;
    }

    /** A page of docs/ named in code or a script, as {@code docs/benchmarks/continuous.md}. */
    private static final Pattern DOCS_PATH = Pattern.compile("(?<![\\w/.-])docs/[\\w./-]*\\w\\.md");

    /** Each {@code docs/...md} path that {@code text} names and that is not a file under {@code root}. */
    static List<String> missingDocsPaths(final Path root, final String file, final String text) {
        final List<String> missing = new ArrayList<>();
        final Matcher m = DOCS_PATH.matcher(text);
        while (m.find()) {
            if (!Files.isRegularFile(root.resolve(m.group()))) {
                missing.add(file + ": " + m.group() + ": no such page (moved? name where it is now)");
            }
        }
        return missing;
    }

    /** Every Java source of every module (main and test) and every benchmark script. */
    private static List<Path> codeNamingPages(final Path root) throws IOException {
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (final Path module : modules.sorted().toList()) {
                final Path src = module.resolve("src");
                if (Files.isDirectory(src)) {
                    try (Stream<Path> walk = Files.walk(src)) {
                        walk.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
                    }
                }
            }
        }
        try (Stream<Path> scripts = Files.list(root.resolve("benchmarks/scripts"))) {
            scripts.sorted().forEach(files::add);
        }
        return files;
    }

    /** README.md, CHANGELOG.md and every Markdown page under docs/. */
    private static List<Path> linkedPages(final Path root) throws IOException {
        final List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyTypeNameTheDocsMentionExists() throws IOException {
        final Path root = root();
        final Map<String, List<Path>> sources = sources(root);
        final Set<String> tests = declaredTypes(root);
        final List<String> unknown = new ArrayList<>();
        pages(root).forEach((page, text) -> unknown.addAll(unknownTypes(page, text, sources, tests)));
        assertEquals(List.of(), unknown);
    }

    @Test
    void anIndexThatMentionsTheQueuesNamesEveryOne() throws IOException {
        final Path root = root();
        final List<String> queues = queueClasses(root);
        assertTrue(queues.containsAll(List.of("LprqQueue", "ScqQueue", "LscqQueue", "LprqBlockingQueue",
                "ScqBlockingQueue", "LscqBlockingQueue")), queues::toString);
        final List<String> missing = new ArrayList<>();
        for (final String page : INDEX_PAGES) {
            missing.addAll(missingQueues(page, Files.readString(root.resolve(page), StandardCharsets.UTF_8), queues));
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void theArchitecturePageGivesEachConstructorTheAccessModeItsCodeUses() throws IOException {
        final Path root = root();
        final String page = "docs/architecture.md";
        final String text = Files.readString(root.resolve(page), StandardCharsets.UTF_8);
        assertTrue(text.contains("| `sequence/Sequence.java` | constructor |"),
                "the check reads the memory-ordering table's constructor rows; the Sequence row is gone");
        assertEquals(List.of(), wrongConstructorModes(page, text, file -> {
            final Path source = root.resolve("core/src/main/java/dev/slipstream").resolve(file);
            return Files.isRegularFile(source) ? read(source) : null;
        }));
    }

    @Test
    void everyRelativeLinkOfTheDocsResolves() throws IOException {
        final Path root = root();
        final List<String> broken = new ArrayList<>();
        for (final Path page : linkedPages(root)) {
            broken.addAll(brokenLinks(root, page));
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void everyPageTheCodeNamesExists() throws IOException {
        final Path root = root();
        final List<Path> files = codeNamingPages(root);
        assertTrue(files.stream().anyMatch(f -> f.endsWith("BatchEventProcessor.java")), "no sources found under " + root);
        final List<String> missing = new ArrayList<>();
        for (final Path file : files) {
            missing.addAll(missingDocsPaths(root, root.relativize(file).toString(), read(file)));
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void theNewChecksCatchPagesWrittenToBeWrong(@org.junit.jupiter.api.io.TempDir final Path dir) throws IOException {
        final Path root = root();
        final Map<String, List<Path>> sources = sources(root);
        final Set<String> tests = declaredTypes(root);
        final String names = "Use `LprqQueue`, `ScqQueue.offer`, `Thread.onSpinWait()`, `ArrayBlockingQueue`,"
                + " `JournalCrashTest`, `SHARED`, `QueueTestSuiteBuilder`; not `JournalReplayer`, `Thread.onSpinWaits()`.";
        assertEquals(List.of(
                "wrong.md: `JournalReplayer`: no type JournalReplayer in the sources, the JDK or the libraries on the"
                        + " class path (a name from elsewhere goes in ELSEWHERE, with where it comes from)",
                "wrong.md: `Thread.onSpinWaits()`: java.lang.Thread has no onSpinWaits"),
                unknownTypes("wrong.md", names, sources, tests));
        final List<String> queues = queueClasses(root);
        final String index = "- SCQ/LSCQ, a lock-free queue (`ScqQueue`, `LscqQueue`, `ScqBlockingQueue`, `LscqBlockingQueue`)";
        final List<String> left = missingQueues("index.md", index, queues);
        assertTrue(left.contains("index.md: mentions the queues but not LprqQueue")
                && left.contains("index.md: mentions the queues but not LprqBlockingQueue"), left::toString);
        assertEquals(List.of(), missingQueues("index.md", "A `ConcurrentLinkedQueue` is not ours.", queues));
        final String table = "| file | method | access | what it orders |\n| --- | --- | --- | --- |\n"
                + "| `sequence/Sequence.java` | constructor | release store | a sequence obtained through a race |\n"
                + "| | `get` / `set` | acquire load / release store | the basic pair |\n";
        final String sequence = read(root.resolve("core/src/main/java/dev/slipstream/sequence/Sequence.java"));
        assertEquals(List.of("wrong.md: says the Sequence constructor does a release store, but its code has no release store"),
                wrongConstructorModes("wrong.md", table, file -> sequence));
        assertEquals(List.of(), wrongConstructorModes("right.md", table.replace("release store | a sequence",
                "plain store | a sequence"), file -> sequence));
        final Path page = dir.resolve("page.md");
        Files.writeString(page, "# Title\n\n## A section\n\n[ok](page.md#a-section), [gone](gone.md),"
                + " [bad anchor](#no-such-section)\n\n```\n[in code](nowhere.md)\n```\n");
        assertEquals(List.of("page.md: (gone.md): no such file", "page.md: (#no-such-section): no heading with that anchor"),
                brokenLinks(dir, page));
        assertEquals(1, contradictions("wrong.md", "        .threadFactory(Thread::new)   // plain threads\n").size());
        // split, so that this file does not name a missing page itself
        final String gone = "docs/benchmarks/" + "speed-study.md";
        assertEquals(List.of("Wrong.java: " + gone + ": no such page (moved? name where it is now)"),
                missingDocsPaths(root, "Wrong.java", "// slower per event (" + gone + ", eighteenth"
                        + " series); see docs/benchmarks/continuous.md and ../docs/guide/x.md"));
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
