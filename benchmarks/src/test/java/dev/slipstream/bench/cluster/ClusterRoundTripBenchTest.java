package dev.slipstream.bench.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.cluster.CommandWireFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The round-trip benchmark's answer check and its command line. */
class ClusterRoundTripBenchTest {
    private static ClusterRoundTripBench.Answers sent(final int n) {
        final ClusterRoundTripBench.Answers answers = new ClusterRoundTripBench.Answers(n);
        for (int i = 0; i < n; i++) {
            answers.intended[i] = 1 + i;
        }
        return answers;
    }

    private static UnsafeBuffer amount(final long value) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Long.BYTES]);
        buffer.putLong(0, value);
        return buffer;
    }

    @Test
    void rightAnswersAreCountedAndTimedAfterTheWarmUp() {
        final ClusterRoundTripBench.Answers answers = sent(3);
        answers.measureFrom = 1;
        for (long id = 1; id <= 3; id++) {
            answers.onAnswer(id, CommandWireFormat.STATUS_APPLIED, amount(ClusterRoundTripBench.amountOf(id)), 0, 8);
        }
        assertNull(answers.failure);
        assertEquals(3, answers.answered);
        assertEquals(2, answers.histogram.getTotalCount());
    }

    @Test
    void aWrongAmountIsAFailure() {
        final ClusterRoundTripBench.Answers answers = sent(2);
        answers.onAnswer(2, CommandWireFormat.STATUS_APPLIED, amount(ClusterRoundTripBench.amountOf(1)), 0, 8);
        assertNotNull(answers.failure);
        assertTrue(answers.failure.contains("correlation id 2"), answers.failure);
    }

    @Test
    void aSecondAnswerAnUnsentIdOrAnotherStatusIsAFailure() {
        final ClusterRoundTripBench.Answers twice = sent(1);
        twice.onAnswer(1, CommandWireFormat.STATUS_APPLIED, amount(ClusterRoundTripBench.amountOf(1)), 0, 8);
        twice.onAnswer(1, CommandWireFormat.STATUS_APPLIED, amount(ClusterRoundTripBench.amountOf(1)), 0, 8);
        assertTrue(twice.failure.contains("a second answer"), twice.failure);
        final ClusterRoundTripBench.Answers unsent = sent(1);
        unsent.onAnswer(5, CommandWireFormat.STATUS_APPLIED, amount(ClusterRoundTripBench.amountOf(5)), 0, 8);
        assertTrue(unsent.failure.contains("not sent"), unsent.failure);
        final ClusterRoundTripBench.Answers duplicate = sent(1);
        duplicate.onAnswer(1, CommandWireFormat.STATUS_DUPLICATE, amount(0), 0, 0);
        assertTrue(duplicate.failure.contains("status 1"), duplicate.failure);
    }

    @Test
    void theCommandLineIsChecked() {
        final Options o = Options.parse(new String[] {"--impl", "echo", "--rate", "2_000", "--seconds", "2",
            "--warmup", "1", "--timers", "heap"});
        assertEquals("echo", o.impl);
        assertEquals(6000, o.total());
        assertEquals(2000, o.warmupCommands());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--impl", "x"}))
                .getMessage().contains("--impl must be one of echo, pipeline"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--rate", "0"}))
                .getMessage().contains("--rate must be a positive whole number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--speed", "1"}))
                .getMessage().contains("unknown option --speed"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--members", "2"}))
                .getMessage().contains("--members must be odd"));
        assertTrue(o.fastReplies, "fast replies are on by default");
        assertFalse(Options.parse(new String[] {"--fast-replies", "off"}).fastReplies);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--fast-replies",
            "no"})).getMessage().contains("--fast-replies must be one of on, off"));
        assertEquals("own", o.clientDriver, "the client has a media driver of its own by default");
        assertEquals("member", Options.parse(new String[] {"--client-driver", "member"}).clientDriver);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--client-driver",
            "shared"})).getMessage().contains("--client-driver must be one of own, member"));
    }

    @Test
    void aPipelineNeedsItsReplyStage() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> PipelineServices.service(0, dev.slipstream.wait.BlockingWaitStrategy::new))
                .getMessage().contains("stages must be at least 1"));
    }
}
