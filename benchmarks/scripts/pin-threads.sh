#!/usr/bin/env bash
# Pins the busy threads of a running JVM, one per CPU, by their Java thread names: for the
# cluster round trip (ClusterRoundTripBench), each member's media driver, archive, consensus
# module, clustered service and pipeline stages, then the client's thread ("main"), in the order
# the JVM created them (so member 0's agents come first). Thread names and native ids come from
# `jcmd PID Thread.print`; each thread is pinned with `taskset -p -c CPU TID`. Threads whose names
# match no pattern (the JIT, the GC, Aeron clients' conductors, timers) are left where the
# scheduler puts them.
#
# Usage: benchmarks/scripts/pin-threads.sh PID [CPUS]
#   CPUS     the CPUs to hand out, as taskset reads them (default: every CPU, 0 to nproc - 1);
#            with more matching threads than CPUs the list is used again from its start and a
#            warning says so (a check on a small machine; such a run is not pinned one per CPU)
#   env PIN_PATTERNS  the thread-name patterns (extended regular expressions), space-separated;
#                     default below
#   env PIN_EXPECT    how many matching threads to wait for (default 16: five agents for each of
#                     three members, and the client)
#   env PIN_WAIT_S    the most seconds to wait for them (default 20); then the ones found are pinned
#   env JCMD          the jcmd binary (default: jcmd next to java on the PATH)
# Output: one line per pinned thread, "cpu N tid T name", then "pinned K threads on C CPUs".
set -euo pipefail
pid=${1:?usage: pin-threads.sh PID [CPUS]}
cpus=${2:-0-$(($(nproc) - 1))}
patterns=${PIN_PATTERNS:-'driver-conductor|^sender$|^receiver$ ^archive-conductor$ ^consensus-module ^clustered-service ^clustered-pipeline ^main$'}
expect=${PIN_EXPECT:-16}
wait_s=${PIN_WAIT_S:-20}
jcmd=${JCMD:-$(command -v jcmd || echo "$(dirname "$(readlink -f "$(command -v java)")")/jcmd")}

# The CPU list expanded: "0-3,8" -> "0 1 2 3 8".
expand() {
    local part a b out=()
    IFS=, read -r -a parts <<< "$1"
    for part in "${parts[@]}"; do
        if [[ $part == *-* ]]; then
            a=${part%-*}; b=${part#*-}
            for ((; a <= b; a++)); do out+=("$a"); done
        else
            out+=("$part")
        fi
    done
    echo "${out[@]}"
}

# "tid name" for every thread whose name matches a pattern, in creation order (native id).
matching() {
    "$jcmd" "$pid" Thread.print 2>/dev/null | awk '
        /^"/ {
            name = $0; sub(/^"/, "", name); sub(/".*/, "", name)
            if (match($0, /nid=0x[0-9a-f]+/)) print substr($0, RSTART + 6, RLENGTH - 6), name
        }' | while read -r hex name; do
        for p in $patterns; do
            if [[ $name =~ $p ]]; then echo "$((16#$hex)) $name"; break; fi
        done
    done | sort -n
}

deadline=$((SECONDS + wait_s))
found=""
while ((SECONDS < deadline)); do
    kill -0 "$pid" 2>/dev/null || { echo "pin-threads: process $pid has ended" >&2; exit 1; }
    found=$(matching)
    (($(grep -c . <<< "$found") >= expect)) && break
    sleep 0.2
done
count=$(grep -c . <<< "$found" || true)
((count > 0)) || { echo "pin-threads: no thread of $pid matches the patterns" >&2; exit 1; }
((count >= expect)) || echo "pin-threads: WARNING: $count matching threads after ${wait_s} s, expected $expect; pinning those"
read -r -a cpu_list <<< "$(expand "$cpus")"
((count <= ${#cpu_list[@]})) \
    || echo "pin-threads: WARNING: $count threads on ${#cpu_list[@]} CPUs: some share a CPU (not a pinned run)"
i=0
while read -r tid name; do
    cpu=${cpu_list[$((i % ${#cpu_list[@]}))]}
    taskset -p -c "$cpu" "$tid" > /dev/null
    echo "cpu $cpu tid $tid $name"
    i=$((i + 1))
done <<< "$found"
echo "pinned $count threads on ${#cpu_list[@]} CPUs"
