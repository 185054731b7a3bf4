#!/usr/bin/env bash
# Where each thread of a benchmark JVM spent its time, from the kernel's own accounting: runs
# the command, reads /proc/PID/task/*/schedstat and status every 0.2 s, and when the command
# ends prints, for every thread that ran more than 0.1 s, its last reading (a thread that ended
# before the command keeps the last one taken while it ran):
#   run      CPU time (s)
#   rq-wait  time runnable but waiting for a CPU (s)
#   slices   times it was put on a CPU
#   vol      voluntary context switches (it slept: park, sleep, monitor wait)
#   invol    involuntary ones (preempted, or a Thread.yield that handed the CPU over)
# The command's own output goes to stdout first. Linux only; the reading is up to 0.2 s old.
#
# Usage: benchmarks/scripts/thread-times.sh COMMAND [ARG...]
# e.g.   benchmarks/scripts/thread-times.sh java -cp benchmarks/target/benchmarks.jar \
#            dev.slipstream.bench.throughput.ContinuousThroughput pipeline dsl yielding
set -euo pipefail
[[ $# -gt 0 ]] || { echo "usage: thread-times.sh COMMAND [ARG...]"; exit 1; }
readings=$(mktemp)
trap 'rm -f "$readings"' EXIT
"$@" &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
    for task in /proc/"$pid"/task/*; do
        # a thread may end between the listing and the reads: skip it
        name=$(cat "$task/comm" 2>/dev/null) || continue
        sched=$(cat "$task/schedstat" 2>/dev/null) || continue
        switches=$(awk '/^voluntary_ctxt_switches/ {v = $2} /^nonvoluntary_ctxt_switches/ {n = $2} END {print v, n}' \
            "$task/status" 2>/dev/null) || continue
        printf '%s|%s|%s|%s\n' "${task##*/}" "$name" "$sched" "$switches" >> "$readings"
    done
    sleep 0.2
done
status=0
wait "$pid" || status=$?
echo "THREADS tid name run_s rq_wait_s slices vol invol"
# the last reading of each thread id, in the order the threads were first seen
awk -F'|' '!($1 in last) {order[++n] = $1} {last[$1] = $0}
    END {for (i = 1; i <= n; i++) {split(last[order[i]], f, "|"); split(f[3], s, " "); split(f[4], c, " ");
        name = f[2]; gsub(/ /, "_", name);
        if (s[1] > 1e8) printf "THREAD %s %s %.2f %.2f %d %d %d\n", f[1], name, s[1] / 1e9, s[2] / 1e9, s[3], c[1], c[2]}}' "$readings"
exit "$status"
