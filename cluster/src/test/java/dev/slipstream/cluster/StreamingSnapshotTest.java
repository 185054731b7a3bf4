package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link StreamingStageState} written through {@link SnapshotOutput} and read back through
 * {@link SnapshotInput}, with the snapshot's messages kept in memory: every size around the chunk
 * boundaries, numbers cut by a boundary, a state that writes or reads other than it announced or
 * fails half-way, a section too long for the format, and a snapshot cut short.
 */
class StreamingSnapshotTest {
    private static final int CHUNK = 64;

    /** The snapshot's messages, in memory; counts the messages sent in two parts. */
    static final class Messages implements SnapshotFormat.MessageSink {
        final List<byte[]> sent = new ArrayList<>();
        int twoPart;

        @Override
        public void accept(final DirectBuffer buffer, final int offset, final int length) {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            sent.add(bytes);
        }

        @Override
        public void accept(final DirectBuffer head, final int headOffset, final int headLength,
                final DirectBuffer body, final int bodyOffset, final int bodyLength) {
            twoPart++;
            SnapshotFormat.MessageSink.super.accept(head, headOffset, headLength, body, bodyOffset, bodyLength);
        }

        SnapshotFormat.MessageSource source(final int count) {
            final UnsafeBuffer message = new UnsafeBuffer(new byte[0]);
            return new SnapshotFormat.MessageSource() {
                private int next;

                @Override
                public int next() {
                    if (next == count) {
                        return -1;
                    }
                    message.wrap(sent.get(next++));
                    return message.capacity();
                }

                @Override
                public DirectBuffer buffer() {
                    return message;
                }
            };
        }

        SnapshotFormat.MessageSource source() {
            return source(sent.size());
        }
    }

    /**
     * A state of {@code length} bytes, a function of its seed: a byte, then longs and ints (some
     * cut by a chunk boundary), then the rest as one block.
     */
    static class Blob implements StreamingStageState {
        final byte[] bytes;
        long head;
        int second;
        byte first;

        Blob(final int length, final long seed) {
            bytes = new byte[Math.max(0, length - 13)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (seed * 31 + i * 7);
            }
            first = (byte) seed;
            head = seed * 0x9E3779B97F4A7C15L;
            second = (int) (seed ^ 0x5A5A5A5A);
        }

        @Override
        public long snapshotLength() {
            return bytes.length == 0 && head == 0 ? 0 : 13 + bytes.length;
        }

        @Override
        public void writeSnapshot(final SnapshotOutput output) {
            if (snapshotLength() == 0) {
                return;
            }
            output.putByte(first);
            output.putLong(head);
            output.putInt(second);
            output.putBytes(new UnsafeBuffer(bytes), 0, bytes.length);
        }

        @Override
        public void loadSnapshot(final SnapshotInput input) {
            if (input.length() == 0) {
                head = 0;
                return;
            }
            first = input.getByte();
            head = input.getLong();
            second = input.getInt();
            input.getBytes(bytes, 0, (int) input.remaining());
        }
    }

    private static Messages write(final StageStates states) {
        final Messages messages = new Messages();
        new ServiceSnapshots(new DedupTable(), states, null, CHUNK).write(new SnapshotFormat.Writer(messages, 1024,
                CHUNK));
        return messages;
    }

    private static StageStates states(final String name, final StreamingStageState state) {
        final StageStates states = new StageStates();
        states.registerStreaming(name, state);
        return states;
    }

    @ParameterizedTest
    @ValueSource(ints = {13, 14, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 7, 1 << 20})
    void aStreamedStateOfAnySizeComesBackWhole(final int length) {
        final Blob written = new Blob(length, 11);
        final Messages messages = write(states("blob", written));
        final Blob loaded = new Blob(length, 99);
        new ServiceSnapshots(new DedupTable(), states("blob", loaded), null, CHUNK).load(messages.source());
        assertEquals(written.first, loaded.first);
        assertEquals(written.head, loaded.head);
        assertEquals(written.second, loaded.second);
        assertArrayEquals(written.bytes, loaded.bytes);
        // BEGIN, dedup header and chunk, blob header, its chunks, END
        final int chunks = (length + CHUNK - 1) / CHUNK;
        assertEquals(5 + chunks, messages.sent.size());
    }

