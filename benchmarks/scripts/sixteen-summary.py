#!/usr/bin/env python3
"""Markdown tables of a many-core run (benchmarks/scripts/sixteen-cores.sh OUT_DIR).

Usage: sixteen-summary.py OUT_DIR [OUT_DIR...]

Several folders (two runs on the same machine, say) are read as one: their rounds are added up.
Every cell gives the median over the rounds (each round one JVM per side) and the range
(min-max); every ratio is the median of the per-round ratios, with their range, oriented so
that above 1.0 Slipstream is faster (for the article's ns/op: the peer's ns over the queue's;
for throughput: the queue's over the peer's), except the Aeron latency ratio, which is the
bridge's p50 over raw Aeron's (below 1.1 meets its target). The first table lists every target
of the many-core measurements with its cells: met, or MISSED.
"""
import glob
import importlib.util
import json
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("continuous_table", os.path.join(HERE, "continuous-table.py"))
continuous_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(continuous_table)

ARTICLE_QUEUES = ["LprqQueue", "LscqQueue", "LinkedBlockingQueue", "ConcurrentLinkedQueue",
                  "MpmcUnboundedXaddArrayQueue"]
WORKLOADS = ["EnqueueOnly", "DequeueOnlyEmpty", "Pair", "50Enqueue50Dequeue", "30Enqueue70Dequeue",
             "70Enqueue30Dequeue"]
SHORT = {"LinkedBlockingQueue": "LBQ", "ConcurrentLinkedQueue": "CLQ", "MpmcUnboundedXaddArrayQueue": "xadd",
         "ArrayBlockingQueue": "ABQ", "MpmcArrayQueue": "MpmcArrayQueue", "50Enqueue50Dequeue": "50/50",
         "30Enqueue70Dequeue": "30/70", "70Enqueue30Dequeue": "70/30"}
BOUNDED_QUEUES = ["ScqQueue", "ArrayBlockingQueue", "MpmcArrayQueue"]
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
        self.article = {}   # (queue, workload, threads) -> {round: ns/op}
        self.bounded = {}   # (tg, impl) -> {round: elements per us}
        self.rings = {}     # cell -> side -> {round: (meps, batch, bytes)}
        self.aeron = {}     # (channel, impl) -> {round: msgs/s}
        self.latency = {}   # (channel, impl) -> {round: (p50, p90, p99)}
        self.cluster = {}   # (rate, impl, figure) -> {round: microseconds, or answers/s for "achieved"}
        self.counters = {}  # (queue, workload, threads) -> {event: per million operations}
        for i, folder in enumerate(folders):
            self.read(i, folder)
            self.read_cluster(i, folder)
            self.read_counters(folder)

    def read(self, i, folder):
        pat = re.compile(r"RESULT queue=(\S+) workload=(\S+) threads=(\d+) ops=\d+ ns_per_op=([0-9.]+)")
        for path in glob.glob(os.path.join(folder, "article", "r*-t*", "raw", "*.txt")):
            r = int(re.search(r"/r(\d+)-t\d+/raw/", path).group(1))
            for line in open(path):
                m = pat.match(line)
                if m:
                    self.article.setdefault((m[1], m[2], int(m[3])), {})[(i, r)] = float(m[4])
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


