package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SequenceTest {
    @Test
    void startsAtMinusOne() {
        assertEquals(-1L, new Sequence().get());
        assertEquals(Sequence.INITIAL_VALUE, new Sequence().getVolatile());
    }

    @Test
    void storesAndLoadsInEveryMode() {
        final Sequence sequence = new Sequence(5);
        assertEquals(5, sequence.getPlain());
        sequence.set(6);
        assertEquals(6, sequence.get());
        sequence.setVolatile(7);
        assertEquals(7, sequence.getVolatile());
        assertEquals("7", sequence.toString());
    }

    @Test
    void atomicOperations() {
        final Sequence sequence = new Sequence(10);
        assertTrue(sequence.compareAndSet(10, 11));
        assertFalse(sequence.compareAndSet(10, 12));
        assertEquals(11, sequence.getAndAdd(4));
        assertEquals(17, sequence.addAndGet(2));
        assertEquals(18, sequence.incrementAndGet());
    }

    @Test
    void incrementsFromManyThreadsAreNotLost() throws InterruptedException {
        final Sequence sequence = new Sequence(0);
        final Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    sequence.incrementAndGet();
                }
            });
            threads[t].start();
        }
        for (final Thread thread : threads) {
            thread.join();
        }
        assertEquals(400_000, sequence.get());
    }

    @Test
    void minimumOfSequences() {
        final Sequence[] sequences = {new Sequence(4), new Sequence(2), new Sequence(9)};
        assertEquals(2, Sequences.minimum(sequences));
        assertEquals(1, Sequences.minimum(sequences, 1));
        assertEquals(7, Sequences.minimum(new Sequence[0], 7));
        final IllegalArgumentException empty =
                assertThrows(IllegalArgumentException.class, () -> Sequences.minimum(new Sequence[0]));
        assertTrue(empty.getMessage().contains("empty"));
    }

    @Test
    void groupIsTheMinimumAndReadOnly() {
        final Sequence a = new Sequence(3);
        final Sequence b = new Sequence(8);
        final SequenceGroup group = new SequenceGroup(a, b);
        assertEquals(3, group.get());
        a.set(10);
        assertEquals(8, group.get());
        assertEquals(2, group.size());
        final UnsupportedOperationException write =
                assertThrows(UnsupportedOperationException.class, () -> group.set(1));
        assertTrue(write.getMessage().contains("minimum of other sequences"), write.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> group.setVolatile(1));
        assertThrows(UnsupportedOperationException.class, () -> group.compareAndSet(8, 9));
        assertThrows(UnsupportedOperationException.class, () -> group.incrementAndGet());
        assertThrows(IllegalArgumentException.class, SequenceGroup::new);
        final NullPointerException nullMember =
                assertThrows(NullPointerException.class, () -> new SequenceGroup(a, null));
        assertTrue(nullMember.getMessage().contains("sequence 1"));
    }

    @Test
    void thePublishedViewOfABarrierIsReadOnly() {
        final SingleProducerSequencer sequencer =
                new SingleProducerSequencer(8, new dev.slipstream.wait.BusySpinWaitStrategy());
        final PublishedView view = new PublishedView(sequencer.newBarrier());
        sequencer.publish(sequencer.next());
        assertEquals(0, view.get(), "reads the published prefix");
        final UnsupportedOperationException write =
                assertThrows(UnsupportedOperationException.class, () -> view.set(3));
        assertTrue(write.getMessage().contains("published prefix"), write.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> view.getAndAdd(1));
    }
}
