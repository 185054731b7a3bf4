#!/usr/bin/env python3
"""Markdown tables of a many-core run (benchmarks/scripts/sixteen-cores.sh OUT_DIR).

Usage: sixteen-summary.py OUT_DIR [OUT_DIR...]

It reads, under each OUT_DIR, whatever parts the run left:
  article/r<round>-t<threads>/raw/*.txt  the article's tight loop: `RESULT queue=Q workload=W threads=T
                                         ... ns_per_op=X` lines (lower is better)
  work/r<round>-t<threads>/raw/*.txt     the same cells by the LCRQ and LPRQ papers' method, random
                                         work between operations (the same lines, ending ` work=N`)
  counters/*.log                         `COUNTERS queue=Q workload=W threads=T ...` lines
  bounded/pc-<N>x<N>-r<round>.json       JMH QueueProducerConsumer at NPNC (elements/us, higher is better)
  rings/, aeron/, cluster/               the continuous stream, the Aeron bridge, the cluster round trip
  profile/**/*.html                      flame graphs (listed, not read)
and every part's machine.txt, plan.txt and parts.txt.

It prints: the machines and runs; the targets, each met, MISSED or not measured; the candidates for
the default unbounded queue (LprqQueue-WAIT_FOR_OFFER, LprqQueue-BACK_OFF, LprqQueue-64K) against
LprqQueue on the same targets at 16 threads, one row each with the targets it meets, the candidate
that meets the most (ties broken by its geometric mean over LprqQueue) and whether it beats
LprqQueue, or that the default stays LprqQueue; the bounded queue's target (>= 1.0x
ArrayBlockingQueue at 2P2C, 4P4C, 8P8C) for ScqQueue and the candidate SlotSequenceQueue, beside
MpmcArrayQueue, and which meets more; then the tables: ns/op of the tight loop and of the papers'
method with their ratios, the queue counters, the bounded queues, rings, Aeron, the cluster, and the
flame graphs found.

Several folders (two runs on the same machine, say) are read as one: their rounds are added up.
Every cell gives the median over the rounds (each round one JVM per side) and the range
(min-max); every ratio is the median of the per-round ratios, with their range, oriented so
that above 1.0 Slipstream is faster (for the article's ns/op: the peer's ns over the queue's;
for throughput: the queue's over the peer's), except the Aeron latency ratio, which is the
bridge's p50 over raw Aeron's (below 1.1 meets its target). A target is met when that median is
on its side of the threshold; a cell a run did not measure (a --quick run has no 16 threads) is
"not measured" ("-" in the tables) and counts as not met.
"""
import glob
import importlib.util
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("continuous_table", os.path.join(HERE, "continuous-table.py"))
continuous_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(continuous_table)

DEFAULT_UNBOUNDED = "LprqQueue"
CANDIDATES = ["LprqQueue-WAIT_FOR_OFFER", "LprqQueue-BACK_OFF", "LprqQueue-64K"]
ARTICLE_QUEUES = [DEFAULT_UNBOUNDED] + CANDIDATES + ["LscqQueue", "LinkedBlockingQueue", "ConcurrentLinkedQueue",
                                                     "MpmcUnboundedXaddArrayQueue"]
WORKLOADS = ["EnqueueOnly", "DequeueOnlyEmpty", "Pair", "50Enqueue50Dequeue", "30Enqueue70Dequeue",
             "70Enqueue30Dequeue"]
SHORT = {"LinkedBlockingQueue": "LBQ", "ConcurrentLinkedQueue": "CLQ", "MpmcUnboundedXaddArrayQueue": "xadd",
         "LprqQueue-WAIT_FOR_OFFER": "LPRQ-wait", "LprqQueue-BACK_OFF": "LPRQ-backoff", "LprqQueue-64K": "LPRQ-64K",
         "ArrayBlockingQueue": "ABQ", "MpmcArrayQueue": "MpmcArrayQueue", "SlotSequenceQueue": "SlotSeq", "SlotSequenceQueue-BACK_OFF": "SlotSeq-backoff",
         "50Enqueue50Dequeue": "50/50", "30Enqueue70Dequeue": "30/70", "70Enqueue30Dequeue": "70/30"}
