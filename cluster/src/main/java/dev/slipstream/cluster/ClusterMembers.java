package dev.slipstream.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A cluster's members as {@code host:basePort} entries, member {@code i} being the {@code i}-th.
 * Each member uses five UDP ports from its base port up:
 *
 * <table>
 *   <caption>Ports of a member</caption>
 *   <tr><th>port</th><th>use</th></tr>
 *   <tr><td>base + 0</td><td>ingress: clients' commands</td></tr>
 *   <tr><td>base + 1</td><td>consensus: members' votes, appends and commits</td></tr>
 *   <tr><td>base + 2</td><td>log: the replicated log, leader to followers</td></tr>
 *   <tr><td>base + 3</td><td>catch-up: log replay to a member that fell behind</td></tr>
 *   <tr><td>base + 4</td><td>archive control: snapshot and log replication requests</td></tr>
 * </table>
 *
 * <p>Replication and replies to clients use ephemeral ports (port 0).
 *
 * <p>A member list that cannot work is a configuration error: {@link #parse} (and so
 * {@link MemberConfig}) refuses it with an {@link IllegalArgumentException} that names the entry
 * and the form expected, before anything is launched.
 *
 * <pre>{@code
 * ClusterMembers members = ClusterMembers.parse(List.of("localhost:20100", "localhost:20110", "localhost:20120"));
 * String forClients = members.ingressEndpoints();   // "0=localhost:20100,1=localhost:20110,2=localhost:20120"
 * }</pre>
 */
public final class ClusterMembers {
    /** Ports a member uses from its base port up. */
    public static final int PORTS_PER_MEMBER = 5;
    static final int INGRESS = 0;
    static final int CONSENSUS = 1;
    static final int LOG = 2;
    static final int CATCHUP = 3;
    static final int ARCHIVE = 4;
    static final String[] PORT_NAMES = {"ingress", "consensus", "log", "catch-up", "archive control"};

    private final List<String> hosts;
    private final int[] basePorts;

    private ClusterMembers(final List<String> hosts, final int[] basePorts) {
        this.hosts = hosts;
        this.basePorts = basePorts;
    }

    /**
     * Parses a member list.
     *
     * @param members {@code host:basePort} per member, member 0 first
     * @return the members
     * @throws IllegalArgumentException if the list is empty, an entry is not {@code host:port}
     *         with a port from 1 to 65531, an entry holds a comma (several members in one entry:
     *         give one per entry), or two members on one host have overlapping ports
     */
    public static ClusterMembers parse(final List<String> members) {
        Objects.requireNonNull(members, "members must not be null");
        if (members.isEmpty()) {
            throw new IllegalArgumentException("member list is empty; expected host:basePort per member, "
                    + "e.g. [localhost:20100, localhost:20110, localhost:20120]");
        }
        final List<String> hosts = new ArrayList<>();
        final int[] ports = new int[members.size()];
        for (int i = 0; i < members.size(); i++) {
            final String entry = members.get(i);
            if (entry != null && entry.indexOf(',') >= 0) {
                // a whole member string in one entry would parse as one member whose host holds
                // the others, and fail only when Aeron resolves it, far from the mistake
                throw new IllegalArgumentException("member " + i + " is '" + entry + "': it holds a comma; expected "
                        + "one member per list entry, each host:basePort, e.g. List.of(\"localhost:20100\", "
                        + "\"localhost:20110\", \"localhost:20120\")");
            }
            final int colon = entry == null ? -1 : entry.lastIndexOf(':');
            if (colon <= 0 || colon == entry.length() - 1) {
                throw new IllegalArgumentException("member " + i + " is '" + entry + "'; expected host:basePort, "
                        + "e.g. localhost:20100");
            }
            final int port;
            try {
                port = Integer.parseInt(entry.substring(colon + 1));
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException("member " + i + " is '" + entry + "': the base port is not a "
                        + "number; expected host:basePort, e.g. localhost:20100", e);
            }
            if (port < 1 || port > 65535 - PORTS_PER_MEMBER + 1) {
                throw new IllegalArgumentException("member " + i + " has base port " + port + "; expected 1 to "
                        + (65535 - PORTS_PER_MEMBER + 1) + " (it uses " + PORTS_PER_MEMBER + " ports from there up)");
            }
            final String host = entry.substring(0, colon);
            for (int j = 0; j < i; j++) {
                if (hosts.get(j).equals(host) && Math.abs(ports[j] - port) < PORTS_PER_MEMBER) {
                    throw new IllegalArgumentException("members " + j + " (" + members.get(j) + ") and " + i + " ("
                            + entry + ") share ports: each member uses " + PORTS_PER_MEMBER
                            + " ports from its base port, so base ports on one host must be at least "
                            + PORTS_PER_MEMBER + " apart");
                }
            }
            hosts.add(host);
            ports[i] = port;
        }
        return new ClusterMembers(Collections.unmodifiableList(hosts), ports);
    }

    /** @return how many members */
    public int size() {
        return basePorts.length;
    }

    /**
     * @param memberId the member
     * @return its host
     */
    public String host(final int memberId) {
        return hosts.get(checkId(memberId));
    }

    /**
     * @param memberId the member
     * @param offset one of the port offsets in the table above (0 to 4)
     * @return the port
     */
    public int port(final int memberId, final int offset) {
        return basePorts[checkId(memberId)] + offset;
    }

    /** @return the ingress endpoints a client connects to, {@code id=host:port,...} */
    public String ingressEndpoints() {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < size(); i++) {
            sb.append(i == 0 ? "" : ",").append(i).append('=').append(endpoint(i, INGRESS));
        }
        return sb.toString();
    }

    /** @return the consensus module's member string: {@code id,ingress,consensus,log,catchup,archive|...} */
    String memberString() {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < size(); i++) {
            sb.append(i).append(',').append(endpoint(i, INGRESS)).append(',').append(endpoint(i, CONSENSUS))
                    .append(',').append(endpoint(i, LOG)).append(',').append(endpoint(i, CATCHUP)).append(',')
                    .append(endpoint(i, ARCHIVE)).append('|');
        }
        return sb.toString();
    }

    String endpoint(final int memberId, final int offset) {
        return host(memberId) + ':' + port(memberId, offset);
    }

    private int checkId(final int memberId) {
        if (memberId < 0 || memberId >= basePorts.length) {
            throw new IllegalArgumentException("member id " + memberId + " is not in the member list; expected 0 to "
                    + (basePorts.length - 1));
        }
        return memberId;
    }
}
