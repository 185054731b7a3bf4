#!/usr/bin/env bash
# Every cell of the continuous-stream comparison (benchmarks/scripts/continuous.sh): the five
# topologies with the yielding and the blocking wait, and unicast with busy-spin, Slipstream
# through its builder against LMAX Disruptor 4.0.0 (in the unicast cells also the core classes
# wired by hand, and ArrayBlockingQueue),
# ROUNDS interleaved JVM runs per side. Writes each cell's summary and raw runs under OUT.
#
# Usage: benchmarks/scripts/continuous-suite.sh ROUNDS OUT [JAR]
#   JAR: the benchmarks jar (default benchmarks/target/benchmarks.jar)
# About 6 s per run: 7 rounds take about 20 minutes on a 2-core machine.
set -euo pipefail
rounds=$1; out=$2; jar=${3:-benchmarks/target/benchmarks.jar}
here=$(dirname "$0")
. "$here/progress.sh"
mkdir -p "$out"
echo "load before the suite: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load.txt"
cells=("unicast yielding" "unicast busyspin" "unicast blocking"
       "pipeline yielding" "sequencer yielding" "multicast yielding" "diamond yielding"
       "pipeline blocking" "sequencer blocking" "multicast blocking" "diamond blocking")
began=$(date +%s)
for ((c = 0; c < ${#cells[@]}; c++)); do
    cell=${cells[$c]}
    read -r shape wait <<< "$cell"
    echo "cell $((c + 1))/${#cells[@]}, $cell: $(progress_left "$began" "$c" "${#cells[@]}")"
    sides=("lmax=$jar:lmax" "slipstream=$jar:dsl")
    [[ $shape == unicast ]] && sides+=("core=$jar:slipstream")
    [[ $shape == unicast && $wait != busyspin ]] && sides+=("abq=$jar:abq")
    KEEP="$out/$shape-$wait" "$here/continuous.sh" "$rounds" "$shape" "$wait" "${sides[@]}" \
        | tee "$out/$shape-$wait.txt"
done
echo "load after the suite: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