# the two article-style parts: the article's tight loop, and the papers' method (work between operations)
PARTS = {"article": "tight loop", "work": "papers' work"}
# the unbounded queue's targets at TARGET_THREADS: (part, peer, workload, the peer's ns over the queue's at least)
TARGET_THREADS = 16
TARGET_WORKLOADS = ("Pair", "50Enqueue50Dequeue")
UNBOUNDED_TARGETS = [(part, peer, w, need)
                     for part, peer, need in (("work", "LinkedBlockingQueue", 1.5),
                                              ("work", "MpmcUnboundedXaddArrayQueue", 1.2),
                                              ("article", "LinkedBlockingQueue", 1.0),
                                              ("article", "MpmcUnboundedXaddArrayQueue", 1.0),
                                              ("work", "LscqQueue", 1.0), ("article", "LscqQueue", 1.0))
                     for w in TARGET_WORKLOADS]
BOUNDED_QUEUES = ["ScqQueue", "SlotSequenceQueue", "SlotSequenceQueue-BACK_OFF", "ArrayBlockingQueue", "MpmcArrayQueue"]
BOUNDED_CANDIDATES = ["ScqQueue", "SlotSequenceQueue", "SlotSequenceQueue-BACK_OFF"]   # the default first
BOUNDED_TARGET_TG = (2, 4, 8)                             # producer/consumer pairs: >= 1.0x ABQ
RING_CELLS = [f"{shape} {wait}" for wait in ("yielding", "busyspin")
              for shape in ("unicast", "pipeline", "sequencer", "multicast", "diamond")]
LATENCY = re.compile(r"^(\w+) latency \w+ \d+ rate \d+/s one-way us: p50 ([0-9.]+) p90 ([0-9.]+) p99 ([0-9.]+)"
                     r".* channel (\w+)")


def short(name):
    return SHORT.get(name, name)


def fmt(x):
    return f"{x:.3g}" if x < 10 else f"{x:.1f}" if x < 1000 else f"{x:,.0f}"


def spread(values):
    """'median (min-max)' of a list, or '-'."""
    if not values:
        return "-"
    if len(values) == 1:
        return fmt(values[0])
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}-{fmt(max(values))})"


def ratios(num, den):
    """per-round num/den for the rounds both have"""
    return [num[r] / den[r] for r in sorted(num) if r in den and den[r] > 0]


def ratio_cell(rs):
    if not rs:
        return "-"
    return f"{statistics.median(rs):.2f} [{min(rs):.2f}-{max(rs):.2f}]"