    @Test
    void numbersCutByAChunkBoundaryComeBackWhole() {
        final long[] loaded = new long[3];
        final StreamingStageState straddling = new StreamingStageState() {
            @Override
            public long snapshotLength() {
                return 60 + Long.BYTES + 59 + Integer.BYTES + 63 + 1;
            }

            @Override
            public void writeSnapshot(final SnapshotOutput output) {
                output.putBytes(new byte[60], 0, 60);
                output.putLong(0x0102_0304_0506_0708L);        // bytes 60..67: across the first boundary
                output.putBytes(new byte[59], 0, 59);
                output.putInt(0x0A0B_0C0D);                     // bytes 127..130: across the second
                output.putBytes(new byte[63], 0, 63);
                output.putByte((byte) 0x7F);                    // the last byte of the third chunk
            }

            @Override
            public void loadSnapshot(final SnapshotInput input) {
                input.getBytes(new byte[60], 0, 60);
                loaded[0] = input.getLong();
                input.getBytes(new UnsafeBuffer(new byte[59]), 0, 59);
                loaded[1] = input.getInt();
                input.getBytes(new byte[63], 0, 63);
                loaded[2] = input.getByte();
            }
        };
        final Messages messages = write(states("numbers", straddling));
        new ServiceSnapshots(new DedupTable(), states("numbers", straddling), null, CHUNK).load(messages.source());
        assertArrayEquals(new long[] {0x0102_0304_0506_0708L, 0x0A0B_0C0D, 0x7F}, loaded);
    }

    @Test
    void anEmptyStreamedStateIsASectionWithoutChunks() {
        final Blob written = new Blob(0, 0);
        written.head = 0;
        final Messages messages = write(states("empty", written));
        assertEquals(5, messages.sent.size(), "BEGIN, dedup header and chunk, the empty section's header, END");
        final Blob loaded = new Blob(0, 5);
        new ServiceSnapshots(new DedupTable(), states("empty", loaded), null, CHUNK).load(messages.source());
        assertEquals(0, loaded.head);
    }

    @Test
    void wholeChunksOfABufferAreSentFromTheStagesOwnBytes() {
        final Blob written = new Blob(13 + 10 * CHUNK, 3);
        final Messages messages = write(states("blob", written));
        // 13 bytes fill the first chunk partly: the block tops it up, then 9 whole chunks go
        // without a copy, and the 13 bytes left over wait for the end of the section
        assertEquals(9, messages.twoPart);
        final Blob loaded = new Blob(13 + 10 * CHUNK, 0);
        new ServiceSnapshots(new DedupTable(), states("blob", loaded), null, CHUNK).load(messages.source());
        assertArrayEquals(written.bytes, loaded.bytes);
        final StreamingStageState aligned = new StreamingStageState() {
            @Override
            public long snapshotLength() {
                return 10L * CHUNK + 5;
            }

            @Override
            public void writeSnapshot(final SnapshotOutput output) {
                output.putBytes(new UnsafeBuffer(new byte[10 * CHUNK + 5]), 0, 10 * CHUNK + 5);
            }

            @Override
            public void loadSnapshot(final SnapshotInput input) {
            }
        };
        assertEquals(10, write(states("aligned", aligned)).twoPart, "ten whole chunks without a copy");
    }

