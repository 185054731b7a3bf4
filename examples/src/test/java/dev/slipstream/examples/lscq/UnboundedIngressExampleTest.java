package dev.slipstream.examples.lscq;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the example with a small number of orders, so that it cannot rot. */
class UnboundedIngressExampleTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void runsAndEveryOrderArrives() throws Exception {
        final PrintStream original = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            UnboundedIngressExample.main(new String[] {"30000"});
        } finally {
            System.setOut(original);
        }
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("consumer read 30,000 orders"), printed);
        assertTrue(printed.contains("undelivered: 0, translator failures: 0, notional matches"), printed);
    }
}