class Run:
    """Every round of every folder, keyed by (folder index, round)."""

    def __init__(self, folders):
        self.folders = folders
        self.article = {}   # (queue, workload, threads) -> {round: ns/op}, the article's tight loop
        self.work = {}      # the same, by the papers' method (work between operations)
        self.work_amount = set()  # the work=N values of the work part's lines
        self.bounded = {}   # (tg, impl) -> {round: elements per us}
        self.rings = {}     # cell -> side -> {round: (meps, batch, bytes)}
        self.aeron = {}     # (channel, impl) -> {round: msgs/s}
        self.latency = {}   # (channel, impl) -> {round: (p50, p90, p99)}
        self.cluster = {}   # (rate, impl, figure) -> {round: microseconds, or answers/s for "achieved"}
        self.cluster_pins = []  # (file, last line, whether it warned)
        self.counters = {}  # (queue, workload, threads) -> {event: per million operations}
        for i, folder in enumerate(folders):
            self.read(i, folder)
            self.read_cluster(i, folder)
            self.read_counters(folder)

    def part(self, name):
        """the cells of an article-style part: article (the tight loop) or work (the papers' method)"""
        return self.work if name == "work" else self.article

    def read_cells(self, i, folder, part):
        pat = re.compile(r"RESULT queue=(\S+) workload=(\S+) threads=(\d+) ops=\d+ ns_per_op=([0-9.]+)")
        for path in glob.glob(os.path.join(folder, part, "r*-t*", "raw", "*.txt")):
            r = int(re.search(r"/r(\d+)-t\d+/raw/", path).group(1))
            for line in open(path):
                m = pat.match(line)
                if m:
                    self.part(part).setdefault((m[1], m[2], int(m[3])), {})[(i, r)] = float(m[4])
                    work = re.search(r" work=(\d+)", line)
                    if work:
                        self.work_amount.add(int(work[1]))

    def read(self, i, folder):
        for part in PARTS:
            self.read_cells(i, folder, part)
        for path in glob.glob(os.path.join(folder, "bounded", "pc-*x*-r*.json")):
            tg, r = map(int, re.search(r"pc-(\d+)x\d+-r(\d+)\.json$", path).groups())
            for result in load_json(path):
                self.bounded.setdefault((tg, result["params"]["impl"]), {})[(i, r)] = \
                    result["secondaryMetrics"]["polled"]["score"]
        for cell in RING_CELLS:
            cell_dir = continuous_table.cell_path(os.path.join(folder, "rings"), cell)
            if os.path.isdir(cell_dir) and glob.glob(os.path.join(cell_dir, "*.log")):
                for side, rounds in continuous_table.runs(cell_dir).items():
                    dest = self.rings.setdefault(cell, {}).setdefault(side, {})
                    for r, value in rounds.items():
                        dest[(i, r)] = value
        for path in glob.glob(os.path.join(folder, "aeron", "throughput-r*.json")):
            r = int(re.search(r"-r(\d+)\.json$", path).group(1))
            for result in load_json(path):
                p = result["params"]
                self.aeron.setdefault((p.get("channel", "ipc"), p["impl"]), {})[(i, r)] = result["primaryMetric"]["score"]
        for path in glob.glob(os.path.join(folder, "aeron", "latency-*-r*.log")):
            r = int(re.search(r"-r(\d+)\.log$", path).group(1))
            for line in open(path):
                m = LATENCY.match(line)
                if m:
                    self.latency.setdefault((m[5], m[1]), {})[(i, r)] = (float(m[2]), float(m[3]), float(m[4]))

    def read_counters(self, folder):
        for path in glob.glob(os.path.join(folder, "counters", "*.log")):
            for line in open(path):
                if line.startswith("COUNTERS "):
                    words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
                    key = (words.pop("queue"), words.pop("workload"), int(words.pop("threads")))
                    self.counters[key] = {k: float(v) for k, v in words.items()}

    def read_cluster(self, i, folder):
        pat = re.compile(r"RESULT impl=(\S+) rate=(\d+) figure=(\S+) value=([0-9.]+)")
        for path in glob.glob(os.path.join(folder, "cluster", "*-r*.log")):
            r = int(re.search(r"-r(\d+)\.log$", path).group(1))
            for line in open(path):
                m = pat.match(line)
                if m:
                    self.cluster.setdefault((int(m[2]), m[1], m[3]), {})[(i, r)] = float(m[4])
        # pin-threads.sh's report beside each run: its last line, "pinned K threads on C CPUs"
        for path in glob.glob(os.path.join(folder, "cluster", "*-r*-pins.txt")):
            lines = [l.strip() for l in open(path) if l.strip()]
            self.cluster_pins.append((os.path.basename(path), lines[-1] if lines else "empty",
                                      any("WARNING" in l or "ended" in l for l in lines)))


