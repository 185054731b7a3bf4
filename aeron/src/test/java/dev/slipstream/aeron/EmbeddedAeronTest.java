package dev.slipstream.aeron;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The tests' media driver leaves no directory behind in the temporary folder. */
class EmbeddedAeronTest {
    @Test
    void closeDeletesTheTemporaryDirectory() {
        final Path parent;
        try (EmbeddedAeron media = new EmbeddedAeron()) {
            parent = media.parent();
            assertTrue(Files.isDirectory(parent.resolve("aeron")), "the driver's directory under " + parent);
        }
        assertFalse(Files.exists(parent), parent + " left behind after close");
    }
}
