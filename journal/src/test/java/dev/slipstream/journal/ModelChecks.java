package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/** What the journal's model checks share: how a seeded bug is shown caught. */
final class ModelChecks {
    private ModelChecks() {
    }

    /** {@code mutant} fails the model check under {@code options}, with {@code failure} in the report. */
    static void assertCaught(final ModelCheckingOptions options, final Class<?> mutant, final String failure) {
        final LincheckAssertionError caught = assertThrows(LincheckAssertionError.class,
                () -> options.check(mutant), mutant.getSimpleName() + " must fail the model check");
        // the failure the mutant causes, not an internal error of the checker
        assertTrue(caught.getMessage().contains(failure), caught.getMessage());
    }
}
