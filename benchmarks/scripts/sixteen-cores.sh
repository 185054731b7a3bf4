#!/usr/bin/env bash
# Everything that needs many cores, in one run of under nine minutes on a 16-core machine, written
# under one folder (OUT_DIR) and packed into one archive after every part, so that a run cut short
# keeps every part it finished:
#
#   article  the LSCQ article's tight loop (ArticleWorkloads, through queue-article.sh), Pair and
#            50/50, at 16, 8 and 4 threads: LprqQueue, its candidates (LprqQueue-WAIT_FOR_OFFER,
#            LprqQueue-BACK_OFF: LprqQueue.Contention; LprqQueue-64K: rings of 65,536), LscqQueue,
#            LinkedBlockingQueue, ConcurrentLinkedQueue, JCTools' MpmcUnboundedXaddArrayQueue
#   work     the same cells by the LCRQ and LPRQ papers' method: a small random amount of work
#            after every operation (-Dslipstream.article.work=WORK multiply-adds at most)
#   counters the unbounded queues' counters (QueueCounters: positions missed, cells passed, rings
#            closed and added, CASes lost, per million operations) on Pair and 50/50 at 4, 8 and
#            16 threads, one round, in JVMs of their own (counting costs time: not a timing)
#   bounded  producers and consumers on one bounded queue (JMH QueueProducerConsumer.p1c1 with
#            -tg N,N) at 2P2C, 4P4C and 8P8C: ScqQueue, the candidates SlotSequenceQueue and
#            SlotSequenceQueue-BACK_OFF, ArrayBlockingQueue, JCTools' MpmcArrayQueue
#   profile  flame graphs (async-profiler, found in benchmarks/target/async-profiler after the
#            build, or ASYNC_PROFILER) of LprqQueue, its two contention candidates and
#            LinkedBlockingQueue on Pair and 50/50 at 16 threads, and of ScqQueue, both
#            SlotSequenceQueue candidates and ArrayBlockingQueue at 8P8C; not a measurement to quote
#   rings    the continuous stream (ContinuousThroughput, through continuous.sh), every topology,
#            yielding and busy-spin, Slipstream's builder against LMAX Disruptor
#   aeron    the Aeron bridge against raw Aeron over IPC and UDP loopback: throughput (JMH
#            AeronBridgeThroughput) and one-way latency at a paced rate (AeronBridgeBench)
#   cluster  the clustered pipeline's round trip against a plain Aeron Cluster echo
#            (ClusterRoundTripBench, three members and the client in one JVM) at 10,000 and
#            50,000 commands/s, the members' agents, the stage and the client busy-spinning
#            (--member-idle busy-spin, --ring-wait spin, --client-idle spin), the client on
#            member 0's media driver, and every agent, stage and client thread pinned to a CPU of
#            its own (pin-threads.sh, by thread name); p50/p99/p99.9/max
#
# Every part runs ROUNDS rounds; a round runs every cell of the part once, each side in its own
# JVM (one JMH fork), with the sides' order rotated from round to round, so that the sides
# interleave and a cell's median is taken over several short JVMs rather than one long one.
# Before each part, OUT_DIR/PART/machine.txt records the time, lscpu, nproc, uname -a, the JDK,
# free memory and the load average. The plan (each part's seconds, computed from the settings
# below) is printed first; the script refuses to start when it exceeds LIMIT_S. While it runs,
# each part may use its own planned time plus whatever the parts before it left unused: a part
# still running when only the later parts' planned time is left is stopped, and the rounds it
# finished are kept.
#
# Usage: benchmarks/scripts/sixteen-cores.sh OUT_DIR [--quick] [--plan]
#   --plan   print the plan and stop
#   --quick  a tiny version (one round, 1 and 2 threads, one short run or iteration per JVM, every
#            part, JMH's machine lock ignored) to check the script on a small machine; its figures
#            mean nothing
#   env JAVA           the java binary (default: java on the PATH; its folder is put first on the
#                      PATH, so the scripts this one calls use it too)
#   env JAR            the benchmarks jar (default: benchmarks/target/benchmarks.jar)
#   env PACK           the archive (default: OUT_DIR.tar.gz)
#   env ROUNDS         rounds of every part (default 3; --quick: 1)
#   env PARTS          the parts to run, in this order (default: article work counters bounded profile
#                      rings aeron; cluster is run only when named); two sets that each fit the
#                      limit with room to spare: PARTS=queues (article work counters bounded
#                      profile) and PARTS=engine (rings aeron cluster)
#   env ASYNC_PROFILER path to async-profiler's libasyncProfiler.so (default: the one the build
#                      unpacked under benchmarks/target/async-profiler; none: no profile part)
#   env ASYNC_EVENT    its event (default itimer, which needs no perf events; cpu where they exist)
#   env LIMIT_S        the most seconds the plan may take (default 540; --quick: 240)
# Summarise with: benchmarks/scripts/sixteen-summary.py OUT_DIR [OUT_DIR...]
# Build first: mvn -B -q -pl benchmarks -am package -DskipTests
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

