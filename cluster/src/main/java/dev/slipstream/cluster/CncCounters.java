package dev.slipstream.cluster;

import io.aeron.CncFileDescriptor;
import io.aeron.Counter;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.NodeControl;
import io.aeron.cluster.service.Cluster;
import java.io.File;
import java.nio.MappedByteBuffer;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

/**
 * A member's consensus module counters read through a mapping of the media driver's CnC file that
 * this object owns, so that no read can touch memory that went away.
 *
 * <p>The consensus module's own {@link Counter}s point into its Aeron client's mapping, which the
 * client unmaps when it closes: when the member stops after a failure, and when it is closed. A
 * read through them after that crashes the JVM. This mapping stays valid whatever the member's
 * parts do (even after the driver deletes the file), and only {@link #close()} unmaps it, under
 * the write side of a lock whose read side every read and write holds.
 *
 * <p>Each read checks that its counter is still allocated with the registration id it had at
 * start; a counter freed means that the consensus module has closed, and the read throws
 * {@link IllegalStateException} saying the member is stopped. {@link #readings()}, for a status,
 * reads every counter under one hold of the lock and answers -1 for a freed one instead.
 *
 * <pre>{@code
 * CncCounters counters = CncCounters.map(0, new File(aeronDir, CncFileDescriptor.CNC_FILE),
 *         driver.consensusModule().context(), failure::get);
 * long snapshots = counters.snapshotCount();
 * MemberCounters.Readings now = counters.readings();   // -1 for a counter already freed
 * counters.close();
 * }</pre>
 */
final class CncCounters implements MemberCounters {
    private static final int ROLE = 0;
    private static final int SNAPSHOTS = 1;
    private static final int TOGGLE = 2;
    private static final int COMMIT_POSITION = 3;
    private static final int ELECTIONS = 4;
    private static final int NODE_TOGGLE = 5;
    private static final String[] NAMES = {"node role", "snapshot", "control toggle", "commit position",
        "election count", "node control toggle"};

