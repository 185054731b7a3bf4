package dev.slipstream.bench.snapshot;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The snapshot-stall programs' {@code --name value} options, each name checked against those the
 * program knows.
 *
 * <pre>{@code
 * StallOptions o = StallOptions.parse(args, "rate", "seconds");
 * int rate = o.integer("rate", 1000);
 * }</pre>
 */
final class StallOptions {
    private final Map<String, String> values;

    private StallOptions(final Map<String, String> values) {
        this.values = values;
    }

    static StallOptions parse(final String[] args, final String... names) {
        final Set<String> known = Set.of(names);
        final Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            final String name = args[i].startsWith("--") ? args[i].substring(2) : null;
            if (name == null || !known.contains(name) || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs with a name of " + known + ", got '"
                        + args[i] + "'" + (i + 1 >= args.length ? " without a value" : ""));
            }
            values.put(name, args[i + 1]);
        }
        return new StallOptions(values);
    }

    long integer(final String name, final long fallback) {
        final String value = values.get(name);
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, was '" + value + "'", e);
        }
    }

    int integer(final String name, final int fallback) {
        return Math.toIntExact(integer(name, (long) fallback));
    }

    boolean has(final String name) {
        return values.containsKey(name);
    }

    String text(final String name, final String fallback) {
        return values.getOrDefault(name, fallback);
    }
}