part_mode=""
if [[ ${1:-} == --part ]]; then
    part_mode=$2
    shift 2
fi
[[ $# -ge 1 ]] || { echo "usage: sixteen-cores.sh OUT_DIR [--quick] [--plan]" >&2; exit 1; }
plan_only=0
for arg in "${@:2}"; do
    case $arg in
    --quick) export QUICK=1 ;;
    --plan) plan_only=1 ;;
    *) echo "unknown option $arg; usage: sixteen-cores.sh OUT_DIR [--quick] [--plan]" >&2; exit 1 ;;
    esac
done
QUICK=${QUICK:-0}
mkdir -p "$1"
out=$(cd "$1" && pwd)
pack=${PACK:-$out.tar.gz}
jar=${JAR:-$root/benchmarks/target/benchmarks.jar}
java=${JAVA:-java}
if [[ $java == */* ]]; then
    PATH="$(cd "$(dirname "$java")" && pwd):$PATH"
    export PATH
fi
[[ -f $jar ]] || { echo "no $jar: build it first (mvn -B -q -pl benchmarks -am package -DskipTests)" >&2; exit 1; }
jar=$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")

# ---------------------------------------------------------------------------------------------
# The budget. Every figure of the plan comes from these settings: a JMH fork costs
# JMH_FORK_S (JVM start, setup, teardown) plus its iterations (warm-up + measured); every JMH
# command costs JMH_CMD_S more; a plain JVM costs JVM_START_S plus its runs. The article's runs
# last as long as their operations take; the plan prices them at a cost per operation for each
# thread count (ARTICLE_CELLS), from the 16-core VM of 2026-11-27 (Pair and 50/50 at 4-16
# threads, every queue: 190 ns at 16 threads, 140 at 4 and 8) and a guess for one and two threads.
user_limit=${LIMIT_S:-}
LIMIT_S=${LIMIT_S:-540}         # 9 minutes, the whole run
JVM_START_S=0.3
JMH_FORK_S=1.0
JMH_CMD_S=0.5
ROUNDS=${ROUNDS:-3}
PARTS=${PARTS:-article work counters bounded profile rings aeron}
case $PARTS in
queues) PARTS="article work counters bounded profile" ;;
engine) PARTS="rings aeron cluster" ;;
esac
if [[ -z ${ASYNC_PROFILER:-} ]]; then
    for lib in "$root/benchmarks/target/async-profiler/linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')/libasyncProfiler.so"; do
        [[ -f $lib ]] && ASYNC_PROFILER=$lib
    done
fi
ASYNC_EVENT=${ASYNC_EVENT:-itimer}

# article: threads:operations per thread:planned ns per operation; one run moves 500,000
# operations, so every thread count takes about as long (one and two threads, and the article's
# other four workloads, are measured on two cores)
ARTICLE_CELLS="16:31250:190 8:62500:140 4:125000:140"
ARTICLE_QUEUES="LprqQueue LprqQueue-WAIT_FOR_OFFER LprqQueue-BACK_OFF LprqQueue-64K LscqQueue LinkedBlockingQueue
    ConcurrentLinkedQueue MpmcUnboundedXaddArrayQueue"
# one JVM per workload: the two the targets name
ARTICLE_GROUPS="Pair 50Enqueue50Dequeue"

# work: the article's cells with up to WORK multiply-adds (about 1.3 ns each: a dependent
# multiply and add) after every operation, priced at WORK_NS more per operation
WORK=64; WORK_NS=20
ARTICLE_WARMUPS=1               # unmeasured runs per workload in each JVM
ARTICLE_RUNS=3                  # measured runs per workload in each JVM (it reports their median)

# counters: the queues counted, at the article's cells of these thread counts
COUNTER_QUEUES="LprqQueue LprqQueue-WAIT_FOR_OFFER LprqQueue-BACK_OFF LscqQueue"
COUNTER_THREADS="16 8 4"

# bounded: producer/consumer pairs, queues, JMH iterations
BOUNDED_TG="2 4 8"
BOUNDED_QUEUES="ScqQueue SlotSequenceQueue SlotSequenceQueue-BACK_OFF ArrayBlockingQueue MpmcArrayQueue"
BOUNDED_WI=1; BOUNDED_W=400; BOUNDED_I=2; BOUNDED_R=500     # iterations and milliseconds each

# rings: ContinuousThroughput passes (a first pass of 10 M events, then passes of RING_SECONDS)
RING_SHAPES="unicast pipeline sequencer multicast diamond"
RING_WAITS="yielding busyspin"
RING_SECONDS=0.4; RING_PASSES=3
RING_FIRST_S=0.5                # the first (warm-up) pass: 10 M events at 20 M events/s or more

# aeron: JMH throughput forks (bridge, raw) x (ipc, udp), busy-spinning; then a paced latency run
# of each (AERON_MESSAGES at AERON_RATE per second, the first AERON_WARMUP not recorded)
AERON_WAIT=busyspin
AERON_WI=1; AERON_W=1000; AERON_I=2; AERON_R=1000   # iterations and milliseconds each
AERON_FORK_S=1.5                # a fork starts and stops a media driver
AERON_RATE=100000; AERON_MESSAGES=150000; AERON_WARMUP=50000

# cluster: rates, seconds measured after a warm-up, how everything waits
CLUSTER_RATES="10000 50000"
CLUSTER_SECONDS=5; CLUSTER_WARMUP=2
CLUSTER_MEMBER_IDLE=busy-spin; CLUSTER_RING_WAIT=spin; CLUSTER_CLIENT_IDLE=spin
CLUSTER_START_S=4               # three members started and a leader elected, in one JVM
CLUSTER_PIN=${CLUSTER_PIN:-1}   # pin-threads.sh: 1 pins every busy thread to a CPU of its own

# profile: the article's cells at PROFILE_THREADS with the profiler attached as an agent (one
# JVM per queue and workload, PROFILE_OPS operations per thread), and the bounded queues at
# PROFILE_TG pairs under JMH's async profiler
PROFILE_THREADS=16; PROFILE_OPS=100000; PROFILE_NS=190
PROFILE_QUEUES="LprqQueue LprqQueue-WAIT_FOR_OFFER LprqQueue-BACK_OFF LinkedBlockingQueue"
PROFILE_BOUNDED="ScqQueue SlotSequenceQueue SlotSequenceQueue-BACK_OFF ArrayBlockingQueue"
PROFILE_TG=8
PROFILE_INTERVAL_NS=1000000

JMH_HOST_OPTS=""
if [[ $QUICK == 1 ]]; then
    [[ -n $user_limit ]] || LIMIT_S=240
    ROUNDS=1
    ARTICLE_CELLS="2:20000:120 1:20000:40"
    ARTICLE_WARMUPS=0; ARTICLE_RUNS=1
    BOUNDED_TG="1 2"
    BOUNDED_WI=0; BOUNDED_W=200; BOUNDED_I=1; BOUNDED_R=200
    RING_PASS_OPTS="-events 200000 -warmups 0 -passes 1 -ringSize 4096"
    AERON_WI=0; AERON_W=200; AERON_I=1; AERON_R=200
    AERON_RATE=20000; AERON_MESSAGES=20000; AERON_WARMUP=5000
    PROFILE_THREADS=2; PROFILE_OPS=20000; PROFILE_TG=1
    CLUSTER_RATES="2000"; CLUSTER_SECONDS=1; CLUSTER_WARMUP=1
    COUNTER_THREADS="2"
    # two cores cannot hold sixteen spinning threads: the quick form backs off
    CLUSTER_MEMBER_IDLE=backoff; CLUSTER_RING_WAIT=blocking; CLUSTER_CLIENT_IDLE=yield
    JMH_HOST_OPTS="-Djmh.ignoreLock=true"   # measures nothing: do not wait for another JMH run
fi
RING_PASS_OPTS=${RING_PASS_OPTS:-"-seconds $RING_SECONDS -warmups 1 -passes $RING_PASSES"}
# ---------------------------------------------------------------------------------------------

calc() { awk "BEGIN { printf \"%.0f\", $(tr '\n' ' ' <<< "$1") }"; }
count() { wc -w <<< "$1" | tr -d ' '; }

# The planned seconds of a part, from the settings above.
plan_of() {
    local q g runs total=0 cell t ops ns w
    case $1 in
    article|work)
        local extra=0
        [[ $1 == work ]] && extra=$WORK_NS
        q=$(count "$ARTICLE_QUEUES"); g=$(count "$ARTICLE_GROUPS")
        w=$(count "$(tr ',' ' ' <<< "$ARTICLE_GROUPS")")
        runs=$((ARTICLE_WARMUPS + ARTICLE_RUNS))
        for cell in $ARTICLE_CELLS; do
            IFS=: read -r t ops ns <<< "$cell"
            total=$(calc "$total + $q * ($g * $JVM_START_S + $runs * $w * $t * $ops * ($ns + $extra) / 1e9)")
        done
        calc "$ROUNDS * $total" ;;
    counters)
        for cell in $ARTICLE_CELLS; do
            IFS=: read -r t ops ns <<< "$cell"
            [[ " $COUNTER_THREADS " == *" $t "* ]] || continue
            total=$(calc "$total + $(count "$COUNTER_QUEUES") * ($JVM_START_S + 2 * 2 * $t * $ops * $ns / 1e9)")
        done
        echo "$total" ;;
    bounded)
        calc "$ROUNDS * $(count "$BOUNDED_TG") * ($JMH_CMD_S + $(count "$BOUNDED_QUEUES") * ($JMH_FORK_S
            + ($BOUNDED_WI * $BOUNDED_W + $BOUNDED_I * $BOUNDED_R) / 1000))" ;;
    rings)
        local jvm="$RING_FIRST_S + $RING_PASSES * $RING_SECONDS"
        [[ $QUICK == 1 ]] && jvm=0.5   # one pass of a fixed count of events
        calc "$ROUNDS * $(count "$RING_SHAPES") * $(count "$RING_WAITS") * 2 * ($JVM_START_S + $jvm)" ;;
    aeron)
        calc "$ROUNDS * ($JMH_CMD_S + 4 * ($AERON_FORK_S + ($AERON_WI * $AERON_W + $AERON_I * $AERON_R) / 1000)
            + 4 * ($JVM_START_S + 0.5 + $AERON_MESSAGES / $AERON_RATE))" ;;
    cluster)
        calc "$ROUNDS * 2 * $(count "$CLUSTER_RATES") * ($JVM_START_S + $CLUSTER_START_S + $CLUSTER_WARMUP
            + $CLUSTER_SECONDS)" ;;
    profile)
        if [[ -z ${ASYNC_PROFILER:-} ]]; then echo 0; return; fi
        calc "2 * $(count "$PROFILE_QUEUES") * ($JVM_START_S + 1
                + ($ARTICLE_WARMUPS + $ARTICLE_RUNS) * $PROFILE_THREADS * $PROFILE_OPS * $PROFILE_NS / 1e9)
            + $JMH_CMD_S + $(count "$PROFILE_BOUNDED") * ($JMH_FORK_S + 1
                + ($BOUNDED_WI * $BOUNDED_W + $BOUNDED_I * $BOUNDED_R) / 1000)" ;;
    *) echo "unknown part $1" >&2; return 1 ;;
    esac
}

# The side list rotated by N places (so that every side leads some round).
rotate() {
    local n=$1; shift
    local -a s=("$@")
    local k len=${#s[@]}
    for ((k = 0; k < len; k++)); do printf '%s ' "${s[$(((k + n) % len))]}"; done
}

machine_info() {
    {
        echo "date: $(date -u '+%F %T UTC')"
        echo "nproc: $(nproc)"
        echo "uname: $(uname -a)"
        echo "java: $("$java" -version 2>&1 | tr '\n' ' ')"
        echo "load average: $(cat /proc/loadavg 2>/dev/null || uptime)"
        echo "cpu busy: $(cpu_busy 2>/dev/null || echo unknown)"
        echo "memory:"; free -m 2>/dev/null || head -3 /proc/meminfo
        echo "lscpu:"; lscpu 2>/dev/null || grep -m1 'model name' /proc/cpuinfo || true
    } > "$1"
}

# shellcheck disable=SC2086
jmh() { "$java" $JMH_HOST_OPTS -jar "$jar" "$@"; }

# Per cent of CPU time not idle over half a second, from /proc/stat (a sandbox may show a load
# average of zero whatever runs).
cpu_busy() {
    local a b
    a=($(head -1 /proc/stat)); sleep 0.5; b=($(head -1 /proc/stat))
    local total=0 k
    for k in 1 2 3 4 5 6 7 8; do total=$((total + b[k] - a[k])); done
    local idle=$((b[4] - a[4] + b[5] - a[5]))
    ((total > 0)) && echo "$((100 * (total - idle) / total))%" || echo unknown
}

# The article's cells, every queue, ROUNDS rounds, into OUT_DIR/PART; JVM options in $2.
article_cells() {
    local part=$1 opts=$2 r t ops ns cell dir
    mkdir -p "$out/$part"
    for ((r = 1; r <= ROUNDS; r++)); do
        local queues
        # shellcheck disable=SC2086
        queues=$(rotate $((r - 1)) $ARTICLE_QUEUES)
        for cell in $ARTICLE_CELLS; do
            IFS=: read -r t ops ns <<< "$cell"
            dir="$out/$part/r$r-t$t"
            echo "$part round $r, $t threads, $ops operations per thread, load $(cut -d' ' -f1 /proc/loadavg)"
            JVM_OPTS="$opts" QUEUES="$queues" WORKLOADS="$ARTICLE_GROUPS" WARMUPS=$ARTICLE_WARMUPS RUNS=$ARTICLE_RUNS \
                JAR="$jar" "$here/queue-article.sh" "$dir" 1 "$ops" "$t" > "$dir.log" 2>&1 \
                || echo "FAILED: $part round $r, $t threads (see $dir.log)"
        done
    done
}

part_article() {
    article_cells article "-Xms1g -Xmx1g"
}

part_work() {
    article_cells work "-Xms1g -Xmx1g -Dslipstream.article.work=$WORK"
}

part_counters() {
    local q cell t ops ns log
    mkdir -p "$out/counters"
    for cell in $ARTICLE_CELLS; do
        IFS=: read -r t ops ns <<< "$cell"
        [[ " $COUNTER_THREADS " == *" $t "* ]] || continue
        for q in $COUNTER_QUEUES; do
            log="$out/counters/$q-t$t.log"
            echo "counters $q, $t threads, load $(cut -d' ' -f1 /proc/loadavg)"
            "$java" -Dslipstream.queue.counters=true -cp "$jar" dev.slipstream.bench.queue.ArticleWorkloads "$q" "$t" \
                "$ops" 1 1 Pair,50Enqueue50Dequeue > "$log" 2>&1 || echo "FAILED: counters $q $t threads (see $log)"
        done
    done
}

part_bounded() {
    local r tg impls
    mkdir -p "$out/bounded"
    for ((r = 1; r <= ROUNDS; r++)); do
        # shellcheck disable=SC2086
        impls=$(rotate $((r - 1)) $BOUNDED_QUEUES)
        for tg in $BOUNDED_TG; do
            echo "bounded round $r, ${tg}P${tg}C, load $(cut -d' ' -f1 /proc/loadavg)"
            # shellcheck disable=SC2086
            jmh 'QueueProducerConsumer.p1c1' -p impl="$(tr ' ' ',' <<< "${impls% }")" -tg "$tg,$tg" -f 1 \
                -wi "$BOUNDED_WI" -w "${BOUNDED_W}ms" -i "$BOUNDED_I" -r "${BOUNDED_R}ms" \
                -rf json -rff "$out/bounded/pc-${tg}x${tg}-r$r.json" > "$out/bounded/pc-${tg}x${tg}-r$r.log" 2>&1 \
                || echo "FAILED: bounded round $r ${tg}P${tg}C (see $out/bounded/pc-${tg}x${tg}-r$r.log)"
        done
    done
}

part_rings() {
    local r shape wait cell side
    mkdir -p "$out/rings"
    for ((r = 1; r <= ROUNDS; r++)); do
        local -a sides=("lmax=$jar:lmax" "slipstream=$jar:dsl")
        ((r % 2 == 0)) && sides=("slipstream=$jar:dsl" "lmax=$jar:lmax")
        for wait in $RING_WAITS; do
            for shape in $RING_SHAPES; do
                cell="$out/rings/$shape-$wait"
                mkdir -p "$cell"
                echo "rings round $r, $shape $wait, load $(cut -d' ' -f1 /proc/loadavg)"
                if PASS_OPTS="$RING_PASS_OPTS" KEEP="$cell/keep" "$here/continuous.sh" 1 "$shape" "$wait" "${sides[@]}" \
                        > "$cell/console-$r.txt" 2>&1; then
                    # continuous-table.py reads SIDE-ROUND.log in each cell's folder
                    for side in lmax slipstream; do mv "$cell/keep/$side-1.log" "$cell/$side-$r.log" || true; done
                else
                    echo "FAILED: rings round $r $shape $wait (see $cell/console-$r.txt)"
                fi
                rm -rf "$cell/keep"
            done
        done
    done
}

part_aeron() {
    local r impls channel impl log
    local -a opens=(--add-opens java.base/jdk.internal.misc=ALL-UNNAMED)
    local spin=spin
    [[ $AERON_WAIT == busyspin ]] || spin=yield
    mkdir -p "$out/aeron"
    for ((r = 1; r <= ROUNDS; r++)); do
        impls=$(rotate $((r - 1)) bridge raw)
        echo "aeron round $r, throughput, load $(cut -d' ' -f1 /proc/loadavg)"
        jmh AeronBridgeThroughput -p impl="$(tr ' ' ',' <<< "${impls% }")" -p channel=ipc,udp -p wait="$AERON_WAIT" \
            -f 1 -wi "$AERON_WI" -w "${AERON_W}ms" -i "$AERON_I" -r "${AERON_R}ms" \
            -rf json -rff "$out/aeron/throughput-r$r.json" > "$out/aeron/throughput-r$r.log" 2>&1 \
            || echo "FAILED: aeron throughput round $r (see $out/aeron/throughput-r$r.log)"
        for channel in ipc udp; do
            for impl in $impls; do
                log="$out/aeron/latency-$impl-$channel-r$r.log"
                echo "aeron round $r, latency $impl $channel, load $(cut -d' ' -f1 /proc/loadavg)"
                "$java" "${opens[@]}" -cp "$jar" dev.slipstream.bench.aeron.AeronBridgeBench --mode latency \
                    --impl "$impl" --channel "$channel" --wait "$spin" --rate "$AERON_RATE" \
                    --messages "$AERON_MESSAGES" --warmup "$AERON_WARMUP" > "$log" 2>&1 \
                    || echo "FAILED: aeron latency round $r $impl $channel (see $log)"
            done
        done
    done
}

part_cluster() {
    local r rate impl impls log port=22300
    mkdir -p "$out/cluster"
    for ((r = 1; r <= ROUNDS; r++)); do
        impls=$(rotate $((r - 1)) echo pipeline)
        for rate in $CLUSTER_RATES; do
            for impl in $impls; do
                log="$out/cluster/$impl-$rate-r$r.log"
                echo "cluster round $r, $impl at $rate/s, load $(cut -d' ' -f1 /proc/loadavg)"
                "$java" --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -Xms2g -Xmx2g -cp "$jar" \
                    dev.slipstream.bench.cluster.ClusterRoundTripBench --impl "$impl" --members 3 --rate "$rate" \
                    --seconds "$CLUSTER_SECONDS" --warmup "$CLUSTER_WARMUP" --member-idle "$CLUSTER_MEMBER_IDLE" \
                    --ring-wait "$CLUSTER_RING_WAIT" --client-idle "$CLUSTER_CLIENT_IDLE" --client-driver member \
                    --port "$port" > "$log" 2>&1 &
                local bench=$!
                # every agent, stage and the client on a CPU of its own, during the warm-up
                if [[ $CLUSTER_PIN == 1 ]]; then
                    # five agents per member (the echo has no stage: four), and the client
                    PIN_EXPECT=$([[ $impl == echo ]] && echo 13 || echo 16) \
                        "$here/pin-threads.sh" "$bench" > "${log%.log}-pins.txt" 2>&1 \
                        || echo "FAILED: pinning cluster round $r $impl $rate (see ${log%.log}-pins.txt)"
                fi
                wait "$bench" || echo "FAILED: cluster round $r $impl $rate (see $log)"
                port=$((port == 22300 ? 22400 : 22300))   # the last run's ports may linger a moment
            done
        done
    done
}

part_profile() {
    local q w t=$PROFILE_THREADS tg=$PROFILE_TG dir="$out/profile"
    [[ -n ${ASYNC_PROFILER:-} ]] || { echo "profile: ASYNC_PROFILER not set, skipped"; return 0; }
    [[ -f $ASYNC_PROFILER ]] || { echo "FAILED: profile: no $ASYNC_PROFILER"; return 0; }
    mkdir -p "$dir"
    for w in Pair 50Enqueue50Dequeue; do
        for q in $PROFILE_QUEUES; do
            echo "profile $q $w $t threads, load $(cut -d' ' -f1 /proc/loadavg)"
            "$java" -Xms1g -Xmx1g \
                "-agentpath:$ASYNC_PROFILER=start,event=$ASYNC_EVENT,interval=$PROFILE_INTERVAL_NS,file=$dir/$q-$w-$t.html" \
                -cp "$jar" dev.slipstream.bench.queue.ArticleWorkloads "$q" "$t" "$PROFILE_OPS" \
                "$ARTICLE_WARMUPS" "$ARTICLE_RUNS" "$w" > "$dir/$q-$w-$t.log" 2>&1 \
                || echo "FAILED: profile $q $w (see $dir/$q-$w-$t.log)"
        done
    done
    echo "profile bounded ${tg}P${tg}C, load $(cut -d' ' -f1 /proc/loadavg)"
    jmh 'QueueProducerConsumer.p1c1' -p impl="$(tr ' ' ',' <<< "$PROFILE_BOUNDED")" -tg "$tg,$tg" -f 1 \
        -wi "$BOUNDED_WI" -w "${BOUNDED_W}ms" -i "$BOUNDED_I" -r "${BOUNDED_R}ms" \
        -prof "async:libPath=$ASYNC_PROFILER;output=flamegraph;event=$ASYNC_EVENT;interval=$PROFILE_INTERVAL_NS;dir=$dir/pc-${tg}x${tg}" \
        -rf json -rff "$dir/pc-${tg}x${tg}.json" > "$dir/pc-${tg}x${tg}.log" 2>&1 \
        || echo "FAILED: profile bounded (see $dir/pc-${tg}x${tg}.log)"
}

if [[ -n $part_mode ]]; then
    "part_$part_mode"
    exit 0
fi

# ---------------------------------------------------------------------------------------------
exec > >(tee -a "$out/run.log") 2>&1
began=$(date +%s)
declare -A plan
total=0
for p in $PARTS; do
    plan[$p]=$(plan_of "$p")
    total=$((total + plan[$p]))
done
{
    echo "sixteen-cores.sh $([[ $QUICK == 1 ]] && echo "--quick ")into $out, $(date -u '+%F %T UTC')"
    echo "jar: $jar"
    echo "code: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD -- 2>/dev/null || echo ' (with local changes)')"
    echo "cpus: $(nproc); java: $("$java" -version 2>&1 | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "rounds: $ROUNDS; parts: $PARTS"
    for p in $PARTS; do echo "plan: $p ${plan[$p]} s"; done
    echo "plan: total $total s (limit $LIMIT_S s)"
    if [[ $QUICK == 0 ]] && (($(nproc) < 16)); then
        echo "WARNING: $(nproc) CPUs; the settings are sized for 16 (busy-spinning threads and 16 queue threads need a core each)"
    fi
} | tee "$out/plan.txt"
if ((total > LIMIT_S)); then
    echo "REFUSED: the plan takes $total s, over the limit of $LIMIT_S s: lower ROUNDS or leave parts out (PARTS=...)"
    exit 2
fi
((plan_only == 0)) || exit 0

pack_now() {
    mkdir -p "$(dirname "$pack")"
    { tar -czf "$pack.tmp" -C "$(dirname "$out")" "$(basename "$out")" && mv "$pack.tmp" "$pack"; } \
        || echo "FAILED: could not write $pack"
}

deadline=$((began + LIMIT_S))
read -r -a order <<< "$PARTS"
for ((i = 0; i < ${#order[@]}; i++)); do
    p=${order[$i]}
    ((plan[$p] > 0)) || { echo "part $p: nothing to run"; continue; }
    mkdir -p "$out/$p"
    machine_info "$out/$p/machine.txt"
    later=0
    for ((j = i + 1; j < ${#order[@]}; j++)); do later=$((later + plan[${order[$j]}])); done
    cap=$((deadline - $(date +%s) - later))
    if ((cap < 10)); then
        echo "part $p: SKIPPED, $cap s left for it" | tee -a "$out/parts.txt"
        continue
    fi
    echo "part $p: start $(date -u +%T), planned ${plan[$p]} s, stopped after $cap s, load $(cut -d' ' -f1-3 /proc/loadavg)"
    start=$(date +%s)
    rc=0
    timeout -k 5 "$cap" bash "$0" --part "$p" "$out" || rc=$?
    took=$(($(date +%s) - start))
    if ((rc == 124 || rc == 137)); then
        echo "part $p: CUT after $took s (planned ${plan[$p]} s); the rounds it finished are kept" | tee -a "$out/parts.txt"
    else
        echo "part $p: took $took s (planned ${plan[$p]} s), rc $rc" | tee -a "$out/parts.txt"
    fi
    pack_now
done
echo "done in $(($(date +%s) - began)) s; load $(cut -d' ' -f1-3 /proc/loadavg); archive $pack"
pack_now