def load_json(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return []  # a JMH command stopped before it wrote its file


def machine(run):
    print("## Machine and runs\n")
    for folder in run.folders:
        print(f"### {folder}\n")
        plan = os.path.join(folder, "plan.txt")
        if os.path.exists(plan):
            for line in open(plan):
                if not line.startswith("plan: ") or "total" in line:
                    print(f"- {line.strip()}")
        parts = os.path.join(folder, "parts.txt")
        if os.path.exists(parts):
            for line in open(parts):
                print(f"- {line.strip()}")
        print()
        print("| part | cpus | model | java | load before | cpu busy before |")
        print("| --- | ---: | --- | --- | --- | --- |")
        for path in sorted(glob.glob(os.path.join(folder, "*", "machine.txt"))):
            info = dict(line.split(": ", 1) for line in open(path).read().splitlines() if ": " in line)
            model = next((v.strip() for k, v in info.items() if k.strip() in ("Model name", "model name")), "-")
            java = re.sub(r"\s+", " ", info.get("java", "-"))
            java = re.search(r'version "[^"]+"', java).group(0) if 'version "' in java else java[:40]
            load = " ".join(info.get("load average", "-").split()[:3])
            print(f"| {os.path.basename(os.path.dirname(path))} | {info.get('nproc', '-')} | {model} | {java}"
                  f" | {load} | {info.get('cpu busy', '-')} |")
        print()


def rounds_of(cells):
    return len({r for c in cells for r in c})


def threads(t):
    return f"{t} thread{'s' if t > 1 else ''}"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def queue_ratio(run, part, mine, peer, w, t):
    """per-round peer's ns/op over mine's in an article-style part (above 1.0 mine is faster), or []"""
    cells = run.part(part)
    a, b = cells.get((peer, w, t)), cells.get((mine, w, t))
    return ratios(a, b) if a and b else []


def bounded_ratio(run, mine, peer, tg):
    """per-round mine's elements/us over the peer's (above 1.0 mine is faster), or []"""
    a, b = run.bounded.get((tg, mine)), run.bounded.get((tg, peer))
    return ratios(a, b) if a and b else []


def judged(rs, threshold, with_range=False):
    """(cell text, measured, met) of an at-least target: the median (and range) of rs, met or not met"""
    if not rs:
        return "-", False, False
    med = statistics.median(rs)
    figure = ratio_cell(rs) if with_range else f"{med:.2f}"
    return (f"{figure} met" if med >= threshold else f"{figure} **not met**"), True, med >= threshold


# target: (description, list of (label, ratio list), threshold, at least (True) or at most (False))
def targets(run):
    rows = []
    # the default unbounded queue at 16 threads, Pair and 50/50: with the papers' work >= 1.5x
    # LinkedBlockingQueue and >= 1.2x the xadd queue; in the article's tight loop >= 1.0x both;
    # never below LscqQueue in either
    for part, peer, w, need in UNBOUNDED_TARGETS:
        rows.append((f"{DEFAULT_UNBOUNDED} / {short(peer)}, {short(w)}, {threads(TARGET_THREADS)}, {PARTS[part]}",
                     queue_ratio(run, part, DEFAULT_UNBOUNDED, peer, w, TARGET_THREADS), need, True))
    for tg in BOUNDED_TARGET_TG:
        rows.append((f"ScqQueue / ABQ, {tg}P{tg}C", bounded_ratio(run, "ScqQueue", "ArrayBlockingQueue", tg),
                     1.0, True))
    for cell in RING_CELLS:
        if cell.endswith("yielding"):
            sides = run.rings.get(cell, {})
            rs = ratios({r: x[0] for r, x in sides.get("slipstream", {}).items()},
                        {r: x[0] for r, x in sides.get("lmax", {}).items()}) if sides else []
            rows.append((f"ring Slipstream / LMAX, {cell}", rs, 1.0, True))
    for channel in ("ipc", "udp"):
        a, b = run.aeron.get((channel, "bridge")), run.aeron.get((channel, "raw"))
        rows.append((f"Aeron bridge / raw throughput, {channel}", ratios(a, b) if a and b else [], 0.9, True))
        a, b = run.latency.get((channel, "bridge")), run.latency.get((channel, "raw"))
        p50 = ratios({r: v[0] for r, v in a.items()}, {r: v[0] for r, v in b.items()}) if a and b else []
        rows.append((f"Aeron bridge / raw p50 latency, {channel}", p50, 1.1, False))
    for rate in sorted({k[0] for k in run.cluster}):
        for figure in ("p50", "p99"):
            a, b = run.cluster.get((rate, "pipeline", figure)), run.cluster.get((rate, "echo", figure))
            rows.append((f"cluster pipeline / echo {figure}, {rate:,}/s", ratios(a, b) if a and b else [], 1.2, False))
    p99 = run.cluster.get((10000, "pipeline", "p99"))
    if p99:
        rows.append(("cluster pipeline p99 at 10,000/s, us", list(p99.values()), 150, False))
    print("## Targets\n")
    print("Median [range] of the per-round ratios; a target is met when the median is on its side. A claim"
          " needs at least 3 rounds (7 where time allows). \"tight loop\": the article's workloads as"
          " published; \"papers' work\": the LCRQ and LPRQ papers' method, random work between operations.\n")
    print("| target | ratio | rounds | needs | verdict |")
    print("| --- | ---: | ---: | ---: | --- |")
    for label, rs, threshold, at_least in rows:
        if not rs:
            verdict = "not measured"
        else:
            med = statistics.median(rs)
            verdict = "met" if (med >= threshold if at_least else med <= threshold) else "**MISSED**"
        print(f"| {label} | {ratio_cell(rs)} | {len(rs)} | {'>=' if at_least else '<='} {threshold} | {verdict} |")
    print()
    unbounded_candidates(run)
    bounded_candidates(run)


def unbounded_candidates(run):
    """LprqQueue and each candidate on the unbounded targets; the candidate that meets the most"""
    if not run.article and not run.work:
        return
    t, n = TARGET_THREADS, len(UNBOUNDED_TARGETS)
    print(f"### The default unbounded queue: {DEFAULT_UNBOUNDED} and its candidates, {threads(t)}\n")
    print("Each cell: the peer's ns/op over the queue's, median of the per-round ratios, against the"
          " threshold in its heading (- : not measured).\n")
    heads = [f"{PARTS[part]}: {short(peer)}, {short(w)}, >= {need}" for part, peer, w, need in UNBOUNDED_TARGETS]
    print("| queue | " + " | ".join(heads) + " | targets met |")
    print("| --- |" + " --- |" * len(heads) + " --- |")
    met, measured = {}, {}
    for q in [DEFAULT_UNBOUNDED] + CANDIDATES:
        cells, met[q], measured[q] = [], 0, 0
        for part, peer, w, need in UNBOUNDED_TARGETS:
            text, was_measured, ok = judged(queue_ratio(run, part, q, peer, w, t), need)
            cells.append(text)
            measured[q] += was_measured
            met[q] += ok
        label = f"{q} (the default)" if q == DEFAULT_UNBOUNDED else f"{q} ({short(q)})"
        tally = f"{met[q]} of {n} ({measured[q]} measured)" if measured[q] else "not measured"
        print(f"| {label} | " + " | ".join(cells) + f" | {tally} |")
    print()

    # each candidate against the default itself, the tie-break
    over = [(part, w) for part in PARTS for w in TARGET_WORKLOADS]
    print(f"Each candidate against {DEFAULT_UNBOUNDED} at {threads(t)}: {DEFAULT_UNBOUNDED}'s ns/op over the"
          " candidate's, median [range] of the per-round ratios (above 1.0 the candidate is faster), and the"
          " geometric mean of the medians.\n")
    print("| candidate | " + " | ".join(f"{PARTS[part]}, {short(w)}" for part, w in over)
          + " | geometric mean | faster cells |")
    print("| --- |" + " ---: |" * (len(over) + 1) + " ---: |")
    gm, faster, compared = {}, {}, {}
    for q in CANDIDATES:
        rss = [queue_ratio(run, part, q, DEFAULT_UNBOUNDED, w, t) for part, w in over]
        medians = [statistics.median(rs) for rs in rss if rs]
        gm[q], faster[q], compared[q] = geomean(medians), sum(m > 1.0 for m in medians), len(medians)
        print(f"| {q} | " + " | ".join(ratio_cell(rs) for rs in rss)
              + f" | {f'{gm[q]:.2f}' if gm[q] else '-'} | {f'{faster[q]} of {compared[q]}' if compared[q] else '-'} |")
    print()

    stays = f"**No candidate meets more targets than {DEFAULT_UNBOUNDED}: the default stays {DEFAULT_UNBOUNDED}.**"
    if not any(measured.values()):
        measured_at = sorted({k[2] for c in (run.article, run.work) for k in c}, reverse=True)
        print(f"No target cell was measured at {threads(t)} (this run measured "
              f"{', '.join(map(str, measured_at))} threads): the targets are not measured. {stays}\n")
        return
    weighed = [q for q in CANDIDATES if measured[q]]
    if not weighed:
        print(f"No candidate was measured at {threads(t)}; {DEFAULT_UNBOUNDED} meets {met[DEFAULT_UNBOUNDED]} of"
              f" {n}. {stays}\n")
        return
    best = max(weighed, key=lambda q: (met[q], gm[q] or 0.0))
    tied = [q for q in weighed if q != best and met[q] == met[best]]
    tie = f" (as many as {', '.join(tied)}; the higher geometric mean over {DEFAULT_UNBOUNDED} decides)" if tied else ""
    print(f"- The candidate meeting the most targets: **{best}**, {met[best]} of {n}{tie};"
          f" {DEFAULT_UNBOUNDED} meets {met[DEFAULT_UNBOUNDED]} of {n}.")
    if gm[best] is None:
        print(f"- {best} against {DEFAULT_UNBOUNDED}: not measured.")
    else:
        print(f"- {best} against {DEFAULT_UNBOUNDED}: geometric mean {gm[best]:.3f}, faster in {faster[best]} of"
              f" {compared[best]} cells: it {'beats' if gm[best] > 1.0 else 'does not beat'} {DEFAULT_UNBOUNDED}.")
    rounds = rounds_of(c for part in PARTS for k, c in run.part(part).items() if k[2] == t)
    if rounds < 3:
        print(f"- {rounds} round{'s' if rounds != 1 else ''} at {threads(t)}: a claim needs at least 3.")
    print()
    if met[best] > met[DEFAULT_UNBOUNDED]:
        print(f"**{best} meets more targets than {DEFAULT_UNBOUNDED} ({met[best]} against"
              f" {met[DEFAULT_UNBOUNDED]} of {n}): it is the candidate for the default.**\n")
    else:
        print(stays + "\n")


def bounded_candidates(run):
    """ScqQueue and SlotSequenceQueue on the bounded targets, beside MpmcArrayQueue; which meets more"""
    if not run.bounded:
        return
    n = len(BOUNDED_TARGET_TG)
    print("### The bounded queue: " + " and ".join(BOUNDED_CANDIDATES) + "\n")
    print("Each cell: the queue's elements/us over the peer's, median [range] of the per-round ratios; against"
          " ABQ the target (>= 1.0), against MpmcArrayQueue a figure beside it (- : not measured).\n")
    heads = [f"{tg}P{tg}C / ABQ, >= 1.0" for tg in BOUNDED_TARGET_TG] \
        + [f"{tg}P{tg}C / MpmcArrayQueue" for tg in BOUNDED_TARGET_TG]
    print("| queue | " + " | ".join(heads) + " | targets met |")
    print("| --- |" + " --- |" * n + " ---: |" * n + " --- |")
    met, measured = {}, {}
    for q in BOUNDED_CANDIDATES:
        cells, met[q], measured[q] = [], 0, 0
        for tg in BOUNDED_TARGET_TG:
            text, was_measured, ok = judged(bounded_ratio(run, q, "ArrayBlockingQueue", tg), 1.0, with_range=True)
            cells.append(text)
            measured[q] += was_measured
            met[q] += ok
        cells += [ratio_cell(bounded_ratio(run, q, "MpmcArrayQueue", tg)) for tg in BOUNDED_TARGET_TG]
        tally = f"{met[q]} of {n} ({measured[q]} measured)" if measured[q] else "not measured"
        print(f"| {q} | " + " | ".join(cells) + f" | {tally} |")
    print()
    default, candidates = BOUNDED_CANDIDATES[0], BOUNDED_CANDIDATES[1:]
    for candidate in candidates:
        rss = [bounded_ratio(run, candidate, default, tg) for tg in BOUNDED_TARGET_TG]
        medians = [statistics.median(rs) for rs in rss if rs]
        if medians:
            print(f"- {candidate} over {default} (elements/us, median of the per-round ratios): "
                  + ", ".join(f"{tg}P{tg}C {ratio_cell(rs)}" for tg, rs in zip(BOUNDED_TARGET_TG, rss))
                  + f"; geometric mean {geomean(medians):.2f}.")
    counts = ", ".join(f"{q} {met[q]} of {n}" if measured[q] else f"{q} not measured" for q in BOUNDED_CANDIDATES)
    measured_candidates = [q for q in candidates if measured[q]]
    if not measured[default] and not measured_candidates:
        measured_at = sorted({k[0] for k in run.bounded})
        print(f"- No bounded target cell was measured (this run measured "
              f"{', '.join(f'{tg}P{tg}C' for tg in measured_at)}): no candidate meets more; the default stays {default}.")
    elif not measured_candidates:
        print(f"- No candidate was measured at {', '.join(f'{tg}P{tg}C' for tg in BOUNDED_TARGET_TG)}"
              f" ({counts}); the default stays {default}.")
    else:
        best = max(measured_candidates, key=lambda q: met[q])
        if met[best] > met[default]:
            print(f"- **{best} meets more bounded targets** ({counts}).")
        else:
            print(f"- No candidate meets more bounded targets than {default} ({counts}): the default stays {default}.")
    print()


def article_tables(run, part):
    """ns/op of every queue in an article-style part, and the ratios of ours over every peer"""
    cells = run.part(part)
    if not cells:
        return
    counts = sorted({k[2] for k in cells}, reverse=True)
    found = {k[0] for k in cells}
    queues = [q for q in ARTICLE_QUEUES if q in found] + sorted(found - set(ARTICLE_QUEUES))
    found = {k[1] for k in cells}
    workloads = [w for w in WORKLOADS if w in found] + sorted(found - set(WORKLOADS))
    if part == "work":
        amount = "/".join(map(str, sorted(run.work_amount))) or "some"
        title = (f"The papers' method (LCRQ, LPRQ): random work between operations, up to {amount}"
                 " multiply-adds")
    else:
        title = "The article's workloads, tight loop"
    print(f"## {title}: ns/op, median (range) over {rounds_of(cells.values())} rounds (lower is better)\n")
    print("| workload, threads | " + " | ".join(short(q) for q in queues) + " |")
    print("| --- |" + " ---: |" * len(queues))
    for t in counts:
        for w in workloads:
            row = [spread(list(cells.get((q, w, t), {}).values())) for q in queues]
            if any(c != "-" for c in row):
                print(f"| {short(w)}, {t} | " + " | ".join(row) + " |")
    print()
    print(f"Ratios ({PARTS[part]}): the peer's ns/op over the queue's (above 1.0 the queue is faster), median"
          " [range] of the per-round ratios.\n")
    ours = [DEFAULT_UNBOUNDED] + CANDIDATES + ["LscqQueue"]
    for peer in ("LinkedBlockingQueue", "MpmcUnboundedXaddArrayQueue", "LscqQueue", "ConcurrentLinkedQueue",
                 DEFAULT_UNBOUNDED):
        rows = []
        for mine in (CANDIDATES if peer == DEFAULT_UNBOUNDED else ours):
            for w in workloads:
                if mine == peer:
                    continue
                row = [ratio_cell(queue_ratio(run, part, mine, peer, w, t)) for t in counts]
                if any(c != "-" for c in row):
                    rows.append(f"| {short(mine)}, {short(w)} | " + " | ".join(row) + " |")
        if rows:
            print(f"### {PARTS[part].capitalize()}: over {short(peer)}\n")
            print("| queue, workload | " + " | ".join(f"{t} T" for t in counts) + " |")
            print("| --- |" + " ---: |" * len(counts))
            print("\n".join(rows))
            print()


def bounded(run):
    if not run.bounded:
        return
    tgs = sorted({k[0] for k in run.bounded})
    found = {k[1] for k in run.bounded}
    queues = [q for q in BOUNDED_QUEUES if q in found] + sorted(found - set(BOUNDED_QUEUES))
    pairs = [(mine, peer) for mine in BOUNDED_CANDIDATES for peer in ("ArrayBlockingQueue", "MpmcArrayQueue")
             if mine in found and peer in found]
    print(f"## Bounded queues: elements moved per microsecond (the consumers' `polled`), median (range) over"
          f" {rounds_of(run.bounded.values())} rounds\n")
    print("| producers + consumers | " + " | ".join(short(q) for q in queues)
          + "".join(f" | {short(mine)} / {short(peer)}" for mine, peer in pairs) + " |")
    print("| --- |" + " ---: |" * (len(queues) + len(pairs)))
    for tg in tgs:
        cells = [spread(list(run.bounded.get((tg, q), {}).values())) for q in queues]
        cells += [ratio_cell(bounded_ratio(run, mine, peer, tg)) for mine, peer in pairs]
        print(f"| {tg}P{tg}C | " + " | ".join(cells) + " |")
    print()


def rings(run):
    if not run.rings:
        return
    print(f"## Rings, continuous stream: M events/s, median (range) over {rounds_of(s for c in run.rings.values() for s in c.values())} rounds\n")
    print("| topology | wait | Slipstream | LMAX | Slipstream / LMAX | mean batch, Slipstream | mean batch, LMAX |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    for cell in RING_CELLS:
        sides = run.rings.get(cell)
        if not sides:
            continue
        s, l = sides.get("slipstream", {}), sides.get("lmax", {})
        rs = ratios({r: v[0] for r, v in s.items()}, {r: v[0] for r, v in l.items()})
        shape, wait = cell.split()
        print(f"| {shape} | {wait} | {spread([v[0] for v in s.values()])} | {spread([v[0] for v in l.values()])}"
              f" | {ratio_cell(rs)} | {continuous_table.batches(s) if s else '-'}"
              f" | {continuous_table.batches(l) if l else '-'} |")
    print()


def aeron(run):
    if not run.aeron and not run.latency:
        return
    print("## Aeron bridge against raw Aeron\n")
    print("Throughput (JMH `AeronBridgeThroughput`, messages/s) and one-way latency at a paced rate"
          " (`AeronBridgeBench --mode latency`, us), median (range) over the rounds.\n")
    print("| channel | raw msgs/s | bridge msgs/s | bridge / raw | raw p50 | bridge p50 | bridge p50 / raw p50"
          " | raw p99 | bridge p99 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for channel in ("ipc", "udp"):
        raw, bridge = run.aeron.get((channel, "raw"), {}), run.aeron.get((channel, "bridge"), {})
        lraw, lbridge = run.latency.get((channel, "raw"), {}), run.latency.get((channel, "bridge"), {})
        if not (raw or bridge or lraw or lbridge):
            continue
        p50 = ratios({r: v[0] for r, v in lbridge.items()}, {r: v[0] for r, v in lraw.items()})
        print(f"| {channel} | {spread(list(raw.values()))} | {spread(list(bridge.values()))}"
              f" | {ratio_cell(ratios(bridge, raw))} | {spread([v[0] for v in lraw.values()])}"
              f" | {spread([v[0] for v in lbridge.values()])} | {ratio_cell(p50)}"
              f" | {spread([v[2] for v in lraw.values()])} | {spread([v[2] for v in lbridge.values()])} |")
    print()


def counters(run):
    if not run.counters:
        return
    def order(key):
        """the queues as in the article's tables, then Pair before 50/50, most threads first"""
        queue, workload, t = key
        return (ARTICLE_QUEUES.index(queue) if queue in ARTICLE_QUEUES else len(ARTICLE_QUEUES), queue,
                WORKLOADS.index(workload) if workload in WORKLOADS else len(WORKLOADS), workload, -t)

    events = sorted({e for c in run.counters.values() for e in c})
    print("## Queue counters (per million operations; a counting run, not a timing)\n")
    print("| queue | workload | threads | " + " | ".join(e.replace("_", " ") for e in events) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in events) + " |")
    for (queue, workload, t), c in sorted(run.counters.items(), key=lambda kv: order(kv[0])):
        print(f"| {short(queue)} | {short(workload)} | {t} | "
              + " | ".join(fmt(c.get(e, 0.0)) if c.get(e, 0.0) else "0" for e in events) + " |")
    print()


def cluster(run):
    if not run.cluster:
        return
    print("## Cluster round trip: pipeline against echo\n")
    print("Three members and the client in one JVM (`ClusterRoundTripBench --members 3`), us from the intended"
          " send time, median (range) over the rounds.\n")
    print("| rate | impl | p50 | p99 | p99.9 | max | answers/s |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for rate in sorted({k[0] for k in run.cluster}):
        for impl in ("echo", "pipeline"):
            cells = [spread(list(run.cluster.get((rate, impl, f), {}).values()))
                     for f in ("p50", "p99", "p999", "max", "achieved")]
            print(f"| {rate:,} | {impl} | " + " | ".join(cells) + " |")
    print()
    if run.cluster_pins:
        clean = [p for p in run.cluster_pins if not p[2]]
        print(f"Pinning (pin-threads.sh): {len(clean)} of {len(run.cluster_pins)} runs pinned one thread per CPU"
              + ("" if len(clean) == len(run.cluster_pins) else "; the others: "
                 + "; ".join(f"{p[0]}: {p[1]}" for p in run.cluster_pins if p[2])) + ".\n")
    else:
        print("Pinning: no pin reports (threads not pinned).\n")


def profiles(run):
    found = []
    for folder in run.folders:
        found += sorted(glob.glob(os.path.join(folder, "profile", "**", "*.html"), recursive=True))
    if found:
        print("## Flame graphs (profiled runs: not figures to quote)\n")
        for path in found:
            print(f"- {os.path.relpath(path, os.path.dirname(run.folders[0]))}")
        print()


def main(folders):
    run = Run(folders)
    print("# Many-core run: " + ", ".join(os.path.basename(os.path.normpath(f)) for f in folders) + "\n")
    machine(run)
    targets(run)
    article_tables(run, "article")
    article_tables(run, "work")
    counters(run)
    bounded(run)
    rings(run)
    aeron(run)
    cluster(run)
    profiles(run)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit("usage: sixteen-summary.py OUT_DIR [OUT_DIR...]")
    main(sys.argv[1:])
