package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a member's media driver keeps its directory, and the places it may not, since it empties it on start. */
class MemberConfigAeronDirTest {
    private static final List<String> MEMBERS = List.of("localhost:21900");

    @TempDir
    Path dir;

    @Test
    void theDriversDirectoryIsInTheBaseDirUnlessToldOtherwise() {
        final Path base = dir.resolve("member-0");
        assertEquals(base.resolve("aeron"), MemberConfig.of(0, MEMBERS, base).aeronDir());
        final Path shm = dir.resolve("shm/engine-member-0");
        final MemberConfig moved = MemberConfig.of(0, MEMBERS, base).withAeronDir(shm);
        assertEquals(shm, moved.aeronDir());
        assertEquals(base, moved.baseDir());
    }

    @Test
    void theWithersKeepTheDriversDirectory() {
        final Path shm = dir.resolve("shm/engine-member-0");
        final MemberConfig moved = MemberConfig.of(0, MEMBERS, dir.resolve("member-0")).withAeronDir(shm)
                .withFastFailover().withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(5)).withPriorityHeapTimers()
                .withTimerWheelTick(Duration.ofMillis(2)).withStartupCanvassTimeout(Duration.ofSeconds(5))
                .withElectionTimings(Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(20));
        assertEquals(shm, moved.aeronDir());
    }

    @Test
    void aDirectoryThatHoldsTheMembersStateIsRefused() {
        final Path base = dir.resolve("member-0");
        final MemberConfig config = MemberConfig.of(0, MEMBERS, base);
        for (final Path holding : List.of(base, dir, base.resolve("."))) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> config.withAeronDir(holding));
            assertTrue(e.getMessage().contains("is the member's directory " + base + " or above it"), e.getMessage());
            assertTrue(e.getMessage().contains("empties its directory on start"), e.getMessage());
            assertTrue(e.getMessage().contains("expected a directory of its own"), e.getMessage());
        }
        for (final String state : List.of("archive", "cluster")) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> config.withAeronDir(base.resolve(state).resolve("aeron")));
            assertTrue(e.getMessage().contains("inside the member's " + state + "/ directory"), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> config.withAeronDir(null));
    }
}
