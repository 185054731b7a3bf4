#!/usr/bin/env bash
# How long a snapshot of a large stage state stops a three-member clustered pipeline, against
# what writing the same bytes to the disk costs. The full measurement (idle machine, about
# 25 minutes; 24 GiB of RAM is enough for 1 GiB of state, three members, both paths):
#
#   mvn -B -q -pl cluster,benchmarks -am package -DskipTests -Dmaven.javadoc.skip=true
#   benchmarks/scripts/snapshot-stall.sh 16,256,1024 3
#
# Per state size (MiB) and round, both ways of writing the state, interleaved in every round:
#   streamed  the stage is a StreamingStageState: it writes straight into the snapshot publication
#   buffered  the same stage through StageState: the whole state copied into the service's
#             buffer first, then chunked (the path before streaming)
# One run: the disk baseline (DiskBaseline: SIZE MiB written and forced to a file in the members'
# directory), three member processes (SnapshotStallMember, one stage holding the state), a client
# (StallClient) sending RATE commands/s for SECONDS, the leader asking for a snapshot half-way;
# then the members are killed (SIGKILL) and restarted from the snapshot and the log after it, and
# each must reach the same digest (count and CRC32C of the state) as before.
#
# Summary line per size, path and round:
#   SUMMARY size=256MiB path=streamed round=1 gap-ms=.. disk-ms=.. gap/disk=.. disk3-ms=.. gap/disk3=.. archive3-ms=.. gap/archive3=.. snapshot-ms=..
#           snapshot-cpu-ms=.. after-snapshot-ms=.. restart-ms=.. load-ms=.. load-cpu-ms=.. heap-after-gc-mib=.. rss-peak-mib=.. aeron=shm digest=same
#   gap-ms       the client's longest wait between two answers (the stall it sees)
#   disk-ms      writing and forcing SIZE MiB to a file in the same directory
#   disk3-ms     three threads doing so at once, each to its own file: what the three members'
#                archives write together when they snapshot on one machine
#   archive3-ms  three Aeron archives, set up as the members' own and nothing else running
#                (ArchiveBaseline), each recording SIZE MiB offered at once: Aeron's own cost
#   snapshot-ms  the leader's onTakeSnapshot: waiting for the stages, then writing (the service's
#                part of the stall)
#   snapshot-cpu-ms  the CPU time the leader's service thread spent in it (copies, offers)
#   after-snapshot-ms  from the leader's onTakeSnapshot returning to its next command (Aeron's part:
#                the archive finishing the recording, the acknowledgement, the consensus module's
#                own snapshot, taking commands in again)
#   restart-ms   the slowest member, from its JVM's start to every command applied again
#   load-ms      the slowest member's service start on restart: reading the snapshot and loading
#                every section (the whole of it, for both paths)
#   load-cpu-ms  the most CPU time a member's service thread spent in that start
#   heap/rss     the largest member's heap after a GC once caught up, and its peak resident set
# At the end, per size and path: the median (min-max) over rounds of each figure.
#
# Usage: benchmarks/scripts/snapshot-stall.sh [SIZES_MIB] [ROUNDS]
#   SIZES_MIB default 16,256,1024; ROUNDS default 3
#   env PATHS     default "streamed buffered"
#   env RATE      commands/s (default 1000); SECONDS_SENT (default 20): the snapshot comes half-way
#   env BASE      where the members' directories go (default /tmp); PORT base port (default 29100)
#   env HEAP_MIB  each member's heap (default 4 x the state + 512)
#   env AERON_DIRS where the members' media drivers keep their directories: shm (tmpfs,
#                 /dev/shm/<run>-member-N, as the operations guide advises; the default where
#                 /dev/shm exists) or member (each member's base directory, the default of
#                 MemberConfig)
#   env STAGE_WAIT the stages' wait strategy: sleeping (the pipeline's default) or blocking
#   env JAR       default benchmarks/target/benchmarks.jar
#   env JAVA_EXTRA more JVM options for the members (e.g. a profiler agent)
#   env PROFILE_DIR with JAVA_EXTRA=-XX:StartFlightRecording=settings=profile: each member's flight
#                 recording of the first phase is dumped there (jcmd) before the members are killed
# A quick check: benchmarks/scripts/snapshot-stall.sh 16 1
set -euo pipefail
sizes=${1:-16,256,1024}
rounds=${2:-3}
paths=${PATHS:-streamed buffered}
rate=${RATE:-1000}
seconds=${SECONDS_SENT:-20}
base=${BASE:-/tmp}
port=${PORT:-29100}
jar=${JAR:-benchmarks/target/benchmarks.jar}
java_extra=${JAVA_EXTRA:-}
if [[ -d /dev/shm ]]; then aeron_dirs=${AERON_DIRS:-shm}; else aeron_dirs=${AERON_DIRS:-member}; fi
[[ $aeron_dirs == shm || $aeron_dirs == member ]] || { echo "AERON_DIRS must be shm or member" >&2; exit 1; }
[[ -f $jar ]] || { echo "no $jar: build it (see the top of this script)" >&2; exit 1; }
(( port >= 29000 && port + 30 <= 29490 )) || echo "NOTE: PORT $port is outside 29000-29460"
total=$((rate * seconds))
out=$(mktemp /tmp/snapshot-stall.XXXXXX)
java_opts=(--add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp "$jar")
{
    echo "# snapshot-stall: $(date -u +%FT%TZ), sizes $sizes MiB, rounds $rounds, paths $paths, rate $rate/s,"\
        "$seconds s, $total commands, snapshot at $((total / 2)), media driver directories: $aeron_dirs"
    echo "# java: $(java -version 2>&1 | head -1); cores: $(nproc); memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
    echo "# uptime: $(uptime)"
} | tee -a "$out"
echo "raw results: $out"
failed=0
pids=()

