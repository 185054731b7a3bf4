#!/usr/bin/env bash
# Failover of a three-member cluster as a client sees it, and the price of a fast one: elections
# nobody needed on a loaded machine. Three member processes on this machine (loopback, UDP ports
# BASE_PORT to BASE_PORT+24, 28400 by default), run by dev.slipstream.cluster.FailoverBench from
# the cluster module's test classes (the same MemberProcess and ProcessCluster as FailoverTest).
#
# The full measurements (on an otherwise idle machine: check `uptime` first):
#
#   benchmarks/scripts/failover.sh kills --configs "default fast" --kills 20
#   benchmarks/scripts/failover.sh false-elections --configs fast --minutes 10 --rate 10000 --burners 2
#
# Short checks (a few minutes in all):
#
#   benchmarks/scripts/failover.sh kills --configs fast --kills 3
#   benchmarks/scripts/failover.sh false-elections --configs fast --minutes 1
#
# kills: per configuration, a client sends COMMANDS/s (--rate, default 1000) without a pause;
#   every --gap-ms (default 1000) of steady load the leader is killed with SIGKILL, the time from
#   the kill to the answer of the first command sent after it is taken, and the dead member is
#   started again and catches up before the next kill. One line per kill:
#     kill 3/20 fast: leader 1 killed at 9,252 answered; new leader 2; kill to first answer 817 ms
#     (detect 538, canvass 2, nominate 6, ballot 108, takeover 137, event 12, answer 14); re-sends
#     to the dead leader 0
#   where the phases, in ms, are: detect, the kill to the new leader's election start (the
#   followers' leader heartbeat timeout); canvass, nominate, ballot, the new leader's election
#   states (sampled every millisecond: a phase it went through faster reads ?); takeover, its win
#   to the election's end (the followers join its log); event, the election's end to the client's
#   new-leader event; answer, that event to the first answer. "re-sends to the dead leader" counts
#   what the client's timer re-sent before the event: 0 when its timer follows the members'
#   settings. Then per configuration: median, min and max of kill to first answer, the median of
#   each phase, and the check below.
# false-elections: per configuration, no kill: --burners busy-loop processes (default: one per
#   core) load the machine while a client sends --rate commands/s (default 10000) for --minutes
#   (default 10). A progress line every 10 s (sent, answered, rate, elections so far, load); at
#   the end the number of elections: the most any member's election counter rose (each election
#   counts once on every member that took part), and the leader changes the client saw.
#
# Both end with the check: every command answered once, and every member's state holds each
# command sent exactly once: "acknowledged commands lost 0, applied twice 0" (exit status 1 if
# not, and for a run that failed).
#
# Configurations (--configs, separated by spaces):
#   default   Aeron's defaults: leader heartbeat timeout 10 s, interval 200 ms, election timeout
#             1 s, election status interval 100 ms (MemberConfig.of)
#   fast      MemberConfig.withFastFailover(): 500 ms, 20 ms, 50 ms, 20 ms
#   <ms>      a leader heartbeat timeout in milliseconds, Aeron's other defaults (FailoverTest ran
#             with 3000 until the fast preset)
#   hb=500,interval=50,election=200,status=20   milliseconds by name (those not named: hb 10 s,
#             election 1 s, interval 50 ms, status 20 ms)
# The client re-sends after what ClusterCommandClient.Context.resendAfterFailoverOf gives for the
# configuration (printed at the start).
#
# Options: --kills N (20), --rate N, --minutes M, --burners N, --gap-ms G, --base-port P (28400),
#   --verbose true (every surviving member's election states, in ms after each kill),
#   --dir D (where the members' directories go, default /tmp/failover-bench; each run's is
#   deleted at its end; 10 minutes at 10,000 commands/s records about 2 GB of log there).
# env SKIP_BUILD=1  use the cluster module's test classes as they are (built with
#                   mvn -B -o -q -pl cluster test-compile); otherwise the script builds them
# env OUT           where the lines go (default a temporary file, named at the start)
# Run time: kills, about (failover + gap + 3 s restart) per kill: 20 kills take about 1.5 minutes
# with fast, 5 minutes with default; false-elections, --minutes per configuration plus 20 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
case $mode in
    kills|false-elections) shift ;;
    *) echo "usage: $0 kills|false-elections [--configs \"default fast\"] [--kills N] [--minutes M] [--rate N]"\
        "[--burners N] [--gap-ms G] [--base-port P] [--verbose true] [--dir D]; see the top of this script" >&2; exit 2 ;;
