package dev.slipstream.cluster;

import dev.slipstream.processor.EventHandler;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The test pipeline's stateful stage: counts commands, sums their amounts and folds every
 * command (client, correlation id, amount, cluster time) into an order-sensitive checksum, so two
 * replicas agree only if they applied the same commands in the same order at the same times.
 */
class Ledger implements EventHandler<ClusterCommand<Amount>>, StageState {
    long count;
    long sum;
    long checksum = 17;
    /** Sum of a hash of each amount: equal for two ledgers only if they hold the same multiset of amounts. */
    long fingerprint;
    /** Written by the stage thread, read by tests: the count after the last command. */
    volatile long published;

    @Override
    public void onEvent(final ClusterCommand<Amount> command, final long sequence, final boolean endOfBatch) {
        count++;
        sum += command.payload().value;
        fingerprint += hash(command.payload().value);
        checksum = mix(checksum, command.clientId(), command.correlationId(), command.payload().value,
                timeOf(command));
        command.payload().countAfter = count;
        published = count;
    }

    /** The time folded into the checksum: the cluster's. */
    long timeOf(final ClusterCommand<Amount> command) {
        return command.timestamp();
    }

    static long hash(final long value) {
        long x = value * 0x9E3779B97F4A7C15L;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }

    static long mix(final long h, final long a, final long b, final long c, final long d) {
        long x = h;
        x = x * 31 + a;
        x = x * 31 + b;
        x = x * 31 + c;
        x = x * 31 + d;
        return x ^ (x >>> 29);
    }

    @Override
    public int writeSnapshot(final MutableDirectBuffer buffer, final int offset) {
        buffer.putLong(offset, count);
        buffer.putLong(offset + 8, sum);
        buffer.putLong(offset + 16, checksum);
        buffer.putLong(offset + 24, fingerprint);
        return 32;
    }

    @Override
    public void loadSnapshot(final DirectBuffer buffer, final int offset, final int length) {
        count = buffer.getLong(offset);
        sum = buffer.getLong(offset + 8);
        checksum = buffer.getLong(offset + 16);
        fingerprint = buffer.getLong(offset + 24);
        published = count;
    }

    /** @return count, sum and checksum as one comparable string (read once the pipeline is idle) */
    String digest() {
        return count + "/" + sum + "/" + Long.toHexString(checksum) + "/" + Long.toHexString(fingerprint);
    }
}
