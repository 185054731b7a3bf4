"""Median ns/op per side over rounds, and the median [min-max] of per-round ratios against the
first side (other side's ns/op over the first side's: above 1 the first side is faster).
Usage: summary.py OUT LABEL..."""
import collections
import glob
import re
import statistics
import sys

out, labels = sys.argv[1], sys.argv[2:]
ns = collections.defaultdict(dict)  # (label, workload, threads) -> {round: ns/op}
for label in labels:
    for path in glob.glob(f"{out}/{label}-*.txt"):
        r = int(path.rsplit("-", 1)[1][:-4])
        for line in open(path):
            m = re.match(r"RESULT queue=\S+ workload=(\S+) threads=(\d+) .*ns_per_op=([0-9.]+)", line)
            if m:
                ns[(label, m[1], int(m[2]))][r] = float(m[3])
cells = sorted({(k[1], k[2]) for k in ns}, key=lambda c: (c[1], c[0]))
print(f"workload threads | {' | '.join(labels)} (median ns/op) | per-round ratio against {labels[0]}: median [min-max]")
for w, t in cells:
    base = ns[(labels[0], w, t)]
    medians = [f"{statistics.median(ns[(l, w, t)].values()):.1f}" if ns.get((l, w, t)) else "-" for l in labels]
    ratios = []
    for l in labels[1:]:
        other = ns.get((l, w, t), {})
        rs = [other[r] / base[r] for r in base if r in other]
        ratios.append(f"{l}: {statistics.median(rs):.2f} [{min(rs):.2f}-{max(rs):.2f}]" if rs else f"{l}: -")
    print(f"{w} {t} | {' | '.join(medians)} | {'; '.join(ratios)}")
