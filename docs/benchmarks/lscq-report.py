#!/usr/bin/env python3
"""Turns the JMH JSON results of the LSCQ benchmarks into the tables of lscq.md.

Usage: lscq-report.py DIR   (DIR holds shapes.json, pc.json, sweep.json, gc.json; any may be missing)

Each score is the median over forks of the per-fork mean of the measured iterations. Ratios
divide two such medians taken from the same JSON file, i.e. the same run.
"""
import json
import os
import statistics
import sys

IMPLS = ["ScqQueue", "LscqQueue", "MpmcArrayQueue", "MpmcUnboundedXaddArrayQueue",
         "ConcurrentLinkedQueue", "LinkedBlockingQueue", "ArrayBlockingQueue"]
SHORT = {"ScqQueue": "SCQ", "LscqQueue": "LSCQ", "MpmcArrayQueue": "JCTools MpmcArray",
         "MpmcUnboundedXaddArrayQueue": "JCTools MpmcUnboundedXadd", "ConcurrentLinkedQueue": "CLQ",
         "LinkedBlockingQueue": "LBQ", "ArrayBlockingQueue": "ABQ"}
SHAPES = [("enqueueOnly", "EnqueueOnly"), ("dequeueOnlyEmpty", "DequeueOnlyEmpty"), ("pair", "Pair"),
          ("mixed50", "50/50"), ("mixed30", "30/70 (30% offers)"), ("mixed70", "70/30 (70% offers)")]


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)


def median_of_forks(raw):
    """raw: one list of iteration scores per fork."""
    return statistics.median(statistics.fmean(fork) for fork in raw if fork)


def fork_spread(raw):
    means = [statistics.fmean(fork) for fork in raw if fork]
    return min(means), max(means)


def shapes_table(results):
    scores = {}
    spread = {}
    for r in results:
        cls, method = r["benchmark"].rsplit(".", 2)[-2:]
        threads = r["threads"]
        impl = r["params"]["impl"]
        raw = r["primaryMetric"]["rawData"]
        scores[(method, threads, impl)] = median_of_forks(raw)
        spread[(method, threads, impl)] = fork_spread(raw)
    out = []
    out.append("Median over forks, ops/µs (all threads together); higher is better.\n")
    out.append("| shape | threads | " + " | ".join(SHORT[i] for i in IMPLS) + " |")
    out.append("| --- | ---: | " + " | ".join("---:" for _ in IMPLS) + " |")
    for method, name in SHAPES:
        for threads in (1, 2):
            if (method, threads, IMPLS[0]) not in scores:
                continue
            cells = []
            for i in IMPLS:
                s = scores.get((method, threads, i))
                cells.append("" if s is None else f"{s:.1f}")
            out.append(f"| {name} | {threads} | " + " | ".join(cells) + " |")
    out.append("")
    for mine in ("ScqQueue", "LscqQueue"):
        peers = [i for i in IMPLS if i not in ("ScqQueue", "LscqQueue")]
        out.append(f"Ratio {SHORT[mine]} / peer (same run; above 1.00 means {SHORT[mine]} is faster):\n")
        out.append("| shape | threads | " + " | ".join(SHORT[p] for p in peers) + " |")
        out.append("| --- | ---: | " + " | ".join("---:" for _ in peers) + " |")
        for method, name in SHAPES:
            for threads in (1, 2):
                m = scores.get((method, threads, mine))
                if m is None:
                    continue
                cells = []
                for p in peers:
                    s = scores.get((method, threads, p))
                    cells.append("" if not s else f"{m / s:.2f}")
                out.append(f"| {name} | {threads} | " + " | ".join(cells) + " |")
        out.append("")
    out.append("Spread of the fork means (min-max), ops/µs, for the shapes with targets:\n")
    out.append("| shape | threads | " + " | ".join(SHORT[i] for i in IMPLS) + " |")
    out.append("| --- | ---: | " + " | ".join("---:" for _ in IMPLS) + " |")
    for method, name in SHAPES:
        if method not in ("pair", "mixed50", "dequeueOnlyEmpty"):
            continue
        for threads in (1, 2):
            if (method, threads, IMPLS[0]) not in spread:
                continue
            cells = []
            for i in IMPLS:
                lo_hi = spread.get((method, threads, i))
                cells.append("" if lo_hi is None else f"{lo_hi[0]:.1f}-{lo_hi[1]:.1f}")
            out.append(f"| {name} | {threads} | " + " | ".join(cells) + " |")
    out.append("")
    return out, scores


