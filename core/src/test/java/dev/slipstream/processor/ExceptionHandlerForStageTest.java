package dev.slipstream.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The per-stage copies of the built-in exception handlers, and the summary interval's bad input. */
class ExceptionHandlerForStageTest {
    @Test
    void aBuiltInGivesEachStageACopyNamedAfterIt() {
        final ExceptionHandler<Object> shared = ExceptionHandlers.logAndContinue();
        final ExceptionHandler<Object> a = shared.forStage("orders/a");
        final ExceptionHandler<Object> b = shared.forStage("orders/b");
        assertNotSame(shared, a);
        assertNotSame(a, b, "each stage keeps its own summary");
        assertEquals("ExceptionHandlers.logAndContinue(\"orders/a\")", a.toString());
        assertEquals("ExceptionHandlers.halt(\"journal\")",
                ExceptionHandlers.halt("journal").forStage("orders/journal").toString(), "a name the user gave stays");
        final HaltProcessorException halted = assertThrows(HaltProcessorException.class,
                () -> ExceptionHandlers.halt().forStage("orders/h").handleEventException(new IllegalStateException("x"), 3L, "e"));
        assertEquals("stage 'orders/h': exception at sequence 3 on event e; halting the stage:"
                + " java.lang.IllegalStateException: x", halted.getMessage());
        assertEquals("x", halted.getCause().getMessage(), "the cause is reachable");
    }

    @Test
    void aHandlerOfYourOwnIsUsedAsItIs() {
        final ExceptionHandler<Object> own = new ExceptionHandler<>() {
            @Override
            public void handleEventException(final Throwable ex, final long sequence, final Object event) {
            }

            @Override
            public void handleOnStartException(final Throwable ex) {
            }

            @Override
            public void handleOnShutdownException(final Throwable ex) {
            }
        };
        assertSame(own, own.forStage("orders/a"));
        own.stageStopped();
    }

    @Test
    void theSummaryIntervalMustBeGivenAndNotNegative() {
        final NullPointerException none = assertThrows(NullPointerException.class,
                () -> ExceptionHandlers.logAndContinue("a", null));
        assertEquals("summaryInterval must not be null: use Duration.ZERO to log every exception in full",
                none.getMessage());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> ExceptionHandlers.logAndContinue("a", Duration.ofMillis(-1)));
        assertEquals("summaryInterval must not be negative, got PT-0.001S; use Duration.ZERO to log every exception"
                + " in full", negative.getMessage());
        ExceptionHandlers.logAndContinue("a", Duration.ZERO).handleEventException(new IllegalStateException("x"), 0L, null);
    }
}
