package dev.slipstream.cluster;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A launcher's properties file, read once: its entries (values trimmed), and the errors that
 * name the file, the key, the value and what was expected. A key given twice is refused, as is
 * a key the launcher does not know (with the nearest known key, for a typo).
 *
 * <pre>{@code
 * ConfigFile file = ConfigFile.read(Path.of("member-0.properties"));
 * file.refuseUnknownKeys(KNOWN_KEYS, "app.");
 * Duration timeout = file.duration("session.timeout", Duration.ofSeconds(10));
 * }</pre>
 */
final class ConfigFile {
    private static final Pattern SIZE = Pattern.compile("([0-9]+)([kmg]?)");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m)");
    /** The longest duration taken: longer is a mistake (and past Aeron's nanosecond counts). */
    private static final Duration LONGEST = Duration.ofDays(1);

    private final Path path;
    private final Map<String, String> entries;

    private ConfigFile(final Path path, final Map<String, String> entries) {
        this.path = path;
        this.entries = entries;
    }

    /**
     * @param file a Java properties file (UTF-8)
     * @return its entries
     * @throws IllegalArgumentException if it cannot be read, is malformed, or gives a key twice
     */
    static ConfigFile read(final Path file) {
        final Path path = file.toAbsolutePath().normalize();
        final Map<String, String> entries = new LinkedHashMap<>();
        final List<String> twice = new ArrayList<>();
        // Properties keeps the last of a key given twice: catch it as it is put
        final Properties properties = new Properties() {
            private static final long serialVersionUID = 1L;

            @Override
            public synchronized Object put(final Object key, final Object value) {
                final String previous = entries.put((String) key, ((String) value).strip());
                if (previous != null) {
                    twice.add(key + " is given twice ('" + previous + "', then '" + ((String) value).strip() + "')");
                }
                return super.put(key, value);
            }
        };
        try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (final IOException e) {
            throw new IllegalArgumentException("configuration file " + path + ": cannot be read (" + e
                    + "); expected a readable Java properties file (UTF-8), such as member-0.properties", e);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("configuration file " + path + ": not a properties file ("
                    + e.getMessage() + "); expected key=value lines", e);
        }
        final ConfigFile config = new ConfigFile(path, Collections.unmodifiableMap(entries));
        if (!twice.isEmpty()) {
            throw config.fail(twice.get(0) + "; expected each key once");
        }
        return config;
    }

    /** @return the file's absolute path */
    Path path() {
        return path;
    }

    /** @return every entry, values trimmed, in the file's order */
    Map<String, String> entries() {
        return entries;
    }

    /**
     * Refuses every key that is neither known nor under {@code openPrefix}, naming the nearest
     * known key when one is a small edit away.
     */
    void refuseUnknownKeys(final Set<String> known, final String openPrefix) {
        for (final Map.Entry<String, String> entry : entries.entrySet()) {
            final String key = entry.getKey();
            if (known.contains(key) || (key.startsWith(openPrefix) && key.length() > openPrefix.length())) {
                continue;
            }
            final String nearest = nearest(key, known);
            throw fail("unknown key '" + key + "' (value '" + entry.getValue() + "')"
                    + (nearest == null ? "" : "; did you mean " + nearest + "?") + " expected only the keys "
                    + String.join(", ", known) + ", and the service's own keys under " + openPrefix);
        }
    }

    /**
     * @param key a key
     * @param expected what the key holds, for the message ("this member's index in members, e.g. member.id=0")
     * @return its value, not empty
     * @throws IllegalArgumentException if it is missing or empty
     */
    String required(final String key, final String expected) {
        final String value = entries.get(key);
        if (value == null) {
            throw fail(key + " is missing; expected " + expected);
        }
        if (value.isEmpty()) {
            throw fail(key + " is empty; expected " + expected);
        }
        return value;
    }

    /** @return the key's value, if the file gives it (an empty value is given, and refused by whoever reads it) */
    Optional<String> optional(final String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /** @return whether the file gives the key */
    boolean has(final String key) {
        return entries.containsKey(key);
    }

    /**
     * @param key a duration key
     * @param fallback the value when the key is not given
     * @return the duration: a whole number with a unit, {@code 500ms}, {@code 3s} or {@code 2m}, above
     *         zero and at most a day
     * @throws IllegalArgumentException if the value is not such a duration
     */
    Duration duration(final String key, final Duration fallback) {
        final Optional<String> given = optional(key);
        if (given.isEmpty()) {
            return fallback;
        }
        final String value = given.get();
        final Matcher m = DURATION.matcher(value);
        if (!m.matches()) {
            throw invalid(key, value, "a whole number with a unit, ms, s or m, such as 500ms, 3s or 2m");
        }
        final long amount = Long.parseLong(m.group(1));
        final Duration duration = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
        if (duration.isZero() || duration.compareTo(LONGEST) > 0) {
            throw invalid(key, value, "a duration above zero and at most a day (1440m), such as 500ms, 3s or 2m");
        }
        return duration;
    }

    /**
     * @param key a size key
     * @param fallback the value when the key is not given
     * @return the size in bytes: a whole number, alone (bytes) or with a unit k, m or g (KiB, MiB, GiB)
     * @throws IllegalArgumentException if the value is not such a size, or is above 2^62 bytes
     */
    long size(final String key, final long fallback) {
        final Optional<String> given = optional(key);
        if (given.isEmpty()) {
            return fallback;
        }
        final String value = given.get();
        final Matcher m = SIZE.matcher(value);
        if (!m.matches() || m.group(1).length() > 12) {
            throw invalid(key, value, "a whole number of bytes, alone or with a unit k, m or g (KiB, MiB, GiB),"
                    + " such as 65536, 64k or 256m");
        }
        final long amount = Long.parseLong(m.group(1));
        final int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        return amount << shift;
    }

    /**
     * @param key a path key
     * @param value its value
     * @return the path; a relative one is taken from the configuration file's directory
     * @throws IllegalArgumentException if the value is not a path
     */
    Path path(final String key, final String value) {
        try {
            return path.getParent().resolve(value).normalize();
        } catch (final InvalidPathException e) {
            throw invalid(key, value, "a file system path (" + e.getReason() + ")");
        }
    }

    /**
     * @param key the key whose value is wrong
     * @param value the value
     * @param expected what it should be
     * @return the error: file, key, value and what was expected
     */
    IllegalArgumentException invalid(final String key, final String value, final String expected) {
        return fail(key + " is '" + value + "'; expected " + expected);
    }

    /**
     * @param problem what is wrong, with the key and the value, and what was expected
     * @return the error, naming the file
     */
    IllegalArgumentException fail(final String problem) {
        return new IllegalArgumentException("configuration file " + path + ": " + problem);
    }

    /** The known key within two edits of {@code key}, the closest first; null if none is. */
    private static String nearest(final String key, final Set<String> known) {
        final TreeMap<Integer, String> byDistance = new TreeMap<>();
        for (final String candidate : known) {
            byDistance.putIfAbsent(distance(key, candidate), candidate);
        }
        final Map.Entry<Integer, String> best = byDistance.firstEntry();
        return best != null && best.getKey() <= 2 ? best.getValue() : null;
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    private static int distance(final String a, final String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