# target: (description, list of (label, ratio list), threshold, at least (True) or at most (False))
def targets(run):
    rows = []

    def article_ratio(mine, peer, w, t):
        a, b = run.article.get((peer, w, t)), run.article.get((mine, w, t))
        return ratios(a, b) if a and b else []

    def threads(t):
        return f"{t} thread{'s' if t > 1 else ''}"

    # the default unbounded queue: >= 1.5x LinkedBlockingQueue and >= 1.2x the xadd queue at 16
    # threads, >= 1.0x both at 4 and 8, on Pair and 50/50; never below LscqQueue
    for peer, at16 in (("LinkedBlockingQueue", 1.5), ("MpmcUnboundedXaddArrayQueue", 1.2), ("LscqQueue", 1.0)):
        for w in ("Pair", "50Enqueue50Dequeue"):
            for t in ((1, 2, 4, 8, 16) if peer == "LscqQueue" else (4, 8, 16)):
                rows.append((f"LprqQueue / {short(peer)}, {short(w)}, {threads(t)}",
                             article_ratio("LprqQueue", peer, w, t), at16 if t == 16 else 1.0, True))
    for tg in (1, 2, 4, 8):
        a, b = run.bounded.get((tg, "ScqQueue")), run.bounded.get((tg, "ArrayBlockingQueue"))
        rows.append((f"ScqQueue / ABQ, {tg}P{tg}C", ratios(a, b) if a and b else [], 1.0, True))
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
          " needs at least 3 rounds (7 where time allows).\n")
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


def article(run):
    if not run.article:
        return
    counts = sorted({k[2] for k in run.article}, reverse=True)
    queues = [q for q in ARTICLE_QUEUES if any(k[0] == q for k in run.article)]
    print(f"## The article's workloads: ns/op, median (range) over {rounds_of(run.article.values())} rounds"
          " (lower is better)\n")
    print("| workload, threads | " + " | ".join(short(q) for q in queues) + " |")
    print("| --- |" + " ---: |" * len(queues))
    for t in counts:
        for w in WORKLOADS:
            cells = [spread(list(run.article.get((q, w, t), {}).values())) for q in queues]
            if any(c != "-" for c in cells):
                print(f"| {short(w)}, {t} | " + " | ".join(cells) + " |")
    print()
    print("Ratios: the peer's ns/op over the queue's (above 1.0 the queue is faster), median [range] of the"
          " per-round ratios.\n")
    pairs = [("LprqQueue", "LinkedBlockingQueue"), ("LprqQueue", "MpmcUnboundedXaddArrayQueue"),
             ("LprqQueue", "LscqQueue"), ("LprqQueue", "ConcurrentLinkedQueue"), ("LscqQueue", "LinkedBlockingQueue")]
    for mine, peer in pairs:
        if mine not in queues or peer not in queues:
            continue
        print(f"### {mine} / {short(peer)}\n")
        print("| workload | " + " | ".join(f"{t} T" for t in counts) + " |")
        print("| --- |" + " ---: |" * len(counts))
        for w in WORKLOADS:
            cells = []
            for t in counts:
                a, b = run.article.get((peer, w, t)), run.article.get((mine, w, t))
                cells.append(ratio_cell(ratios(a, b)) if a and b else "-")
            print(f"| {short(w)} | " + " | ".join(cells) + " |")
        print()


def bounded(run):
    if not run.bounded:
        return
    tgs = sorted({k[0] for k in run.bounded})
    print(f"## Bounded queues: elements moved per microsecond (the consumers' `polled`), median (range) over"
          f" {rounds_of(run.bounded.values())} rounds\n")
    print("| producers + consumers | " + " | ".join(short(q) for q in BOUNDED_QUEUES)
          + " | ScqQueue / ABQ | ScqQueue / MpmcArrayQueue |")
    print("| --- |" + " ---: |" * (len(BOUNDED_QUEUES) + 2))
    for tg in tgs:
        cells = [spread(list(run.bounded.get((tg, q), {}).values())) for q in BOUNDED_QUEUES]
        scq = run.bounded.get((tg, "ScqQueue"), {})
        for peer in ("ArrayBlockingQueue", "MpmcArrayQueue"):
            other = run.bounded.get((tg, peer), {})
            cells.append(ratio_cell(ratios(scq, other)) if scq and other else "-")
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
    events = sorted({e for c in run.counters.values() for e in c})
    print("## Queue counters (per million operations; a counting run, not a timing)\n")
    print("| queue | workload | threads | " + " | ".join(e.replace("_", " ") for e in events) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in events) + " |")
    for (queue, workload, threads), c in sorted(run.counters.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        print(f"| {short(queue)} | {short(workload)} | {threads} | "
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
    article(run)
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
