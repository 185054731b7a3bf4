#!/usr/bin/env bash
# Scaling run for a machine with many cores (16 or more): the queues from 1 producer + 1 consumer
# to 8 + 8 threads, and every ring topology with busy-spinning consumers (which needs a core per
# thread), Slipstream and LMAX side by side. Each round runs every configuration once, one JMH
# fork each, so rounds interleave the sides; the raw JSON of every round lands in RESULTS_DIR,
# packed again into one archive after each round so that a run cut short keeps what it had.
#
# Usage: benchmarks/scripts/scaling.sh ROUNDS RESULTS_DIR
#   env JAVA: the java binary (default: java on the PATH)
#   env JAR:  the benchmarks jar (default: benchmarks/target/benchmarks.jar)
#   env PACK: the archive (default: RESULTS_DIR.tar.gz)
# Summarise with benchmarks/scripts/scaling-summary.py RESULTS_DIR.
set -euo pipefail
rounds=$1; results=$2
java=${JAVA:-java}; jar=${JAR:-benchmarks/target/benchmarks.jar}; pack=${PACK:-$results.tar.gz}
mkdir -p "$results"
. "$(dirname "$0")/progress.sh"
began=$(date +%s)
{
    echo "cores: $(nproc)"
    grep -m1 'model name' /proc/cpuinfo || true
    "$java" -version 2>&1 | head -1
} | tee "$results/machine.txt"
queues=ScqQueue,LscqQueue,MpmcArrayQueue,MpmcUnboundedXaddArrayQueue,ArrayBlockingQueue,ConcurrentLinkedQueue
for ((r = 1; r <= rounds; r++)); do
    echo "round $r load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results/machine.txt"
    for tg in 1 2 4 8; do
        echo "round $r: queues ${tg}P${tg}C"
        "$java" -jar "$jar" 'QueueProducerConsumer.p1c1' -p impl=$queues -tg "$tg,$tg" \
            -f 1 -wi 1 -w 1s -i 2 -r 1s -rf json -rff "$results/queues-${tg}x${tg}-r$r.json" \
            > "$results/queues-${tg}x${tg}-r$r.log" 2>&1 || echo "FAILED queues $tg round $r"
    done
    echo "round $r: rings"
    "$java" -jar "$jar" '(Unicast|Pipeline|Diamond|Multicast|Sequencer)Throughput' \
        -p impl=slipstream,lmax -p wait=busyspin -f 1 -wi 2 -w 1s -i 2 -r 1s \
        -rf json -rff "$results/rings-r$r.json" > "$results/rings-r$r.log" 2>&1 \
        || echo "FAILED rings round $r"
    tar -czf "$pack" -C "$(dirname "$results")" "$(basename "$results")"
    echo "round $r/$rounds done at $(date -u +%T), $(progress_left "$began" "$r" "$rounds")"
done
