package dev.slipstream.bench.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code --name value} options of the benchmarks' own main classes, read one way by all of
 * them: pairs only, known names only, and ({@link #parse}) underscores dropped from every value,
 * so that a count can be written {@code 4_000_000}; {@link #pairs} keeps the values as given, for
 * paths and file names.
 *
 * <pre>{@code
 * Map<String, String> o = CommandLine.parse(args, Set.of("rate", "seconds"));
 * long rate = Long.parseLong(o.getOrDefault("rate", "100000"));
 * }</pre>
 */
public final class CommandLine {
    private CommandLine() {
    }

    /**
     * Reads the options.
     *
     * @param args the arguments: {@code --name value} pairs
     * @param names the names accepted, without the dashes
     * @return each value given, by its name without the dashes
     * @throws IllegalArgumentException for an odd number of arguments or an unknown name, listing
     *     the names accepted
     */
    public static Map<String, String> parse(final String[] args, final Set<String> names) {
        final Map<String, String> o = pairs(args, names);
        o.replaceAll((name, value) -> value.replace("_", ""));
        return o;
    }

    /** Reads the options as {@link #parse} does, but keeps each value as given. */
    public static Map<String, String> pairs(final String[] args, final Set<String> names) {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("expected --name value pairs, got an odd number of arguments");
        }
        final Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            final String name = args[i].replaceFirst("^--", "");
            if (!args[i].startsWith("--") || !names.contains(name)) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; expected one of --"
                        + String.join(", --", new TreeSet<>(names)));
            }
            o.put(name, args[i + 1]);
        }
        return o;
    }
}