esac
if [[ $mode == kills ]]; then configs="default fast"; else configs="fast"; fi
burners=$(nproc)
passed=()
while (($#)); do
    case $1 in
        --configs) configs=$2; shift 2 ;;
        --burners) burners=$2; shift 2 ;;
        --kills|--rate|--minutes|--gap-ms|--base-port|--verbose|--dir) passed+=("$1" "$2"); shift 2 ;;
        *) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
[[ $mode == kills ]] || [[ $burners =~ ^[0-9]+$ ]] || { echo "--burners must be a number, was $burners" >&2; exit 2; }
out=${OUT:-$(mktemp /tmp/failover.XXXXXX)}
if [[ -z ${SKIP_BUILD:-} ]]; then
    echo "# building the cluster module's test classes (mvn -B -o -q -pl cluster test-compile)"
    mvn -B -o -q -pl cluster test-compile
fi
cp_file=cluster/target/failover-bench.classpath
if [[ ! -f $cp_file || cluster/pom.xml -nt $cp_file ]]; then
    mvn -B -o -q -pl cluster dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/$cp_file"
fi
cp="cluster/target/test-classes:cluster/target/classes:$(cat "$cp_file")"
pids=()
stop_burners() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    pids=()
}
trap stop_burners EXIT
{
    echo "# failover $mode: $(date -u +%FT%TZ), configurations: $configs, options: ${passed[*]:-none}"
    echo "# java: $(java -version 2>&1 | head -1); cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo || true)"
    echo "# uptime: $(uptime)"
} | tee -a "$out"
echo "# lines: $out"
failed=0
for config in $configs; do
    if [[ $mode == false-elections ]] && ((burners > 0)); then
        for ((i = 0; i < burners; i++)); do
            sh -c 'while :; do :; done' &
            pids+=($!)
        done
        echo "# $burners busy-loop processes load the machine: ${pids[*]}" | tee -a "$out"
    fi
    java -Xmx1g --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp "$cp" dev.slipstream.cluster.FailoverBench \
        --mode "$mode" --config "$config" ${passed[@]+"${passed[@]}"} 2>&1 | tee -a "$out" || {
        failed=1; echo "# $config FAILED" | tee -a "$out"; }
    stop_burners
done
echo "# uptime after: $(uptime)" | tee -a "$out"
echo
echo "summary ($out):"
python3 - "$out" <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    if line.startswith("RESULT"):
        rows.append(dict(kv.split("=", 1) for kv in line.split()[1:]))
for r in rows:
    if r["mode"] == "kills" and "kills" in r:
        print(f"  {r['config']:<12} kill to first answer over {r['kills']} kills: median {float(r['median_ms']):.0f} ms,"
              f" min {float(r['min_ms']):.0f} ms, max {float(r['max_ms']):.0f} ms; timer re-sends to a dead leader"
              f" {r['timer_resends']}")
    elif "phase" in r:
        print(f"  {r['config']:<12}   {r['phase']:<9} median {float(r['median_ms']):6.1f} ms, max {float(r['max_ms']):6.1f} ms")
    elif r["mode"] == "false-elections" and "elections" in r:
        print(f"  {r['config']:<12} {float(r['minutes']):.1f} minutes at {int(r['rate']):,}/s asked,"
              f" {float(r['answered_per_s']):,.0f}/s answered: {r['elections']} elections,"
              f" {r['leader_changes']} leader changes seen by the client")
    elif "check" in r:
        print(f"  {r['config']:<12} {int(r['sent']):,} commands sent, {int(r['answered']):,} answered; acknowledged"
              f" commands lost {r['lost']}, applied twice {r['applied_twice']}; check {r['check']}")
PY
exit $failed
