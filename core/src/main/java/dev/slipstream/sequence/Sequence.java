package dev.slipstream.sequence;

import dev.slipstream.internal.FieldHandles;
import java.lang.invoke.VarHandle;

/** Padding before the value: 56 bytes, so no field of another object shares its cache line. */
abstract class SequenceLhsPadding {
    protected long p01, p02, p03, p04, p05, p06, p07;
}

/** The value itself; the JVM lays out superclass fields first, so it sits between the two pads. */
abstract class SequenceValue extends SequenceLhsPadding {
    protected volatile long value;
}

/** Padding after the value: 56 bytes. */
abstract class SequenceRhsPadding extends SequenceValue {
    protected long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A 64-bit counter padded onto its own cache line, read and written with explicit
 * memory-ordering modes.
 *
 * <p>Sequences are how Slipstream threads talk: a producer's cursor says which slots are
 * published, a consumer's sequence says which slots it has finished with. The padding (a class
 * hierarchy of 56 bytes on each side, checked by a field-layout test) keeps a hot sequence from
 * sharing a cache line with anything another core writes.
 *
 * <pre>{@code
 * Sequence consumed = new Sequence();          // starts at -1: nothing consumed yet
 * consumed.set(41);                            // release: everything written before is visible
 * long upTo = consumed.get();                  // acquire: pairs with the release above
 * long claimed = consumed.incrementAndGet();   // atomic, volatile semantics
 * }</pre>
 *
 * <p>Accessor names follow the access mode: {@link #get()} is an acquire load,
 * {@link #set(long)} a release store, {@link #setVolatile(long)} a volatile store (adds the
 * StoreLoad fence), {@link #getPlain()} a plain load for the owning thread only.
 */
public class Sequence extends SequenceRhsPadding {
    /** The value every sequence starts at: nothing claimed, published or consumed. */
    public static final long INITIAL_VALUE = -1L;

    private static final VarHandle VALUE = FieldHandles.of(SequenceValue.class, "value", long.class);

    /** Creates a sequence at {@link #INITIAL_VALUE}. */
    public Sequence() {
        this(INITIAL_VALUE);
    }

    /**
     * Creates a sequence at the given value.
     *
     * @param initialValue the starting value
     */
    public Sequence(final long initialValue) {
        // plain store: other threads see it through whatever publishes this object to them
        // (a final field, a volatile write, Thread.start), as for any constructor
        VALUE.set(this, initialValue);
    }

    /**
     * Acquire load: sees every write made before the {@link #set(long)} that stored this value.
     *
     * @return the current value
     */
    public long get() {
        return (long) VALUE.getAcquire(this);
    }

    /**
     * Volatile load: as {@link #get()}, and totally ordered with other volatile accesses.
     *
     * @return the current value
     */
    public long getVolatile() {
        return (long) VALUE.getVolatile(this);
    }

    /**
     * Plain load: for the single thread that writes this sequence, reading its own value.
     *
     * @return the current value as this thread last saw it
     */
    public long getPlain() {
        return (long) VALUE.get(this);
    }

    /**
     * Release store: makes every earlier write of this thread visible to a thread that reads
     * this value with {@link #get()}.
     *
     * @param value the new value
     */
    public void set(final long value) {
        VALUE.setRelease(this, value);
    }

    /**
     * Volatile store: a release store followed by a StoreLoad fence, for a writer that must
     * read other threads' sequences only after this store is visible.
     *
     * @param value the new value
     */
    public void setVolatile(final long value) {
        VALUE.setVolatile(this, value);
    }

    /**
     * Atomically sets the value if it equals {@code expected} (volatile semantics).
     *
     * @param expected the value the caller believes is current
     * @param newValue the value to store
     * @return true if the value was {@code expected} and is now {@code newValue}
     */
    public boolean compareAndSet(final long expected, final long newValue) {
        return VALUE.compareAndSet(this, expected, newValue);
    }

    /**
     * Atomically adds {@code increment} (volatile semantics).
     *
     * @param increment the amount to add
     * @return the value before the addition
     */
    public long getAndAdd(final long increment) {
        return (long) VALUE.getAndAdd(this, increment);
    }

    /**
     * Atomically adds {@code increment} (volatile semantics).
     *
     * @param increment the amount to add
     * @return the value after the addition
     */
    public long addAndGet(final long increment) {
        return getAndAdd(increment) + increment;
    }

    /**
     * Atomically adds one (volatile semantics).
     *
     * @return the value after the increment
     */
    public long incrementAndGet() {
        return addAndGet(1L);
    }

    @Override
    public String toString() {
        return Long.toString(get());
    }
}
