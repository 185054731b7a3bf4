#!/usr/bin/env python3
"""Markdown table of a continuous-stream suite (benchmarks/scripts/continuous-suite.sh OUT, or the
rings of a many-core run, benchmarks/scripts/sixteen-cores.sh OUT_DIR: OUT_DIR/rings).

Usage: continuous-table.py OUT

One row per cell: each side's median over its JVM runs (a run's score is its median measured
pass), the slowest run against that median, the median per-round ratio Slipstream / LMAX with its
range, Slipstream / ArrayBlockingQueue where that side ran, and the median mean batch size of
every stage of both libraries. When the suite ran with PROBE=1, a last column counts each side's
runs with a cache-line round trip between the CPUs of 150 ns or more before or after the run
(the far placement of the two virtual CPUs; see CoreToCoreProbe).
"""
import glob
import os
import re
import statistics
import sys

ORDER = ["unicast yielding", "unicast busyspin", "unicast blocking", "pipeline yielding",
         "sequencer yielding", "multicast yielding", "diamond yielding", "pipeline blocking",
         "sequencer blocking", "multicast blocking", "diamond blocking", "pipeline busyspin",
         "sequencer busyspin", "multicast busyspin", "diamond busyspin"]


def runs(cell_dir):
    """side -> round -> (meps, batch text, bytes per event)"""
    out = {}
    for path in glob.glob(os.path.join(cell_dir, "*.log")):
        side, rnd = re.match(r"(.+)-(\d+)\.log$", os.path.basename(path)).groups()
        line = next((l for l in open(path) if l.startswith("RESULT")), None)
        if line is None:
            raise SystemExit(f"no RESULT line in {path}")
        fields = dict(kv.split("=", 1) for kv in line.split()[1:])
        out.setdefault(side, {})[int(rnd)] = (float(fields["meps"]), fields["batch"], float(fields["bytesPerEvent"]))
    return out


def far_runs(cell_dir, side):
    """(runs with a probe >= 150 ns, runs probed), or None without probes"""
    far = probed = 0
    for path in glob.glob(os.path.join(cell_dir, f"{side}-*.log")):
        line = next((l for l in open(path) if l.startswith("PROBE_NS")), None)
        if line is None:
            return None
        probed += 1
        far += max(float(x) for x in line.split()[3::2]) >= 150
    return far, probed


def batches(side_runs):
    stages = {}
    for _, batch, _ in side_runs.values():
        for part in batch.split(","):
            name, value = part.split(":")
            if value != "-":
                stages.setdefault(name, []).append(float(value))
    return " ".join(f"{n} {statistics.median(v):.0f}" for n, v in stages.items())


def ratio(res, a, b):
    rounds = sorted(set(res[a]) & set(res[b]))
    r = [res[a][k][0] / res[b][k][0] for k in rounds]
    return f"**{statistics.median(r):.2f}** ({min(r):.2f}-{max(r):.2f})"


def cell_path(out, cell):
    """the directory continuous-suite.sh wrote a cell's runs to, e.g. OUT/unicast-yielding"""
    return os.path.join(out, cell.replace(" ", "-"))


def main(out):
    probed = any(far_runs(cell_path(out, c), "lmax") for c in ORDER if os.path.isdir(cell_path(out, c)))
    print("| topology | wait | Slipstream M ev/s | LMAX M ev/s | Slipstream / LMAX (range) | slowest run / median:"
          " Slipstream, LMAX | Slipstream / ABQ | mean batch, Slipstream | mean batch, LMAX | B/event |"
          + (" far runs: Slipstream, LMAX |" if probed else ""))
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | --- | --- | ---: |" + (" --- |" if probed else ""))
    for cell in ORDER:
        cell_dir = cell_path(out, cell)
        if not os.path.isdir(cell_dir):
            continue
        res = runs(cell_dir)
        med = {s: statistics.median(v[0] for v in res[s].values()) for s in res}
        slow = {s: min(v[0] for v in res[s].values()) / med[s] for s in res}
        abq = ratio(res, "slipstream", "abq") if "abq" in res else "-"
        alloc = max(v[2] for v in res["slipstream"].values())
        shape, wait = cell.split()
        print(f"| {shape} | {wait} | {med['slipstream']:.1f} | {med['lmax']:.1f} | {ratio(res, 'slipstream', 'lmax')}"
              f" | {slow['slipstream']:.2f}, {slow['lmax']:.2f} | {abq} | {batches(res['slipstream'])}"
              f" | {batches(res['lmax'])} | {alloc:.4f} |", end="")
        if probed:
            fs, fl = far_runs(cell_dir, "slipstream"), far_runs(cell_dir, "lmax")
            print(f" {fs[0]}/{fs[1]}, {fl[0]}/{fl[1]} |", end="")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
