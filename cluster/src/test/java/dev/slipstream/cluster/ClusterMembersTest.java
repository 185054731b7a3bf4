package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A member list is a configuration: one that cannot work is refused at once, naming the entry. */
class ClusterMembersTest {
    private static final String EXPECTED = "expected one member per list entry, each host:basePort, e.g. "
            + "List.of(\"localhost:20100\", \"localhost:20110\", \"localhost:20120\")";

    @Test
    void aWholeMemberStringInOneEntryIsRefusedNamingTheEntryAndTheFormExpected() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterMembers.parse(List.of("localhost:20100,localhost:20110,localhost:20120")));
        assertEquals("member 0 is 'localhost:20100,localhost:20110,localhost:20120': it holds a comma; " + EXPECTED,
                e.getMessage());
    }

    @Test
    void aCommaInALaterEntryNamesThatEntry() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterMembers.parse(List.of("localhost:20100", "localhost:20110,")));
        assertEquals("member 1 is 'localhost:20110,': it holds a comma; " + EXPECTED, e.getMessage());
    }

    @Test
    void aMemberConfigRefusesItTooBeforeAnythingStarts() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MemberConfig.of(0, List.of("localhost:20100,localhost:20110"), Path.of("unused")));
        assertEquals("member 0 is 'localhost:20100,localhost:20110': it holds a comma; " + EXPECTED, e.getMessage());
    }
}
