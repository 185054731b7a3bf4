#!/usr/bin/env bash
# Shows that periodic snapshots and purging keep each member's archive bounded over a long run:
# three cluster members in one JVM (RetentionRun, in the cluster module's test classes), a client
# sending 1,000-byte commands at a steady rate, the leader asking for a snapshot every LOG_BYTES of
# log, each member keeping its latest 2 snapshots and the log from the older one on. After every
# snapshot it prints one line per member:
#
#   member snapshot commit_position log_start archive_bytes bound
#
# archive_bytes is the length of the member's recording files (log and snapshots; snapshot files
# are sparse, as long as their channel's term); bound is 2 x (latest snapshot + log since the
# snapshot before it), measured from the member's files and recording log once its purge after
# that snapshot is done. The run exits 1 if a member is ever over its bound from its third
# snapshot on (before that nothing can be purged), and prints how many times. At the end, `du`
# gives the blocks each member's archive really takes on disk.
#
# Usage: benchmarks/scripts/retention.sh [--quick]
#   --quick   a short check (about a minute on 2 cores): 10 snapshots, every 2 MiB of log, 1 MiB
#             log terms and segments, 2,000 commands/s
#   default   the full run, for an idle machine: SNAPSHOTS (default 100) snapshots at RATE
#             commands/s (default 20000), every LOG_BYTES (default 256 MiB) of log, with the
#             member's own 8 MiB log term and SEGMENT (default 8 MiB) archive segments: about
#             100 x 256 MiB / 20 MB/s, some 22 minutes, and up to 3 x (2 x 128 MiB sparse snapshot
#             files + 2 x 256 MiB of log) of disk under DIR
#   env DIR   where the members' directories go (default a new temporary directory, deleted after);
#             the members' log lines go to DIR/members-stderr.txt (its end is printed if the run fails)
#   env PORT  the first of the members' base ports (default 28900; uses PORT..PORT+24)
# Build: the script runs mvn -o -q -pl cluster -am test-compile first (set NO_BUILD=1 to skip).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ ${1:-} == --quick ]]; then
    mode=quick; snapshots=10; rate=2000; log_bytes=$((2 << 20)); segment=$((1 << 20))
else
    mode=full; snapshots=${SNAPSHOTS:-100}; rate=${RATE:-20000}; log_bytes=${LOG_BYTES:-$((256 << 20))}
    segment=${SEGMENT:-$((8 << 20))}
fi
port=${PORT:-28900}
if [[ -z ${NO_BUILD:-} ]]; then
    mvn -B -o -q -pl cluster -am test-compile
fi
cp_file=$(mktemp /tmp/retention-cp.XXXXXX)
mvn -B -o -q -pl cluster dependency:build-classpath -Dmdep.outputFile="$cp_file" >/dev/null
# this tree's own classes, not a slipstream-core installed in ~/.m2
deps=$(tr ':' '\n' < "$cp_file" | grep -v '/slipstream-core-' | paste -sd: -)
rm -f "$cp_file"
dir=${DIR:-}
cleanup=
if [[ -z $dir ]]; then
    dir=$(mktemp -d /tmp/retention-run.XXXXXX)
    cleanup=$dir
fi
trap '[[ -z $cleanup ]] || rm -rf "$cleanup"' EXIT
echo "# $(date -u +%FT%TZ) $mode; java: $(java -version 2>&1 | head -1); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); dir: $dir"
java -Xmx1g --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
    -cp "cluster/target/test-classes:cluster/target/classes:core/target/classes:$deps" \
    dev.slipstream.cluster.RetentionRun "$dir" "$port" "$snapshots" "$rate" "$log_bytes" "$segment" "$mode" \
    2> "$dir/members-stderr.txt" || { status=$?; tail -30 "$dir/members-stderr.txt" >&2; exit $status; }
echo "# on disk (du, bytes of blocks): $(du -s -B1 "$dir"/member-*/archive | awk '{printf "%s %s; ", $2, $1}')"
