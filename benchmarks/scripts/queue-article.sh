#!/usr/bin/env bash
# The LSCQ article's six workloads (ArticleWorkloads) for every queue, one JVM per queue,
# workload, thread count and round (as JMH forks one JVM per benchmark: a JVM compiles a queue's
# methods once, with the profile of what ran before), the queues interleaved within each cell
# (the starting queue rotates every round), the 1-minute load printed before each JVM. Writes
# the raw output and a median table to OUTDIR.
#
# Usage: benchmarks/scripts/queue-article.sh OUTDIR [ROUNDS] [OPS] [THREADS]
#   ROUNDS   rounds (default 7; every queue runs every cell once per round)
#   OPS      operations per thread per run (default 1000000; DequeueOnlyEmpty runs 64 times as
#            many, see ArticleWorkloads)
#   THREADS  thread counts, comma-separated (default 1,2,4,8)
#   env WARMUPS, RUNS  unmeasured and measured runs per workload in each JVM (default 2 and 3;
#            the JVM reports the median of its measured runs)
#   env QUEUES   the queues (default: all eight below); an entry LABEL=JAR:QUEUE runs QUEUE from
#            another benchmarks jar under the name LABEL (to compare builds side by side; the
#            summary then also gives every side's ratios against the first one)
#   env WORKLOADS the workloads (default: all six, as ArticleWorkloads names them); an entry of
#            several workloads joined by commas runs them one after the other in one JVM
#   env JAR      the benchmarks jar (default benchmarks/target/benchmarks.jar)
#   env JVM_OPTS JVM options (default "-Xms1g -Xmx1g")
# Output: OUTDIR/raw/QUEUE-WORKLOAD-THREADS-ROUND.txt (the program's output), OUTDIR/load.txt (load before each
# JVM), OUTDIR/summary.md (median ns/op per queue, workload and thread count; the ratios the
# targets name, as medians of per-round ratios with their range).
# Build first: mvn -B -q -pl benchmarks -am package -DskipTests
# Measure on an idle machine only (load below 0.3): this script runs nothing else.
set -euo pipefail
out=${1:?usage: queue-article.sh OUTDIR [ROUNDS] [OPS] [THREADS]}
rounds=${2:-7}
ops=${3:-1000000}
warmups=${WARMUPS:-2}
runs=${RUNS:-3}
threads=${4:-1,2,4,8}
jar=${JAR:-benchmarks/target/benchmarks.jar}
jvm_opts=${JVM_OPTS:-"-Xms1g -Xmx1g"}
read -r -a workloads <<< "${WORKLOADS:-EnqueueOnly DequeueOnlyEmpty Pair 50Enqueue50Dequeue 30Enqueue70Dequeue 70Enqueue30Dequeue}"
read -r -a queues <<< "${QUEUES:-LprqQueue LscqQueue ScqQueue LinkedBlockingQueue ArrayBlockingQueue ConcurrentLinkedQueue MpmcUnboundedXaddArrayQueue MpmcArrayQueue}"
[[ -f $jar ]] || { echo "no $jar: build it first (mvn -B -q -pl benchmarks -am package -DskipTests)"; exit 1; }
mkdir -p "$out/raw"
# every side of a round runs from a jar path of the same length (see layout.sh)
. "$(dirname "$0")/layout.sh"
LAYOUT_DIR=$(mktemp -d)
. "$(dirname "$0")/progress.sh"
: > "$out/load.txt"
began=$(date +%s)
echo "java: $(java -version 2>&1 | head -1); cpus: $(nproc); rounds $rounds, ops $ops, threads $threads, $warmups warm-up and $runs measured runs per JVM" | tee "$out/setup.txt"
n=${#queues[@]}
for ((r = 1; r <= rounds; r++)); do
    echo "round $r/$rounds: $(progress_left "$began" $((r - 1)) "$rounds")"
    for t in ${threads//,/ }; do
        for w in "${workloads[@]}"; do
            for ((k = 0; k < n; k++)); do
                side=${queues[$(((k + r - 1) % n))]}
                label=$side; q=$side; side_jar=$jar
                if [[ $side == *=* ]]; then
                    label=${side%%=*}; rest=${side#*=}; side_jar=${rest%%:*}; q=${rest#*:}
                fi
                side_jar=$(layout_jar "$r" "$k" "$side_jar")
                load=$(cut -d' ' -f1 /proc/loadavg)
                echo "round $r $t threads $w $label load $load" | tee -a "$out/load.txt"
                log="$out/raw/$label-$w-$t-$r.txt"
                # shellcheck disable=SC2086
                java $jvm_opts -cp "$side_jar" dev.slipstream.bench.queue.ArticleWorkloads "$q" "$t" "$ops" "$warmups" "$runs" "$w" \
                    > "$log" 2>&1 || { echo "FAILED: $label $w $t threads round $r (see $log)"; exit 1; }
            done
        done
    done
done
rm -rf "$LAYOUT_DIR"
echo "took $(( $(date +%s) - began )) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/setup.txt"
python3 - "$out" "$rounds" "${workloads[*]}" "${queues[@]%%=*}" <<'PY' | tee "$out/summary.md"
import collections, os, re, statistics, sys
out, rounds, workloads, queues = sys.argv[1], int(sys.argv[2]), sys.argv[3].replace(",", " ").split(), sys.argv[4:]
pat = re.compile(r"RESULT queue=(\S+) workload=(\S+) threads=(\d+) ops=(\d+) ns_per_op=([0-9.]+)")
ns = collections.defaultdict(dict)  # (queue, workload, threads) -> {round: ns}
for name in os.listdir(os.path.join(out, "raw")):
    label, w, t, r = name[:-len(".txt")].rsplit("-", 3)
    for line in open(os.path.join(out, "raw", name)):
        m = pat.match(line)
        if m and label in queues and int(r) <= rounds:
            ns[(label, m[2], int(m[3]))][int(r)] = float(m[5])
counts = sorted({k[2] for k in ns})
setup = open(os.path.join(out, "setup.txt")).read().strip().replace("\n", "; ")
print(f"# The LSCQ article's workloads: median ns/op over {rounds} interleaved rounds (lower is better)\n")
print(f"{setup}\n")
print("One operation is one offer or poll (Pair: one offer and one poll). The article's Go LSCQ: "
      "Pair 36.7 ns/op on one CPU, 56.1 ns/op at 16 threads (its lock-based queue: 290 ns/op).\n")
for t in counts:
    print(f"## {t} thread{'s' if t > 1 else ''}\n")
    print("| workload | " + " | ".join(queues) + " |")
    print("| --- | " + " | ".join("---:" for _ in queues) + " |")
    for w in workloads:
        cells = []
        for q in queues:
            v = ns.get((q, w, t))
            x = statistics.median(v.values()) if v else None
            cells.append("-" if x is None else f"{x:.2f}" if x < 10 else f"{x:.1f}")
        print(f"| {w} | " + " | ".join(cells) + " |")
    print()
def ratio(peer, mine, w, t):
    a, b = ns.get((peer, w, t)), ns.get((mine, w, t))
    if not a or not b:
        return None
    rs = [a[r] / b[r] for r in a if r in b]  # per round: peer ns over mine = my speed-up
    return statistics.median(rs), min(rs), max(rs)
known = {"LprqQueue", "LscqQueue", "ScqQueue", "LinkedBlockingQueue", "ArrayBlockingQueue", "ConcurrentLinkedQueue",
         "MpmcUnboundedXaddArrayQueue", "MpmcArrayQueue"}
# a side given as LABEL=JAR:QUEUE is a build compared with the first side
builds = [(label, queues[0], None, None) for label in queues[1:] if label not in known]
targets = builds + [("LprqQueue", "ConcurrentLinkedQueue", 1.0, None), ("LprqQueue", "MpmcUnboundedXaddArrayQueue", 1.0, None),
           ("LprqQueue", "LinkedBlockingQueue", 0.5, 2), ("LprqQueue", "LscqQueue", None, None),
           ("ScqQueue", "ArrayBlockingQueue", None, None)]
print("## Ratios (peer ns/op over the queue's ns/op: above 1.0 the queue is faster), median [min-max] of per-round ratios\n")
for mine, peer, target, only in targets:
    if mine not in queues or peer not in queues:
        continue
    label = f"{mine} vs {peer}" + (f" (target >= {target}" + (f" at {only} threads)" if only else " at 2 and 8 threads)") if target else "")
    print(f"### {label}\n")
    print("| workload | " + " | ".join(f"{t} T" for t in counts) + " |")
    print("| --- | " + " | ".join("---:" for _ in counts) + " |")
    for w in workloads:
        cells = []
        for t in counts:
            x = ratio(peer, mine, w, t)
            if x is None:
                cells.append("-")
                continue
            flag = ""
            if target is not None and (t == only or (only is None and t in (2, 8))) and x[0] < target:
                flag = " **below**"
            cells.append(f"{x[0]:.2f} [{x[1]:.2f}-{x[2]:.2f}]{flag}")
        print(f"| {w} | " + " | ".join(cells) + " |")
    print()
PY
