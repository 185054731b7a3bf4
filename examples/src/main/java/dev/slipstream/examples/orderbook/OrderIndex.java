package dev.slipstream.examples.orderbook;

import java.util.Arrays;

/**
 * Order id to resting order, open addressing with linear probing: no boxing and no allocation
 * after construction. Removal shifts later entries of the probe run back, so no tombstones
 * build up in a book that adds and removes orders all day.
 */
final class OrderIndex {
    private static final long FREE = Long.MIN_VALUE;

    private final long[] keys;
    private final OrderNode[] values;
    private final int mask;

    /**
     * @param maxEntries the most entries held at once; the table is at least twice as large
     */
    OrderIndex(final int maxEntries) {
        final int slots = Integer.highestOneBit(Math.max(2, maxEntries) * 2 - 1) << 1;
        keys = new long[slots];
        values = new OrderNode[slots];
        mask = slots - 1;
        Arrays.fill(keys, FREE);
    }

    OrderNode get(final long orderId) {
        for (int i = slot(orderId); ; i = (i + 1) & mask) {
            final long key = keys[i];
            if (key == orderId) {
                return values[i];
            }
            if (key == FREE) {
                return null;
            }
        }
    }

    /** Adds an id that is not present (the caller checked with {@link #get}). */
    void put(final long orderId, final OrderNode node) {
        int i = slot(orderId);
        while (keys[i] != FREE) {
            i = (i + 1) & mask;
        }
        keys[i] = orderId;
        values[i] = node;
    }

    void remove(final long orderId) {
        int i = slot(orderId);
        while (keys[i] != orderId) {
            if (keys[i] == FREE) {
                return;
            }
            i = (i + 1) & mask;
        }
        // Backward-shift deletion: move up every later entry of the run whose home slot does not
        // lie strictly between the hole and its current position.
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != FREE; j = (j + 1) & mask) {
            final int home = slot(keys[j]);
            final boolean homeInRange = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!homeInRange) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = FREE;
        values[hole] = null;
    }

    private int slot(final long orderId) {
        // murmur3 finaliser: ids from one client differ only in their low bits
        long h = orderId;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h & mask;
    }
}