kill_members() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
trap kill_members EXIT

# start_members DIR LOG_PREFIX SIZE PATH SNAPSHOT_AT
start_members() {
    local dir=$1 prefix=$2 size=$3 path=$4 at=$5 heap=${HEAP_MIB:-$((4 * $3 + 512))} aeron
    for i in 0 1 2; do
        aeron=$dir/member-$i/aeron
        [[ $aeron_dirs == shm ]] && aeron=/dev/shm/$(basename "$dir")-member-$i
        # shellcheck disable=SC2086
        java -Xms${heap}m -Xmx${heap}m $java_extra "${java_opts[@]}" dev.slipstream.bench.snapshot.SnapshotStallMember \
            --id "$i" --dir "$dir" --state-mib "$size" --path "$path" --port "$port" --expect "$total" \
            --snapshot-at "$at" --aeron-dir "$aeron" ${STAGE_WAIT:+--wait $STAGE_WAIT} > "$dir/$prefix-$i.log" 2>&1 &
        pids+=($!)
    done
}

# remove DIR: the run's directory and its members' media driver directories on tmpfs (a killed
# driver leaves its own behind)
remove() {
    rm -rf "$1" /dev/shm/"$(basename "$1")"-member-*
}

# await WHAT DIR LOG_PREFIX SECONDS: waits until every member's log has a line starting WHAT
await() {
    local what=$1 dir=$2 prefix=$3 limit=$4 i
    for ((t = 0; t < limit * 10; t++)); do
        local all=1
        for i in 0 1 2; do
            grep -q "^$what" "$dir/$prefix-$i.log" 2>/dev/null || all=0
            if grep -q "^STOPPED\|Exception in thread \"main\"" "$dir/$prefix-$i.log" 2>/dev/null; then
                echo "# member $i stopped: $(tail -3 "$dir/$prefix-$i.log")" | tee -a "$out"; return 1
            fi
        done
        (( all )) && return 0
        sleep 0.1
    done
    echo "# timed out after $limit s waiting for $what" | tee -a "$out"
    return 1
}

field() {  # field NAME FILES...: the values of NAME=value in the files' lines, one a line
    # NAME must start the line or follow a space: ms= must not match cpu-ms=
    local name=$1; shift
    grep -ho "\(^\| \)$name=[^ ]*" "$@" | sed 's/^ //' | cut -d= -f2
}

