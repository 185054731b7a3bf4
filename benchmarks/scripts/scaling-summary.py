#!/usr/bin/env python3
"""Summarises a results directory of benchmarks/scripts/scaling.sh as Markdown tables.

Queues: the consumers' elements moved per microsecond (the 'polled' counter), median over the
rounds, and the per-round ratio of ScqQueue to ArrayBlockingQueue and of LscqQueue to JCTools'
MpmcUnboundedXaddArrayQueue (median and range). Rings: events per second with busy-spinning
consumers, Slipstream and LMAX, and the per-round ratio.

Usage: benchmarks/scripts/scaling-summary.py RESULTS_DIR
"""
import glob
import json
import os
import re
import statistics
import sys

results = sys.argv[1]


def rounds_of(pattern):
    """{round: parsed JSON} for the files matching pattern-r<N>.json."""
    found = {}
    for path in glob.glob(os.path.join(results, pattern + "-r*.json")):
        found[int(re.search(r"-r(\d+)\.json$", path).group(1))] = json.load(open(path))
    return found


def ratio_cell(num, den):
    ratios = [n / d for n, d in zip(num, den)]
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


queues = ["ScqQueue", "ArrayBlockingQueue", "MpmcArrayQueue", "LscqQueue",
          "MpmcUnboundedXaddArrayQueue", "ConcurrentLinkedQueue"]
print("### Queues: producers + consumers, elements moved per microsecond (median of rounds)\n")
print("| threads | " + " | ".join(queues) + " | ScqQueue / ABQ | LscqQueue / xadd |")
print("| --- |" + " ---: |" * (len(queues) + 2))
for tg in (1, 2, 4, 8):
    per_round = rounds_of(f"queues-{tg}x{tg}")
    order = sorted(per_round)
    score = {q: [] for q in queues}
    for r in order:
        for result in per_round[r]:
            impl = result["params"]["impl"]
            if impl in score:
                score[impl].append(result["secondaryMetrics"]["polled"]["score"])
    cells = [f"{statistics.median(score[q]):.1f}" for q in queues]
    print(f"| {tg}P{tg}C | " + " | ".join(cells) + f" | {ratio_cell(score['ScqQueue'], score['ArrayBlockingQueue'])}"
          f" | {ratio_cell(score['LscqQueue'], score['MpmcUnboundedXaddArrayQueue'])} |")
print(f"\n{len(order)} rounds; ratio cells: median of the per-round ratios (range).\n")

print("### Rings: busy-spinning consumers, millions of events per second (median of rounds)\n")
print("| topology | Slipstream | LMAX | Slipstream / LMAX |")
print("| --- | ---: | ---: | ---: |")
per_round = rounds_of("rings")
rows = {}
for r in sorted(per_round):
    for result in per_round[r]:
        topology = result["benchmark"].split(".")[-2].replace("Throughput", "")
        rows.setdefault(topology, {}).setdefault(result["params"]["impl"], []).append(
            result["primaryMetric"]["score"] / 1e6)
for topology, sides in rows.items():
    print(f"| {topology} | {statistics.median(sides['slipstream']):.1f} | {statistics.median(sides['lmax']):.1f}"
          f" | {ratio_cell(sides['slipstream'], sides['lmax'])} |")
print(f"\n{len(per_round)} rounds.")