def targets(scores):
    out = ["| target | measured | met? |", "| --- | --- | --- |"]
    for method, name in (("pair", "Pair"), ("mixed50", "50/50")):
        for mine in ("ScqQueue", "LscqQueue"):
            m = scores.get((method, 2, mine))
            x = scores.get((method, 2, "MpmcUnboundedXaddArrayQueue"))
            l = scores.get((method, 2, "LinkedBlockingQueue"))
            if m and x:
                out.append(f"| {name}, 2 threads, {SHORT[mine]} >= 1.0x JCTools MpmcUnboundedXadd | "
                           f"{m / x:.2f}x | {'yes' if m / x >= 1.0 else 'no'} |")
            if m and l:
                out.append(f"| {name}, 2 threads, {SHORT[mine]} >= 2x LBQ | {m / l:.2f}x | "
                           f"{'yes' if m / l >= 2.0 else 'no'} |")
    for threads in (1, 2):
        c = scores.get(("dequeueOnlyEmpty", threads, "ConcurrentLinkedQueue"))
        for mine in ("ScqQueue", "LscqQueue"):
            m = scores.get(("dequeueOnlyEmpty", threads, mine))
            if m and c:
                out.append(f"| DequeueOnlyEmpty, {threads} thread{'s' if threads > 1 else ''}, {SHORT[mine]} "
                           f"within 2x of CLQ (ratio >= 0.5) | {m / c:.2f}x | {'yes' if m / c >= 0.5 else 'no'} |")
    out.append("")
    return out


def pc_table(results):
    out = ["Elements moved per µs (consumer's successful polls), median over forks:\n",
           "| " + " | ".join(SHORT[i] for i in IMPLS) + " |", "| " + " | ".join("---:" for _ in IMPLS) + " |"]
    scores = {}
    for r in results:
        impl = r["params"]["impl"]
        polled = r.get("secondaryMetrics", {}).get("polled")
        if polled:
            scores[impl] = median_of_forks(polled["rawData"])
    out.append("| " + " | ".join(f"{scores[i]:.1f}" if i in scores else "" for i in IMPLS) + " |")
    out.append("")
    for mine in ("ScqQueue", "LscqQueue"):
        if mine not in scores:
            continue
        cells = [f"{SHORT[p]} {scores[mine] / scores[p]:.2f}" for p in IMPLS
                 if p not in ("ScqQueue", "LscqQueue") and p in scores and scores[p]]
        out.append(f"- {SHORT[mine]} / peer: " + ", ".join(cells))
    out.append("")
    return out


def sweep_table(results):
    out = ["Median over forks, ops/µs, 2 threads:\n",
           "| queue | order | remap | Pair | 50/50 | DequeueOnlyEmpty |", "| --- | ---: | --- | ---: | ---: | ---: |"]
    scores = {}
    for r in results:
        method = r["benchmark"].rsplit(".", 1)[-1]
        p = r["params"]
        scores[(p["impl"], int(p["order"]), p["remap"], method)] = median_of_forks(r["primaryMetric"]["rawData"])
    for impl in ("ScqQueue", "LscqQueue"):
        for order in (8, 12, 16):
            for remap in ("true", "false"):
                row = [scores.get((impl, order, remap, m)) for m in ("pair", "mixed50", "dequeueOnlyEmpty")]
                if all(v is None for v in row):
                    continue
                out.append(f"| {SHORT[impl]} | {order} | {'on' if remap == 'true' else 'off'} | "
                           + " | ".join("" if v is None else f"{v:.1f}" for v in row) + " |")
    out.append("")
    return out


def gc_table(results):
    out = ["`gc.alloc.rate.norm`, bytes per operation (one fork):\n",
           "| shape | threads | " + " | ".join(SHORT[i] for i in IMPLS) + " |",
           "| --- | ---: | " + " | ".join("---:" for _ in IMPLS) + " |"]
    norm = {}
    for r in results:
        method = r["benchmark"].rsplit(".", 1)[-1]
        m = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        if m:
            norm[(method, r["threads"], r["params"]["impl"])] = m["score"]
    for method, name in SHAPES:
        for threads in (1, 2):
            if (method, threads, IMPLS[0]) not in norm:
                continue
            out.append(f"| {name} | {threads} | " + " | ".join(
                f"{norm[(method, threads, i)]:.2f}" if (method, threads, i) in norm else "" for i in IMPLS) + " |")
    out.append("")
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    shapes = load(os.path.join(d, "shapes.json"))
    lines = []
    if shapes:
        t, scores = shapes_table(shapes)
        lines += ["## Shapes", ""] + t + ["## Targets", ""] + targets(scores)
    pc = load(os.path.join(d, "pc.json"))
    if pc:
        lines += ["## One producer, one consumer", ""] + pc_table(pc)
    sweep = load(os.path.join(d, "sweep.json"))
    if sweep:
        lines += ["## Order and cache remap", ""] + sweep_table(sweep)
    gc = load(os.path.join(d, "gc.json"))
    if gc:
        lines += ["## Allocation", ""] + gc_table(gc)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