    private final int memberId;
    private final Supplier<Throwable> failure;
    private final MappedByteBuffer mapping;
    private final CountersReader reader;
    private final AtomicCounter toggle;
    private final AtomicCounter nodeToggle;
    private final int[] ids;
    private final long[] registrationIds;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by {@link #lock}: set, and the mapping unmapped, under its write side. */
    private boolean closed;

    private CncCounters(final int memberId, final Supplier<Throwable> failure, final MappedByteBuffer mapping,
            final CountersReader reader, final int[] ids, final long[] registrationIds) {
        this.memberId = memberId;
        this.failure = failure;
        this.mapping = mapping;
        this.reader = reader;
        this.ids = ids;
        this.registrationIds = registrationIds;
        this.toggle = new AtomicCounter(reader.valuesBuffer(), ids[TOGGLE]);
        this.nodeToggle = new AtomicCounter(reader.valuesBuffer(), ids[NODE_TOGGLE]);
    }

    /**
     * Maps the CnC file and finds the consensus module's counters in it.
     *
     * @param memberId the member, for messages
     * @param cncFile the member's media driver's {@code cnc.dat}
     * @param context the consensus module's context, concluded (its counters allocated)
     * @param failure the error that stopped the member, or null while none has
     * @return the counters
     * @throws IllegalStateException if the file is not a CnC file of this Aeron version or does not
     *         hold the consensus module's counters
     */
    static CncCounters map(final int memberId, final File cncFile, final ConsensusModule.Context context,
            final Supplier<Throwable> failure) {
        final MappedByteBuffer mapping = IoUtil.mapExistingFile(cncFile, "CnC file of cluster member " + memberId);
        try {
            final UnsafeBuffer metaData = CncFileDescriptor.createMetaDataBuffer(mapping);
            CncFileDescriptor.checkVersion(metaData.getIntVolatile(CncFileDescriptor.cncVersionOffset(0)));
            final CountersReader reader = new CountersReader(
                    CncFileDescriptor.createCountersMetaDataBuffer(mapping, metaData),
                    CncFileDescriptor.createCountersValuesBuffer(mapping, metaData));
            final Counter[] counters = {
                context.clusterNodeRoleCounter(), context.snapshotCounter(), context.controlToggleCounter(),
                context.commitPositionCounter(), context.electionCounter(), context.nodeControlToggleCounter(),
            };
            final int[] ids = new int[counters.length];
            final long[] registrationIds = new long[counters.length];
            for (int i = 0; i < counters.length; i++) {
                ids[i] = counters[i].id();
                registrationIds[i] = counters[i].registrationId();
                if (reader.getCounterState(ids[i]) != CountersReader.RECORD_ALLOCATED
                        || reader.getCounterRegistrationId(ids[i]) != registrationIds[i]) {
                    throw new IllegalStateException("cluster member " + memberId + ": the consensus module's "
                            + NAMES[i] + " counter (id " + ids[i] + ", registration id " + registrationIds[i]
                            + ") is not allocated in " + cncFile + "; expected the member's own media driver to hold"
                            + " it (is another driver using the directory?)");
                }
            }
            return new CncCounters(memberId, failure, mapping, reader, ids, registrationIds);
        } catch (final RuntimeException e) {
            IoUtil.unmap(mapping);
            throw e;
        }
    }

    @Override
    public Cluster.Role role(final String call) {
        return Cluster.Role.get(read(ROLE, call));
    }

    @Override
    public long snapshotCount() {
        return read(SNAPSHOTS, "snapshotCount()");
    }

    @Override
    public Readings readings() {
        final Lock read = lock.readLock();
        read.lock();
        try {
            if (closed) {
                throw new IllegalStateException("cluster member " + memberId + " is closed");
            }
            final long role = readOrMissing(ROLE);
            return new Readings(role < 0 ? null : Cluster.Role.get(role), readOrMissing(SNAPSHOTS),
                    readOrMissing(COMMIT_POSITION), readOrMissing(ELECTIONS), allAllocated());
        } finally {
            read.unlock();
        }
    }

    @Override
    public boolean toggleSnapshot() {
        final Lock read = lock.readLock();
        read.lock();
        try {
            requireRunning("requestSnapshot()");
            requireAllocated(TOGGLE, "requestSnapshot()");
            // the driver reuses a freed counter's slot only after its reuse timeout (1 s by
            // default), so a toggle set just after the check still lands in the member's counter
            return ClusterControl.ToggleState.SNAPSHOT.toggle(toggle);
        } finally {
            read.unlock();
        }
    }

    @Override
    public boolean toggleRecordingLogValidation() {
        final Lock read = lock.readLock();
        read.lock();
        try {
            requireRunning("purge");
            requireAllocated(NODE_TOGGLE, "purge");
            // as for the snapshot toggle: a freed slot is not reused within the driver's reuse timeout
            return NodeControl.ToggleState.VALIDATE_RECORDING_LOG.toggle(nodeToggle);
        } finally {
            read.unlock();
        }
    }

    @Override
    public boolean isRunning() {
        final Lock read = lock.readLock();
        read.lock();
        try {
            return !closed && failure.get() == null && allAllocated();
        } finally {
            read.unlock();
        }
    }

    @Override
    public void close() {
        final Lock write = lock.writeLock();
        write.lock();
        try {
            if (!closed) {
                closed = true;
                IoUtil.unmap(mapping);
            }
        } finally {
            write.unlock();
        }
    }

    private long read(final int counter, final String call) {
        final Lock read = lock.readLock();
        read.lock();
        try {
            requireRunning(call);
            final long value = reader.getCounterValue(ids[counter]);
            // checked after the read: a value read from a slot already freed is not the member's,
            // while a counter still ours afterwards was ours during the read (registration ids are
            // never reused)
            requireAllocated(counter, call);
            return value;
        } finally {
            read.unlock();
        }
    }

    /** Under the read lock, not closed: the counter's value, or -1 if it is no longer the consensus module's. */
    private long readOrMissing(final int counter) {
        final long value = reader.getCounterValue(ids[counter]);
        // checked after the read, as in read()
        return isAllocated(counter) ? value : -1;
    }

    private boolean allAllocated() {
        for (int i = 0; i < ids.length; i++) {
            if (!isAllocated(i)) {
                return false;
            }
        }
        return true;
    }

    private void requireRunning(final String call) {
        if (closed) {
            throw new IllegalStateException("cluster member " + memberId + " is closed");
        }
        final Throwable cause = failure.get();
        if (cause != null) {
            throw new IllegalStateException(stopped(call, cause.toString()), cause);
        }
    }

    private void requireAllocated(final int counter, final String call) {
        if (!isAllocated(counter)) {
            throw new IllegalStateException(stopped(call, "its consensus module has closed (its " + NAMES[counter]
                    + " counter, id " + ids[counter] + ", is no longer allocated)"));
        }
    }

    private boolean isAllocated(final int counter) {
        return reader.getCounterState(ids[counter]) == CountersReader.RECORD_ALLOCATED
                && reader.getCounterRegistrationId(ids[counter]) == registrationIds[counter];
    }

    private String stopped(final String call, final String cause) {
        return "cluster member " + memberId + " is stopped: " + cause + "; " + call
                + " needs a running member (see failure(); close this one and start the member again)";
    }
}