    @Test
    void aStageThatWritesMoreThanItAnnouncedIsRefusedNamingIt() {
        final Blob blob = new Blob(100, 1) {
            @Override
            public long snapshotLength() {
                return 99;
            }
        };
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> write(states("blob", blob)));
        assertTrue(e.getMessage().contains("'blob'") && e.getMessage().contains("wrote past the 99 bytes"),
                e.getMessage());
    }

    @Test
    void aStageThatWritesLessThanItAnnouncedIsRefusedNamingIt() {
        final Blob blob = new Blob(100, 1) {
            @Override
            public long snapshotLength() {
                return 101;
            }
        };
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> write(states("blob", blob)));
        assertTrue(e.getMessage().contains("'blob' wrote 100 bytes but its snapshotLength() announced 101"),
                e.getMessage());
    }

    @Test
    void aStageThatFailsHalfWayIsNamedWithWhereItStopped() {
        final Blob blob = new Blob(200, 1) {
            @Override
            public void writeSnapshot(final SnapshotOutput output) {
                output.putBytes(bytes, 0, 150);
                throw new ArithmeticException("boom");
            }
        };
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> write(states("blob", blob)));
        assertTrue(e.getMessage().contains("'blob' failed in writeSnapshot after 150 of the 200 bytes")
                && e.getCause() instanceof ArithmeticException, e.getMessage());
    }

    @Test
    void aSectionLongerThanTheFormatHoldsIsRefusedBeforeAnyByte() {
        final Blob blob = new Blob(20, 1) {
            @Override
            public long snapshotLength() {
                return 3L << 30;
            }
        };
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> write(states("huge", blob)));
        assertTrue(e.getMessage().contains("'huge' announced 3221225472 bytes")
                && e.getMessage().contains("2 GiB - 1") && e.getMessage().contains("split"), e.getMessage());
        final Blob negative = new Blob(20, 1) {
            @Override
            public long snapshotLength() {
                return -1;
            }
        };
        assertThrows(IllegalArgumentException.class, () -> write(states("negative", negative)));
    }

    @Test
    void aStageThatReadsLessOrMoreThanItsSectionIsRefused() {
        final Messages messages = write(states("blob", new Blob(100, 1)));
        final Blob lazy = new Blob(100, 2) {
            @Override
            public void loadSnapshot(final SnapshotInput input) {
                input.getLong();
            }
        };
        final IllegalStateException less = assertThrows(IllegalStateException.class,
                () -> new ServiceSnapshots(new DedupTable(), states("blob", lazy), null, CHUNK).load(messages.source()));
        assertTrue(less.getMessage().contains("'blob' read 8 of its 100 snapshot bytes"), less.getMessage());
        final Blob greedy = new Blob(100, 2) {
            @Override
            public void loadSnapshot(final SnapshotInput input) {
                input.getBytes(new byte[101], 0, 101);
            }
        };
        final IllegalStateException more = assertThrows(IllegalStateException.class,
                () -> new ServiceSnapshots(new DedupTable(), states("blob", greedy), null, CHUNK)
                        .load(messages.source()));
        assertTrue(more.getMessage().contains("'blob' read past the end of its 100 snapshot bytes"),
                more.getMessage());
    }

    @Test
    void aSnapshotCutShortChangesNoBufferedStateAndTheStreamedStageHearsWhere() {
        final Ledger ledger = new Ledger();
        ledger.count = 5;
        final StageStates written = new StageStates();
        written.register("ledger", ledger);
        written.registerStreaming("blob", new Blob(1000, 1));
        final Messages messages = write(written);
        // cut in the blob's chunks, and just before END
        for (final int cut : new int[] {messages.sent.size() - 4, messages.sent.size() - 1}) {
            final DedupTable dedup = new DedupTable();
            final Ledger fresh = new Ledger();
            final StageStates reading = new StageStates();
            reading.register("ledger", fresh);
            reading.registerStreaming("blob", new Blob(1000, 2));
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new ServiceSnapshots(dedup, reading, null, CHUNK).load(messages.source(cut)));
            assertTrue(e.getMessage().contains(cut == messages.sent.size() - 1 ? "ended before its END message"
                    : "snapshot ended in section 'blob' after"), e.getMessage());
            assertEquals("0/0/11/0", fresh.digest(), "the buffered state is loaded only from a whole snapshot");
            assertEquals(0, dedup.clientCount());
        }
    }

    @Test
    void streamedAndBufferedStatesMixInOneSnapshot() {
        final Ledger ledger = new Ledger();
        ledger.count = 7;
        ledger.sum = 70;
        final StageStates written = new StageStates();
        written.registerStreaming("blob", new Blob(500, 4));
        written.register("ledger", ledger);
        final Messages messages = write(written);
        final Ledger loadedLedger = new Ledger();
        final Blob loadedBlob = new Blob(500, 0);
        final StageStates reading = new StageStates();
        reading.registerStreaming("blob", loadedBlob);
        reading.register("ledger", loadedLedger);
        new ServiceSnapshots(new DedupTable(), reading, null, CHUNK).load(messages.source());
        assertEquals(ledger.digest(), loadedLedger.digest());
        assertArrayEquals(new Blob(500, 4).bytes, loadedBlob.bytes);
    }

    @Test
    void aSnapshotWithOtherSectionsIsRefusedNamingBoth() {
        final Messages messages = write(states("blob", new Blob(100, 1)));
        final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ServiceSnapshots(new DedupTable(), states("other", new Blob(100, 1)), null, CHUNK)
                        .load(messages.source()));
        assertTrue(e.getMessage().contains("[dedup, blob]") && e.getMessage().contains("[dedup, other]"),
                e.getMessage());
    }

    @Test
    void outOfRangeCopiesAreRefusedSayingWhatFits() {
        final StreamingStageState bad = new StreamingStageState() {
            @Override
            public long snapshotLength() {
                return 10;
            }

            @Override
            public void writeSnapshot(final SnapshotOutput output) {
                output.putBytes(new byte[4], 2, 10);
            }

            @Override
            public void loadSnapshot(final SnapshotInput input) {
            }
        };
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> write(states("bad", bad)));
        assertTrue(e.getCause() instanceof IllegalArgumentException
                && e.getCause().getMessage().contains("not inside the source array of length 4"), e.getMessage());
    }
}
