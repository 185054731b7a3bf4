#!/usr/bin/env bash
# What the journal costs, like for like: every case runs in a JVM of its own, the cases of a
# round one after the other, the rounds repeated (interleaved: A B C ... A B C ...), with the
# load average recorded before every run and the machine, filesystem and device at the start.
#
# Latency cases, at each rate (64-byte payloads; every event timed from when it was due, so
# coordinated omission is handled; HdrHistogram p50 / p99 / p99.9):
#   control           paced producer -> ring -> no-op stage -> recording stage
#   slipstream-batch  the same with the journal stage, SyncPolicy.everyBatch()
#   slipstream-500us  ... SyncPolicy.atMostEvery(500 us)
#   slipstream-never  ... SyncPolicy.never()
#   slipstream-never-pretouch  ... SyncPolicy.never() with JournalConfig.pretouch(true) (not in the
#                     default CASES; any slipstream case takes the -pretouch suffix)
#   chronicle-sync    the same with Chronicle Queue, syncMode(SYNC) + appender.sync() per batch
#                     (msync MS_SYNC: waits for the device, as everyBatch() does)
#   limit-mapped      no pipeline: write the same 80-byte records into a mapping, msync each batch
#   limit-channel     no pipeline: FileChannel.write + force(false) (fdatasync) each batch
# Throughput cases (no sync on either side): append and replay, slipstream and chronicle.
# Every latency run also reports the minor page faults of its measured seconds, of the journal
# stage's thread (minflt-stage) and of the whole process (minflt-process), from /proc.
# The pipeline waits suit the cores (JournalBench --wait auto: blocking waits below 4 cores, so
# the paced producer is the only busy thread).
#
# At the end, per rate: each case's median p50/p99/p99.9; the journal's cost as the median of the
# per-round differences from the control (us) and ratios to it; everyBatch() against the limit
# plus the control's hop (ratio of medians per round); Chronicle (sync) / Slipstream (everyBatch)
# per round (>1 favours Slipstream); append and replay ratios.
#
# Usage: benchmarks/scripts/journal-like-for-like.sh [ROUNDS] [RATES]
#   ROUNDS default 7 (at least 7 for a published figure); RATES default 10000,100000,1000000
#   env JAR       the benchmarks jar (default benchmarks/target/benchmarks.jar;
#                 build: mvn -B -q -pl benchmarks -am package -DskipTests)
#   env CASES     latency cases (default: all of the above, comma-separated)
#   env SECONDS_MEASURED  measured seconds per latency run after a 1 s warm-up (default 2)
#   env RECORDS   events per throughput run (default 4000000)
#   env DIR       where the journals are written (default /tmp): the filesystem under test
#   env STRACE=1  wrap round 1's slipstream-batch and chronicle-sync runs at the first rate in
#                 strace -f -C -e trace=msync,fsync,fdatasync; counts and flags go to OUT.strace.*
#   env OUT       where the raw RESULT lines go (default a temporary file, printed at the start)
#   env THROUGHPUT=0  skip the throughput runs (latency cases only)
#   env SEGMENT_MIB   the Slipstream journal's segment size in the latency runs (default 256: no
#                 roll within a 3 s run at 1M events/s; 16 rolls about every 0.2 s)
# Run time with the defaults: about 15 minutes (7 rounds x 3 rates x 7 cases x ~5 s, plus throughput).
#
# The pretoucher's ablation (never() with and without it, against the control, at 1M events/s;
# about 2 minutes per segment size: 7 rounds x 3 cases x ~5 s):
#   THROUGHPUT=0 CASES=control,slipstream-never,slipstream-never-pretouch \
#       benchmarks/scripts/journal-like-for-like.sh 7 1000000
#   THROUGHPUT=0 SEGMENT_MIB=16 CASES=control,slipstream-never,slipstream-never-pretouch \
#       benchmarks/scripts/journal-like-for-like.sh 7 1000000
set -euo pipefail
rounds=${1:-7}
rates=${2:-10000,100000,1000000}
jar=${JAR:-benchmarks/target/benchmarks.jar}
cases=${CASES:-control,slipstream-batch,slipstream-500us,slipstream-never,chronicle-sync,limit-mapped,limit-channel}
seconds=${SECONDS_MEASURED:-2}
records=${RECORDS:-4000000}
throughput=${THROUGHPUT:-1}
segment_mib=${SEGMENT_MIB:-256}
dir=${DIR:-/tmp}
out=${OUT:-$(mktemp /tmp/journal-like-for-like.XXXXXX)}
# Chronicle Queue reaches JDK internals (its documented flags for Java 17+) and phones home unless told not to.
chronicle_flags=(--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
    --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED
    -Dchronicle.analytics.disable=true -Dchronicle.announcer.disable=true)