run() {  # run SIZE PATH ROUND
    local size=$1 path=$2 round=$3 dir
    dir=$(mktemp -d "$base/slipstream-stall.XXXXXX")
    echo "# size $size MiB $path round $round: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
    local disk disk3
    disk=$(java -cp "$jar" dev.slipstream.bench.snapshot.DiskBaseline --dir "$dir" --mib "$size" | field ms /dev/stdin)
    disk3=$(java -cp "$jar" dev.slipstream.bench.snapshot.DiskBaseline --dir "$dir" --mib "$size" --writers 3 \
        | field ms /dev/stdin)
    local archive_dir=$dir/archive-baseline-aeron archive3
    [[ $aeron_dirs == shm ]] && archive_dir=/dev/shm/$(basename "$dir")-member-baseline
    archive3=$(java "${java_opts[@]}" dev.slipstream.bench.snapshot.ArchiveBaseline --dir "$dir" --mib "$size" \
        --archives 3 --aeron-dir "$archive_dir" 2>/dev/null | field ms /dev/stdin)
    rm -rf "$dir"/archive-baseline-*
    start_members "$dir" first "$size" "$path" $((total / 2))
    if ! await READY "$dir" first 60; then failed=1; kill_members; remove "$dir"; return; fi
    local client
    client=$(java "${java_opts[@]}" dev.slipstream.bench.snapshot.StallClient --dir "$dir" --port "$port" \
        --rate "$rate" --seconds "$seconds" 2>&1 | grep -E '^(CLIENT|FAILED)') || true
    echo "# $client" | tee -a "$out"
    if ! await CAUGHT-UP "$dir" first 180 || grep -q '^FAILED' <<< "$client"; then
        failed=1; kill_members; remove "$dir"; return
    fi
    local snapshot cpu after digests heap rss
    # the leader's figures: its snapshot is the one the client waits for
    local leader
    leader=$(grep -l '^ASKED' "$dir"/first-*.log | head -1)
    snapshot=$(grep -h "^SNAPSHOT" "$leader" | field ms /dev/stdin | tail -1)
    cpu=$(field cpu-ms "$leader" | tail -1)
    after=$(field after-snapshot-ms "$leader" | tail -1)
    digests=$(field digest "$dir"/first-*.log | sort -u)
    heap=$(field heap-after-gc-mib "$dir"/first-*.log | sort -g | tail -1)
    rss=$(field rss-peak-mib "$dir"/first-*.log | sort -g | tail -1)
    if [[ -n ${PROFILE_DIR:-} ]]; then
        mkdir -p "$PROFILE_DIR"
        for i in 0 1 2; do
            jcmd "${pids[$i]}" JFR.dump filename="$PROFILE_DIR/${size}MiB-$path-$round-member-$i.jfr" > /dev/null || true
        done
    fi
    kill_members
    start_members "$dir" restart "$size" "$path" 0
    local restart=- load=- load_cpu=- same=no
    if await CAUGHT-UP "$dir" restart 300; then
        restart=$(field uptime-ms "$dir"/restart-*.log | sort -g | tail -1)
        load=$(field start-ms "$dir"/restart-*.log | sort -g | tail -1)
        load_cpu=$(field start-cpu-ms "$dir"/restart-*.log | sort -g | tail -1)
        local restarted
        restarted=$(field digest "$dir"/restart-*.log | sort -u)
        [[ $(wc -l <<< "$digests") == 1 && $digests == "$restarted" ]] && same=yes
    fi
    kill_members
    [[ $same == yes ]] || failed=1
    local gap
    gap=$(field max-gap-ms /dev/stdin <<< "$client")
    echo "SUMMARY size=${size}MiB path=$path round=$round gap-ms=$gap disk-ms=$disk gap/disk=$(python3 -c \
        "print(f'{$gap / $disk:.2f}')") disk3-ms=$disk3 gap/disk3=$(python3 -c "print(f'{$gap / $disk3:.2f}')") archive3-ms=$archive3 gap/archive3=$(python3 -c \
        "print(f'{$gap / $archive3:.2f}')") snapshot-ms=$snapshot snapshot-cpu-ms=$cpu after-snapshot-ms=$after restart-ms=$restart load-ms=$load load-cpu-ms=$load_cpu"\
        "heap-after-gc-mib=$heap rss-peak-mib=$rss aeron=$aeron_dirs digest=$([[ $same == yes ]] && echo same || echo DIFFERENT)" \
        | tee -a "$out"
    remove "$dir"
}

for ((r = 1; r <= rounds; r++)); do
    for size in ${sizes//,/ }; do
        for path in $paths; do
            run "$size" "$path" "$r"
        done
    done
done
echo "# uptime after: $(uptime)" | tee -a "$out"
python3 - "$out" <<'PY'
import statistics, sys
from collections import defaultdict
rows = defaultdict(lambda: defaultdict(list))
for line in open(sys.argv[1]):
    if line.startswith("SUMMARY"):
        f = dict(kv.split("=", 1) for kv in line.split()[1:])
        for k, v in f.items():
            try:
                rows[(f["size"], f["path"])][k].append(float(v))
            except ValueError:
                pass
print("\nmedian (min-max) over rounds")
for (size, path), figs in rows.items():
    cells = [f"{k} {statistics.median(v):,.1f} ({min(v):,.1f}-{max(v):,.1f})" for k, v in figs.items() if v and k != "round"]
    print(f"  {size:>8} {path:<9} " + "  ".join(cells))
PY
exit $failed
