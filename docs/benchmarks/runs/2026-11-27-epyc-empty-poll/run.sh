#!/usr/bin/env bash
# Interleaved A/B of benchmark jars on the LSCQ article's workloads (ArticleWorkloads): one JVM
# per side and round, the starting side rotating every round, the 1-minute load recorded before
# each JVM; then summary.py prints the median ns/op per side and the median [range] of the
# per-round ratios against the first side.
# Usage: run.sh OUT ROUNDS THREADS label=JAR:QUEUE ...    (env OPS, default 1000000)
# e.g.   run.sh out 9 1,2,4,8 ship=ship.jar:LprqQueue base=base.jar:LprqQueue
set -euo pipefail
out=$1; rounds=$2; threads=$3; shift 3
mkdir -p "$out"
specs=("$@"); n=${#specs[@]}
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    spec=${specs[$(((k + r - 1) % n))]}
    label=${spec%%=*}; rest=${spec#*=}; jar=${rest%%:*}; q=${rest#*:}
    echo "round $r $label load $(cut -d' ' -f1 /proc/loadavg)" >> "$out/load.txt"
    java -Xms1g -Xmx1g -cp "$jar" dev.slipstream.bench.queue.ArticleWorkloads "$q" "$threads" "${OPS:-1000000}" 2 3 \
        > "$out/$label-$r.txt" 2>&1
  done
done
python3 "$(dirname "$0")/summary.py" "$out" "${specs[@]%%=*}" | tee "$out/summary.txt"