[[ -f $jar ]] || { echo "no $jar: build it with mvn -B -q -pl benchmarks -am package -DskipTests" >&2; exit 1; }
(( rounds >= 7 )) || echo "NOTE: $rounds rounds: fewer than 7, not enough for a published figure"
strace_bin=""
if [[ ${STRACE:-0} == 1 ]]; then
    strace_bin=$(command -v strace || true)
    [[ -n $strace_bin ]] || echo "NOTE: STRACE=1 but strace is not installed: no system-call counts this time"
fi
: > "$out"
{
    echo "# journal-like-for-like: $(date -u +%FT%TZ), rounds $rounds, rates $rates, seconds $seconds"
    echo "# java: $(java -version 2>&1 | head -1); cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo || true)"
    echo "# uptime: $(uptime)"
    echo "# slipstream segment size in the latency runs: $segment_mib MiB"
    echo "# filesystem: $(df -T "$dir" | tail -1)"
    src=$(findmnt -n -o SOURCE --target "$dir" 2>/dev/null || true)
    echo "# mount: $(findmnt -n -o SOURCE,FSTYPE,OPTIONS --target "$dir" 2>/dev/null || echo unknown)"
    dev=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1 || true); dev=${dev:-$(basename "${src:-unknown}")}
    echo "# device: $dev, model $(cat /sys/block/"$dev"/device/model 2>/dev/null || echo unknown)," \
        "rotational $(cat /sys/block/"$dev"/queue/rotational 2>/dev/null || echo unknown)," \
        "write cache $(cat /sys/block/"$dev"/queue/write_cache 2>/dev/null || echo unknown)"
} | tee -a "$out"
echo "raw results: $out"
run() {   # round, label, JournalBench options...
    local round=$1 label=$2; shift 2
    local wrap=()
    if [[ -n $strace_bin && $round == 1 && ( $label == slipstream-batch@first || $label == chronicle-sync@first ) ]]; then
        wrap=("$strace_bin" -f -C -e trace=msync,fsync,fdatasync -o "$out.strace.${label%@first}")
    fi
    echo "# round $round $label $*: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
    "${wrap[@]}" java -Xms1g -Xmx1g -XX:+AlwaysPreTouch "${chronicle_flags[@]}" -cp "$jar" \
        dev.slipstream.bench.journal.JournalBench --dir "$dir" "$@" 2>/dev/null \
        | grep '^RESULT' | sed "s/^RESULT /RESULT round=$round /" | tee -a "$out"
}
first_rate=${rates%%,*}
for ((r = 1; r <= rounds; r++)); do
    if [[ $throughput != 0 ]]; then
        for impl in slipstream chronicle; do
            run "$r" "$impl" --test throughput --impl "$impl" --records "$records"
        done
    fi
    for rate in ${rates//,/ }; do
        for c in ${cases//,/ }; do
            label=$c; [[ $rate == "$first_rate" ]] && label="$c@first"
            run "$r" "$label" --test latency --case "$c" --rate "$rate" --seconds "$seconds" --segment-mib "$segment_mib"
        done
    done
done
echo "# uptime after: $(uptime)" | tee -a "$out"
for f in "$out".strace.*; do
    [[ -f $f ]] || continue
    echo "== $f: calls by flag"
    grep -oE '(msync|fsync|fdatasync)\([^)]*\)' "$f" | sed -E 's/\(0x[0-9a-f]+, [0-9]+, /(/; s/\([0-9]+\)/(fd)/' | sort | uniq -c || true
    echo "== $f: summary"
    sed -n '/% time/,$p' "$f"
done
python3 - "$out" <<'PY'
import statistics, sys
from collections import defaultdict
rows = defaultdict(dict)   # (impl, test, figure) -> round -> value
for line in open(sys.argv[1]):
    if not line.startswith("RESULT"):
        continue
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    rows[(f["impl"], f["test"], f["figure"])][int(f["round"])] = float(f["value"])
def med(impl, test, fig):
    v = rows.get((impl, test, fig), {})
    return statistics.median(v.values()) if v else None
def per_round(a, b, test, fig, op):
    x, y = rows.get((a, test, fig), {}), rows.get((b, test, fig), {})
    vals = [op(x[r], y[r]) for r in sorted(set(x) & set(y)) if y[r] != 0]
    return (statistics.median(vals), min(vals), max(vals), len(vals)) if vals else None
def fmt(t, unit=""):
    return "-" if t is None else f"{t[0]:,.2f}{unit} ({t[1]:,.2f}-{t[2]:,.2f}, {t[3]} rounds)"
for fig in ("append", "replay"):
    if med('slipstream', 'throughput', fig) is None:
        continue
    print(f"throughput {fig}: slipstream {med('slipstream','throughput',fig) or 0:,.0f} ev/s, chronicle "
          f"{med('chronicle','throughput',fig) or 0:,.0f} ev/s, ratio slipstream/chronicle "
          f"{fmt(per_round('slipstream','chronicle','throughput',fig, lambda a,b: a/b))}")
tests = sorted({t for (_, t, _) in rows if t.startswith("latency-")}, key=lambda t: int(t.split("-")[1]))
impls = sorted({i for (i, t, _) in rows if t.startswith("latency-")})
for test in tests:
    print(f"\n{test} events/s: median over rounds, us (rate kept)")
    for impl in impls:
        vals = [med(impl, test, f) for f in ("p50", "p99", "p999", "rate")]
        if vals[0] is not None:
            print(f"  {impl:<26} p50 {vals[0]:>10,.1f}  p99 {vals[1]:>10,.1f}  p99.9 {vals[2]:>10,.1f}  rate {vals[3]:>12,.0f}")
    for impl in impls:
        faults = [med(impl, test, f) for f in ("minflt-stage", "minflt-process")]
        if faults[0] is not None:
            print(f"  {impl:<26} minor faults in the measured seconds: stage thread {faults[0]:>10,.0f}"
                  f"  process {faults[1]:>10,.0f}")
    for impl in impls:
        if not impl.endswith("-pretouch") or impl[:-len("-pretouch")] not in impls:
            continue
        for fig in ("p50", "p99", "p999"):
            print(f"  {impl} / {impl[:-len('-pretouch')]} {fig} (<1 favours the pretoucher): "
                  f"{fmt(per_round(impl, impl[:-len('-pretouch')], test, fig, lambda a, b: a / b))}")
    for impl in impls:
        if not impl.startswith("slipstream-"):
            continue
        for fig in ("p50", "p99", "p999"):
            print(f"  {impl} {fig}: cost over control {fmt(per_round(impl,'control',test,fig, lambda a,b: a-b),' us')};"
                  f" ratio to control {fmt(per_round(impl,'control',test,fig, lambda a,b: a/b))}")
    for fig in ("p50", "p99", "p999"):
        x = rows.get(("slipstream-batch", test, fig), {}); l = rows.get(("limit-mapped", test, fig), {})
        c = rows.get(("control", test, fig), {})
        vals = [x[r] / (l[r] + c[r]) for r in sorted(set(x) & set(l) & set(c)) if l[r] + c[r] > 0]
        if vals:
            print(f"  everyBatch / (limit-mapped + control) {fig}: {statistics.median(vals):.2f} "
                  f"({min(vals):.2f}-{max(vals):.2f}, {len(vals)} rounds)")
        t = per_round("chronicle-sync", "slipstream-batch", test, fig, lambda a, b: a / b)
        if t:
            print(f"  chronicle-sync / slipstream-batch {fig} (>1 favours slipstream): {fmt(t)}")
PY
