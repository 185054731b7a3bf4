#!/usr/bin/env python3
"""Draws the benchmark pages' headline comparisons from the raw output kept in docs/benchmarks/runs/.

Every figure is computed here from the raw lines each run wrote (RESULT lines, the continuous
suite's per-run lines, JMH JSON, the latency harness's TSV files); no figure is typed in. Folders
whose output is compressed are read straight from their raw.tar.xz, so nothing has to be unpacked
first. The SVG files go to docs/benchmarks/img/ and come out byte for byte the same on every run
with the pinned requirements (benchmarks/plots/requirements.txt).

Usage (from the repository root):
    python3 -m venv /tmp/plotenv && /tmp/plotenv/bin/pip install -r benchmarks/plots/requirements.txt
    /tmp/plotenv/bin/python benchmarks/plots/plot.py [--runs DIR] [--out DIR] [--png DIR]

--png also writes a PNG of each figure into DIR, to look at; only the SVG files are kept in the
repository. What each image shows and where its data comes from: benchmarks/plots/README.md.
"""
import argparse
import json
import lzma
import math
import os
import re
import statistics
import tarfile
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

plt.rcParams.update({
    "svg.hashsalt": "slipstream-benchmark-plots",  # fixed ids: the same bytes on every run
    "svg.fonttype": "none",                         # text stays text: small and diffable
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 8,
    "legend.frameon": False,
})

SLIPSTREAM = "#1f77b4"
PEER = "#ff7f0e"


# ---------------------------------------------------------------------------------------------
# Reading the raw output


class Runs:
    """Files under docs/benchmarks/runs/, read from disk or from the raw.tar.xz of their folder."""

    def __init__(self, root):
        self.root = root
        self.archives = {}

    def _archive(self, folder):
        if folder not in self.archives:
            members = {}
            path = os.path.join(self.root, folder, "raw.tar.xz")
            if os.path.exists(path):
                with tarfile.open(path, "r:xz") as tar:
                    for member in tar:
                        if member.isfile():
                            members[os.path.normpath(member.name)] = tar.extractfile(member).read()
            self.archives[folder] = members
        return self.archives[folder]

    def read(self, path):
        """Text of runs/PATH: the file itself, PATH.xz, or PATH inside its run folder's raw.tar.xz."""
        full = os.path.join(self.root, path)
        if os.path.exists(full):
            with open(full, "rb") as f:
                return f.read().decode()
        if os.path.exists(full + ".xz"):
            with lzma.open(full + ".xz") as f:
                return f.read().decode()
        folder, _, inner = path.partition("/")
        data = self._archive(folder).get(os.path.normpath(inner))
        if data is None:
            raise FileNotFoundError(f"{full}: neither in the tree nor in {folder}/raw.tar.xz")
        return data.decode()

    def exists(self, path):
        try:
            self.read(path)
            return True
        except FileNotFoundError:
            return False


def continuous_ratios(text, side="slipstream", peer="lmax"):
    """Per-round ratios side / peer of M events/s from a continuous.sh summary."""
    meps = {}
    for line in text.splitlines():
        m = re.match(r"round (\d+) (\S+) \(load before [^)]*\): meps=([\d.]+)", line)
        if m:
            meps.setdefault(m.group(2), {})[int(m.group(1))] = float(m.group(3))
    rounds = sorted(set(meps[side]) & set(meps[peer]))
    return [meps[side][r] / meps[peer][r] for r in rounds]


def article_results(runs, folder):
    """{(queue, workload, threads): {round: ns/op}} from queue-article.sh's raw/ files."""
    found = {}
    prefix = folder.split("/", 1)[1] + "/raw/"
    archive = runs._archive(folder.split("/", 1)[0])
    for name in sorted(archive):
        if not name.startswith(prefix):
            continue
        m = re.match(r"(\S+)-(\S+)-(\d+)-(\d+)\.txt$", name[len(prefix):])
        text = archive[name].decode()
        r = re.search(r"RESULT queue=(\S+) workload=(\S+) threads=(\d+) \S+ ns_per_op=([\d.]+)", text)
        if not (m and r):
            continue
        key = (r.group(1), r.group(2), int(r.group(3)))
        found.setdefault(key, {})[int(m.group(4))] = float(r.group(4))
    return found


def result_lines(text):
    """Every 'RESULT k=v ...' line as a dict."""
    rows = []
    for line in text.splitlines():
        if line.startswith("RESULT "):
            rows.append(dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv))
    return rows


def tsv_rows(text):
    lines = [line.split("\t") for line in text.splitlines() if line.strip()]
    return [dict(zip(lines[0], row)) for row in lines[1:]]


def med_range(values):
    return statistics.median(values), min(values), max(values)


# ---------------------------------------------------------------------------------------------
# Drawing helpers


def caption(fig, text, width=150):
    """The figure's source line(s) at its foot: machine, JDK, raw files, command."""
    wrapped = "\n".join(textwrap.fill(p, width) for p in text.split("\n"))
    fig.text(0.01, 0.01, wrapped, ha="left", va="bottom", fontsize=7, color="#444444")
    return wrapped.count("\n") + 1


def finish(fig, name, out, png, caption_lines, top=0.86, axis_labels_in=0.6):
    # Room at the foot, in inches: the caption's lines and the x axis's tick labels and label.
    height = fig.get_size_inches()[1]
    fig.subplots_adjust(bottom=(0.08 + 0.125 * caption_lines + axis_labels_in) / height, top=top,
                        left=0.08, right=0.98)
    path = os.path.join(out, name + ".svg")
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "benchmarks/plots/plot.py"})
    if png:
        fig.savefig(os.path.join(png, name + ".png"), format="png", dpi=110,
                    metadata={"Software": None})
    plt.close(fig)
    print(f"wrote {os.path.relpath(path, ROOT)}")


def log_ratio_axis(ax, lo, hi):
    ax.set_yscale("log")
    ax.set_ylim(lo, hi)
    ticks = [t for t in (0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30) if lo <= t <= hi]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.axhline(1.0, color="black", linewidth=1.0, zorder=1)


def grouped_ratio_bars(ax, groups, series, colors, values, lo, hi, label_values=True):
    """Bars of median per-round ratios with min-max error bars; values[(group, series)] = list."""
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        xs, meds, los, his = [], [], [], []
        for g_index, g in enumerate(groups):
            v = values.get((g, s))
            if not v:
                continue
            med, mn, mx = med_range(v)
            present = [t for t in series if values.get((g, t))]  # centre the bars a group has
            xs.append(g_index + (present.index(s) - (len(present) - 1) / 2) * width)
            meds.append(med)
            los.append(med - mn)
            his.append(mx - med)
        # Bars start at 1.0: up where Slipstream is faster, down where it is slower.
        ax.bar(xs, [m - 1 for m in meds], width * 0.92, bottom=1, color=colors[i], label=s, zorder=2)
        ax.errorbar(xs, meds, yerr=[los, his], fmt="none", ecolor="#333333", elinewidth=0.8,
                    capsize=2, zorder=3)
        if label_values:
            for x, med, lo_, hi_ in zip(xs, meds, los, his):
                above = med >= 1
                y = (med + hi_) * 1.05 if above else (med - lo_) / 1.05
                ax.text(x, y, f"{med:.2f}", ha="center", va="bottom" if above else "top",
                        fontsize=6.5, rotation=90, zorder=4)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.grid(axis="x", visible=False)
    log_ratio_axis(ax, lo, hi)


def percentile_axis(ax, points):
    """HdrHistogram's percentile plot: x = 1 / (1 - percentile) on a log axis."""
    ax.set_xscale("log")
    labels = {2: "50%", 10: "90%", 100: "99%", 1000: "99.9%", 10_000: "99.99%",
              100_000: "99.999%", 1_000_000: "99.9999%"}
    top = max(points)
    ticks = [t for t in labels if t <= top * 1.01]
    ax.set_xticks(ticks)
    ax.set_xticklabels([labels[t] for t in ticks])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(1.6, top * 1.6)
    ax.set_xlabel("percentile (the max drawn at 1 / count)")


def log_latency_axis(ax, label="latency (us)"):
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.10g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.set_ylabel(label)


def percentile_lines(ax, xs, rounds, color, label, style="-", shade=True, marker="o"):
    """rounds: list of per-round lists of latencies at xs; median line, min-max band."""
    columns = list(zip(*rounds))
    meds = [statistics.median(c) for c in columns]
    ax.plot(xs, meds, style, color=color, label=label, marker=marker, markersize=3.5,
            linewidth=1.6 if style == "-" else 1.1, zorder=3)
    if shade:
        ax.fill_between(xs, [min(c) for c in columns], [max(c) for c in columns], color=color,
                        alpha=0.15, linewidth=0, zorder=2)
    return meds


# ---------------------------------------------------------------------------------------------
# The figures

TOPOLOGIES = ["unicast", "pipeline", "sequencer", "multicast", "diamond"]
WAITS = [("blocking", "blocking"), ("yielding", "yielding"), ("busyspin", "busy-spin")]
WAIT_COLORS = ["#1f77b4", "#2ca02c", "#d62728"]


def ring_vs_lmax(runs, out, png):
    """Slipstream / LMAX Disruptor 4.0.0, continuous stream, every topology and wait, 2 vCPUs."""
    machines = [
        ("AMD EPYC, 2 vCPUs: two suites pooled, 14 rounds",
         ["2026-11-27-epyc-chase-step/suite", "2026-11-27-epyc-chase-step/suite-2"]),
        ("Intel Xeon, 2 vCPUs: one suite, 7 rounds", ["2026-11-29-intel-suite"]),
    ]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.8), sharey=True)
    for ax, (title, folders) in zip(axes, machines):
        values = {}
        for topology in TOPOLOGIES:
            for wait, wait_label in WAITS:
                ratios = []
                for folder in folders:
                    path = f"{folder}/{topology}-{wait}.txt"
                    if runs.exists(path):
                        ratios += continuous_ratios(runs.read(path))
                if ratios:
                    values[(topology, wait_label)] = ratios
        grouped_ratio_bars(ax, TOPOLOGIES, [w for _, w in WAITS], WAIT_COLORS, values, 0.2, 30)
        ax.set_title(title)
    axes[0].set_ylabel("Slipstream / LMAX, per-round ratio\n(bar: median, whisker: min-max; log scale)")
    axes[0].legend(title="wait strategy", loc="upper right", ncol=3)
    fig.suptitle("The ring against LMAX Disruptor 4.0.0, events back to back "
                 "(above 1: Slipstream faster); OpenJDK 17.0.15")
    lines = caption(fig,
                    "Raw output: docs/benchmarks/runs/2026-11-27-epyc-chase-step/raw.tar.xz (suite/, suite-2/) "
                    "and docs/benchmarks/runs/2026-11-29-intel-suite/*.txt (the meps= of every run). "
                    "Command: PASS_OPTS=\"-seconds 1 -warmups 1 -passes 3\" "
                    "benchmarks/scripts/continuous-suite.sh 7 OUT (the EPYC suites with PROBE=1); "
                    "busy-spin runs only where the two threads fit the two cores (unicast). "
                    "Page: docs/benchmarks/continuous.md.")
    finish(fig, "ring-vs-lmax", out, png, lines, top=0.86)


def ring_vs_lmax_16_cores(runs, out, png):
    """The ring with a core per thread: JMH busy-spin (2026-11-26) and continuous (2026-11-27)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True,
                             gridspec_kw={"width_ratios": [5, 4]})
    # JMH, busy-spinning consumers, 5 rounds.
    jmh = {}
    for r in range(1, 10):
        path = f"2026-11-26-xeon16/rings-r{r}.json"
        if not runs.exists(path):
            continue
        score = {}
        for result in json.loads(runs.read(path)):
            topology = result["benchmark"].split(".")[-2].replace("Throughput", "").lower()
            score[(topology, result["params"]["impl"])] = result["primaryMetric"]["score"]
        for topology in TOPOLOGIES:
            jmh.setdefault((topology, "busy-spin"), []).append(
                score[(topology, "slipstream")] / score[(topology, "lmax")])
    grouped_ratio_bars(axes[0], TOPOLOGIES, ["busy-spin"], [WAIT_COLORS[2]], jmh, 0.05, 10)
    axes[0].set_title(f"JMH, busy-spinning consumers, {len(jmh[('unicast', 'busy-spin')])} rounds (2026-11-26)")
    axes[0].set_ylabel("Slipstream / LMAX, per-round ratio\n(bar: median, whisker: min-max; log scale)")
    # Continuous stream, one JVM per run, 7 rounds.
    cells = {
        ("unicast", "yielding"): "2026-11-27-xeon16/second/continuous-unicast-yielding.txt",
        ("unicast", "busy-spin"): "2026-11-27-xeon16/second/continuous-unicast-busyspin.txt",
        ("pipeline", "yielding"): "2026-11-27-xeon16/first/continuous-pipeline.txt",
        ("pipeline, 2nd series", "yielding"): "2026-11-27-xeon16/second/continuous-pipeline-nochase.txt",
        ("diamond", "yielding"): "2026-11-27-xeon16/first/continuous-diamond.txt",
    }
    values = {cell: continuous_ratios(runs.read(path)) for cell, path in cells.items()}
    groups = ["unicast", "pipeline", "pipeline, 2nd series", "diamond"]
    grouped_ratio_bars(axes[1], groups, ["yielding", "busy-spin"], WAIT_COLORS[1:], values, 0.05, 10)
    axes[1].set_title("Continuous stream, 7 rounds, one JVM per run (2026-11-27)")
    axes[1].legend(title="wait strategy", loc="lower right")
    fig.suptitle("The ring against LMAX Disruptor 4.0.0 with a core per thread: 16 vCPUs of an "
                 "Intel Xeon VM, OpenJDK 17.0.15\n(above 1: Slipstream faster)")
    lines = caption(fig,
                    "Raw output: docs/benchmarks/runs/2026-11-26-xeon16/raw.tar.xz (rings-r*.json; "
                    "benchmarks/scripts/scaling.sh) and docs/benchmarks/runs/2026-11-27-xeon16/raw.tar.xz "
                    "(first/, second/continuous-*.txt; PASS_OPTS=\"-seconds 0.7 -warmups 1 -passes 3\" "
                    "continuous.sh 7 SHAPE WAIT lmax=JAR:lmax slipstream=JAR:dsl). The continuous runs used "
                    "handler classes implementing both libraries' interfaces (see the page). "
                    "Page: docs/benchmarks/scaling-16-cores.md.")
    finish(fig, "ring-vs-lmax-16-cores", out, png, lines, top=0.82)


QUEUES = [
    ("LprqQueue", "LprqQueue", "#1f77b4", "-"),
    ("LscqQueue", "LscqQueue", "#17becf", "-"),
    ("ConcurrentLinkedQueue", "ConcurrentLinkedQueue", "#ff7f0e", "--"),
    ("MpmcUnboundedXaddArrayQueue", "JCTools xadd", "#2ca02c", "--"),
    ("LinkedBlockingQueue", "LinkedBlockingQueue", "#d62728", ":"),
    ("ArrayBlockingQueue", "ArrayBlockingQueue", "#9467bd", ":"),
]
WORKLOADS = [
    ("EnqueueOnly", "EnqueueOnly"),
    ("DequeueOnlyEmpty", "DequeueOnlyEmpty (empty poll)"),
    ("Pair", "Pair"),
    ("50Enqueue50Dequeue", "50/50"),
    ("30Enqueue70Dequeue", "30/70"),
    ("70Enqueue30Dequeue", "70/30"),
]


def threads_axis(ax, threads):
    ax.set_xscale("log", base=2)
    ax.set_xticks(threads)
    ax.set_xticklabels([str(t) for t in threads])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(threads[0] / 1.25, threads[-1] * 1.25)


def plain_log_labels(v, _):
    """Labels on a log axis at 1, 2, 3 and 5 times a power of ten, as plain numbers."""
    if v <= 0:
        return ""
    mantissa = v / 10 ** math.floor(math.log10(v) + 1e-9)
    return f"{v:,.10g}" if round(mantissa, 6) in (1, 2, 3, 5) else ""


def mops_axis(ax):
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(plain_log_labels))
    ax.yaxis.set_minor_formatter(FuncFormatter(plain_log_labels))


def queue_curves(ax, results, queue, label, color, style, threads, workload):
    xs, meds, los, his = [], [], [], []
    for t in threads:
        per_round = results.get((queue, workload, t))
        if not per_round:
            continue
        ops = [1e3 / ns for ns in per_round.values()]  # ns per operation -> M operations/s
        med, mn, mx = med_range(ops)
        xs.append(t)
        meds.append(med)
        los.append(mn)
        his.append(mx)
    if xs:
        ax.plot(xs, meds, style, color=color, marker="o", markersize=3.5, label=label, zorder=3)
        ax.fill_between(xs, los, his, color=color, alpha=0.1, linewidth=0, zorder=2)


def queues_two_cores(runs, out, png):
    results = article_results(runs, "2026-11-27-epyc-queue-article-forked/article-suite")
    threads = [1, 2, 4, 8]
    rounds = len(next(iter(results.values())))
    fig, axes = plt.subplots(2, 3, figsize=(11, 7.2))
    for ax, (workload, title) in zip(axes.flat, WORKLOADS):
        for queue, label, color, style in QUEUES:
            queue_curves(ax, results, queue, label, color, style, threads, workload)
        threads_axis(ax, threads)
        mops_axis(ax)
        ax.set_title(title)
    for ax in axes[:, 0]:
        ax.set_ylabel("M operations/s, all threads\n(log scale; higher is better)")
    for ax in axes[1, :]:
        ax.set_xlabel("threads")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=6, bbox_to_anchor=(0.5, 0.925))
    fig.suptitle("Queues on the LSCQ article's workloads against the thread count: 2-vCPU AMD EPYC VM, "
                 f"OpenJDK 17.0.15\nline: median of {rounds} rounds, band: min-max")
    lines = caption(fig,
                    "1000 / (ns per operation) of every JVM's RESULT line; one JVM per queue, workload, thread "
                    "count and round. Raw output: docs/benchmarks/runs/2026-11-27-epyc-queue-article-forked/"
                    "raw.tar.xz (article-suite/raw/). Command: benchmarks/scripts/queue-article.sh OUT 7 "
                    "(1,000,000 operations per thread). More threads than cores above 2. "
                    "Page: docs/benchmarks/queues.md.")
    finish(fig, "queues-2-cores", out, png, lines, top=0.85)


def queue_ratio_curves(ax, results, queue, peer, label, color, style, threads, workload):
    xs, meds, los, his = [], [], [], []
    for t in threads:
        mine, theirs = results.get((queue, workload, t)), results.get((peer, workload, t))
        if not (mine and theirs):
            continue
        ratios = [theirs[r] / mine[r] for r in sorted(set(mine) & set(theirs))]
        med, mn, mx = med_range(ratios)
        xs.append(t)
        meds.append(med)
        los.append(mn)
        his.append(mx)
    if xs:
        ax.plot(xs, meds, style, color=color, marker="o", markersize=3.5, label=label, zorder=3)
        ax.fill_between(xs, los, his, color=color, alpha=0.1, linewidth=0, zorder=2)


def queues_lprq_ratios(runs, out, png):
    results = article_results(runs, "2026-11-27-epyc-queue-article-forked/article-suite")
    threads = [1, 2, 4, 8]
    fig, axes = plt.subplots(2, 3, figsize=(11, 7.2), sharey=True)
    for ax, (workload, title) in zip(axes.flat, WORKLOADS):
        for queue, label, color, style in QUEUES[1:]:
            queue_ratio_curves(ax, results, "LprqQueue", queue, "against " + label, color, style,
                               threads, workload)
        threads_axis(ax, threads)
        log_ratio_axis(ax, 0.03, 150)
        ax.yaxis.set_major_locator(FixedLocator([0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]))
        ax.set_title(title)
    for ax in axes[:, 0]:
        ax.set_ylabel("peer's ns/op / LprqQueue's, per round\n(above 1: LprqQueue faster; log scale)")
    for ax in axes[1, :]:
        ax.set_xlabel("threads")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=5, bbox_to_anchor=(0.5, 0.925))
    fig.suptitle("LprqQueue against each peer, by thread count: 2-vCPU AMD EPYC VM, OpenJDK 17.0.15\n"
                 "line: median of the 7 per-round ratios, band: min-max")
    lines = caption(fig,
                    "Raw output: docs/benchmarks/runs/2026-11-27-epyc-queue-article-forked/raw.tar.xz "
                    "(article-suite/raw/, the ns_per_op of every JVM's RESULT line, paired by round). "
                    "Command: benchmarks/scripts/queue-article.sh OUT 7. Page: docs/benchmarks/queues.md.")
    finish(fig, "queues-lprq-ratios-2-cores", out, png, lines, top=0.85)


def queues_sixteen_cores(runs, out, png):
    """Unbounded queues at 4, 8, 16 threads (article workloads) and bounded queues 1P1C-8P8C (JMH)."""
    results = article_results(runs, "2026-11-27-xeon16/first/article16")
    results.update(article_results(runs, "2026-11-27-xeon16/second/article4-8"))
    threads = [4, 8, 16]
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.8))
    for ax, (workload, title) in zip(axes, [("Pair", "Pair, 7 rounds"), ("50Enqueue50Dequeue", "50/50, 7 rounds")]):
        for queue, label, color, style in QUEUES[:5]:
            queue_curves(ax, results, queue, label, color, style, threads, workload)
        threads_axis(ax, threads)
        mops_axis(ax)
        ax.set_title("article workload " + title)
        ax.set_xlabel("threads")
    axes[0].set_ylabel("M operations/s, all threads (log scale)")
    axes[0].legend(loc="lower left")
    # Bounded queues, P producers and P consumers, JMH, 5 rounds.
    bounded = [("ScqQueue", "ScqQueue", "#1f77b4", "-"),
               ("LscqQueue", "LscqQueue (unbounded)", "#17becf", "-"),
               ("ArrayBlockingQueue", "ArrayBlockingQueue", "#9467bd", ":"),
               ("MpmcArrayQueue", "JCTools MpmcArrayQueue", "#8c564b", "--"),
               ("MpmcUnboundedXaddArrayQueue", "JCTools xadd (unbounded)", "#2ca02c", "--"),
               ("ConcurrentLinkedQueue", "ConcurrentLinkedQueue", "#ff7f0e", "--")]
    pairs = [1, 2, 4, 8]
    polled = {}
    for p in pairs:
        for r in range(1, 10):
            path = f"2026-11-26-xeon16/queues-{p}x{p}-r{r}.json"
            if not runs.exists(path):
                continue
            for result in json.loads(runs.read(path)):
                polled.setdefault((result["params"]["impl"], p), []).append(
                    result["secondaryMetrics"]["polled"]["score"])
    ax = axes[2]
    for queue, label, color, style in bounded:
        meds = [med_range(polled[(queue, p)]) for p in pairs]
        ax.plot(pairs, [m[0] for m in meds], style, color=color, marker="o", markersize=3.5,
                label=label, zorder=3)
        ax.fill_between(pairs, [m[1] for m in meds], [m[2] for m in meds], color=color, alpha=0.1,
                        linewidth=0, zorder=2)
    threads_axis(ax, pairs)
    ax.set_xticklabels([f"{p}P{p}C" for p in pairs])
    mops_axis(ax)
    ax.set_title(f"producers + consumers (JMH), {len(polled[('ScqQueue', 1)])} rounds")
    ax.set_ylabel("elements moved per us (log scale)")
    ax.set_xlabel("producers and consumers")
    ax.legend(loc="upper right", fontsize=7)
    fig.suptitle("Queues on 16 vCPUs of an Intel Xeon VM, OpenJDK 17.0.15\nline: median over the "
                 "rounds, band: min-max (higher is better)")
    lines = caption(fig,
                    "Left, middle: 1000 / ns_per_op of every JVM's RESULT line, docs/benchmarks/runs/2026-11-27-xeon16/"
                    "raw.tar.xz (first/article16/raw/: 16 threads; second/article4-8/raw/: 4 and 8 threads; "
                    "QUEUES=... WORKLOADS=\"Pair 50Enqueue50Dequeue\" queue-article.sh OUT 7 200000 THREADS; "
                    "ConcurrentLinkedQueue at 16 threads only). Right: the 'polled' counter of "
                    "QueueProducerConsumer, docs/benchmarks/runs/2026-11-26-xeon16/raw.tar.xz "
                    "(queues-PxP-rN.json; benchmarks/scripts/scaling.sh). Page: docs/benchmarks/scaling-16-cores.md.")
    finish(fig, "queues-16-cores", out, png, lines)


LATENCY_WAITS = [("busyspin", "busy-spin", "#d62728"), ("yielding", "yielding", "#2ca02c"),
                 ("hybrid", "hybrid", "#9467bd"), ("blocking", "blocking", "#1f77b4")]
TSV_PERCENTILES = [("p50_ns", 2), ("p90_ns", 10), ("p99_ns", 100), ("p99.9_ns", 1000),
                   ("p99.99_ns", 10_000)]


def latency_waits(runs, out, png):
    """One-way latency of the four waits, shipped code (new) against the code before the redesign."""
    folder = "2026-11-29-redesign-same-layouts"
    data = {}  # (side, wait, rate) -> [per-round list of latencies in us], and counts
    counts = {}
    for side in ("new", "old"):
        for wait, _, _ in LATENCY_WAITS:
            for r in range(1, 20):
                path = f"{folder}/latency-raw/{side}-{wait}-{r}.tsv"
                if not runs.exists(path):
                    continue
                for row in tsv_rows(runs.read(path)):
                    rate = int(row["rate"])
                    values = [float(row[c]) / 1e3 for c, _ in TSV_PERCENTILES] + [float(row["max_ns"]) / 1e3]
                    data.setdefault((side, wait, rate), []).append(values)
                    counts[rate] = int(row["count"])
    rates = sorted(counts)
    fig, axes = plt.subplots(1, len(rates), figsize=(11, 5.4), sharey=True)
    for ax, rate in zip(axes, rates):
        xs = [x for _, x in TSV_PERCENTILES] + [counts[rate]]
        for wait, label, color in LATENCY_WAITS:
            rounds = data[("new", wait, rate)]
            percentile_lines(ax, xs, rounds, color, f"{label} ({len(rounds)} rounds)")
            old = data.get(("old", wait, rate))
            if old:
                percentile_lines(ax, xs, old, color, f"{label}, before the redesign", style="--",
                                 shade=False, marker="")
        percentile_axis(ax, xs)
        log_latency_axis(ax)
        ax.set_title(f"{rate:,} events/s, {counts[rate]:,} events per run")
    axes[-1].set_ylabel("")
    handles, labels = axes[0].get_legend_handles_labels()
    order = [i for i, l in enumerate(labels) if "before" not in l] + \
            [i for i, l in enumerate(labels) if "before" in l]
    fig.legend([handles[i] for i in order], [labels[i] for i in order], loc="upper center",
               ncol=4, bbox_to_anchor=(0.5, 0.895))
    fig.suptitle("One-way latency of the wait strategies, unicast, paced producer (coordinated omission "
                 "avoided): 2-vCPU KVM VM (Intel Xeon), OpenJDK 17.0.15\nsolid: the shipped code, median "
                 "of the rounds, band: min-max; dashed: the code before the worker-runtime redesign "
                 "(76da323), median")
    lines = caption(fig,
                    "Raw output: docs/benchmarks/runs/2026-11-29-redesign-same-layouts/raw.tar.xz "
                    "(latency-raw/SIDE-WAIT-ROUND.tsv: p50, p90, p99, p99.9, p99.99 and max per run). "
                    "Command: JAR=NEW.jar benchmarks/scripts/latency-interleaved.sh 8 10000,100000 "
                    "old-W=slipstream:W:OLD.jar new-W=slipstream:W. No .hlog files are kept, so each line "
                    "joins the percentiles the harness printed. Page: docs/benchmarks/continuous.md.")
    finish(fig, "latency-waits", out, png, lines, top=0.76)


JOURNAL_CASES = [
    ("control", "control (no journal)", "#7f7f7f"),
    ("slipstream-never", "never()", "#aec7e8"),
    ("slipstream-500us", "atMostEvery(500 us)", "#6baed6"),
    ("slipstream-batch", "everyBatch()", "#1f77b4"),
    ("chronicle-sync", "Chronicle Queue, SyncMode.SYNC", "#ff7f0e"),
    ("limit-mapped", "limit: mapping + msync", "#c7c7c7"),
    ("limit-channel", "limit: FileChannel + fdatasync", "#e0e0e0"),
]


def journal(runs, out, png):
    rows = result_lines(runs.read("2026-11-28-journal-like-for-like.txt"))
    latency = {}
    throughput = {}
    for row in rows:
        value = float(row["value"])
        if row["test"] == "throughput":
            throughput.setdefault((row["impl"], row["figure"]), []).append(value / 1e6)
        elif row["figure"] in ("p50", "p99", "p999"):
            latency.setdefault((int(row["test"].split("-")[1]), row["impl"], row["figure"]), []).append(value)
    rates = sorted({k[0] for k in latency})
    percentiles = [("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")]
    fig, axes = plt.subplots(1, len(rates) + 1, figsize=(13, 5.6),
                             gridspec_kw={"width_ratios": [4] * len(rates) + [2]})
    for ax, rate in zip(axes, rates):
        cases = [c for c in JOURNAL_CASES if (rate, c[0], "p50") in latency]
        width = 0.84 / len(cases)
        for i, (case, label, color) in enumerate(cases):
            xs, meds, los, his = [], [], [], []
            for p_index, (p, _) in enumerate(percentiles):
                med, mn, mx = med_range(latency[(rate, case, p)])
                xs.append(p_index + (i - (len(cases) - 1) / 2) * width)
                meds.append(med)
                los.append(med - mn)
                his.append(mx - med)
            ax.bar(xs, meds, width * 0.92, color=color, label=label, zorder=2,
                   edgecolor="#555555" if case.startswith("limit") else color, linewidth=0.5)
            ax.errorbar(xs, meds, yerr=[los, his], fmt="none", ecolor="#333333", elinewidth=0.7,
                        capsize=1.5, zorder=3)
        ax.set_xticks(range(len(percentiles)))
        ax.set_xticklabels([p for _, p in percentiles])
        ax.grid(axis="x", visible=False)
        log_latency_axis(ax, "latency from the paced schedule (us)" if rate == rates[0] else "")
        ax.set_ylim(1, 2 * max(max(v) for v in latency.values()))
        ax.set_title(f"{rate:,} events/s")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=7, bbox_to_anchor=(0.5, 0.895))
    ax = axes[-1]
    for i, (impl, label, color) in enumerate([("slipstream", "Slipstream never()", "#1f77b4"),
                                              ("chronicle", "Chronicle, SyncMode.NONE", "#ff7f0e")]):
        for j, figure in enumerate(("append", "replay")):
            med, mn, mx = med_range(throughput[(impl, figure)])
            x = j + (i - 0.5) * 0.4
            ax.bar([x], [med], 0.37, color=color, label=label if j == 0 else None, zorder=2)
            ax.errorbar([x], [med], yerr=[[med - mn], [mx - med]], fmt="none", ecolor="#333333",
                        elinewidth=0.7, capsize=2, zorder=3)
            ax.text(x, mx * 1.02, f"{med:.1f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks([0, 1])
    ax.set_xticklabels(["append", "replay"])
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("M records/s, 4,000,000 records per run (higher is better)")
    ax.set_title("append and replay, no sync")
    ax.legend(loc="upper left", fontsize=7)
    ax.set_ylim(0, 50)
    rounds = len(throughput[("slipstream", "append")])
    fig.suptitle("The journal against Chronicle Queue 2026.4, 64-byte payloads: 2-vCPU KVM VM (Intel Xeon), "
                 f"OpenJDK 17.0.15, ext4 on a virtio disk\nbar: median of {rounds} rounds, whisker: min-max")
    lines = caption(fig,
                    "Raw output: docs/benchmarks/runs/2026-11-28-journal-like-for-like.txt (RESULT lines: p50, "
                    "p99, p99.9 of each case and round; append and replay rates). Command: STRACE=1 "
                    "benchmarks/scripts/journal-like-for-like.sh 7 10000,100000,1000000. Latency is from when "
                    "each event was due (coordinated omission handled); the pre-toucher was off. "
                    "Page: docs/benchmarks/journal.md.")
    finish(fig, "journal-vs-chronicle", out, png, lines, top=0.78)


CLUSTER_PERCENTILES = [("p50", 2), ("p90", 10), ("p99", 100), ("p999", 1000)]


def cluster_round_trip(runs, out, png, path, name, title, source):
    rows = result_lines(runs.read(path))
    per_run = {}
    counts = {}
    for row in rows:
        key = (row["impl"], int(row["rate"]), int(row["round"]))
        per_run.setdefault(key, {})[row["figure"]] = float(row["value"])
        counts[int(row["rate"])] = int(row["count"])
    rates = sorted(counts)
    fig, axes = plt.subplots(1, len(rates), figsize=(11, 4.9), sharey=True)
    for ax, rate in zip(axes, rates):
        xs = [x for _, x in CLUSTER_PERCENTILES] + [counts[rate]]
        for impl, label, color in (("echo", "Aeron Cluster echo service", PEER),
                                   ("pipeline", "PipelineClusteredService, one stage", SLIPSTREAM)):
            runs_of = [v for (i, r, _), v in sorted(per_run.items()) if i == impl and r == rate]
            rounds = [[run[f] for f, _ in CLUSTER_PERCENTILES] + [run["max"]] for run in runs_of]
            percentile_lines(ax, xs, rounds, color, f"{label} ({len(rounds)} rounds)")
        percentile_axis(ax, xs)
        log_latency_axis(ax, "round trip from the intended send time (us)" if ax is axes[0] else "")
        ax.set_title(f"{rate:,} commands/s, {counts[rate]:,} per run")
    axes[0].legend(loc="lower right")
    fig.suptitle(title + "\nline: median of the rounds at each percentile, band: min-max")
    lines = caption(fig, source)
    finish(fig, name, out, png, lines, top=0.84)


def cluster(runs, out, png):
    cluster_round_trip(
        runs, out, png, "2026-12-04-cluster-bad-commands/raw.txt", "cluster-round-trip",
        "A command's round trip through a one-member cluster: 2-vCPU KVM VM (AMD EPYC), OpenJDK 17.0.15",
        "Raw output: docs/benchmarks/runs/2026-12-04-cluster-bad-commands/raw.txt (RESULT lines: p50, "
        "p90, p99, p99.9 and max of each run). Command: JAR_BASE=<benchmarks.jar of fa437bf> "
        "benchmarks/scripts/cluster-round-trip.sh 7 10000,50000 (one member, one stage, fast replies on; "
        "the pipeline-base runs are not drawn). Beyond p99 the 2-vCPU VM's stalls dominate: indicative "
        "only. Page: docs/benchmarks/cluster.md.")
    cluster_round_trip(
        runs, out, png, "2026-11-29-cluster-sixteen-cores/raw-three-members.txt", "cluster-round-trip-16-cores",
        "A command's round trip through three members on 16 cores (Intel Xeon, one thread per core), "
        "OpenJDK 17.0.15",
        "Raw output: docs/benchmarks/runs/2026-11-29-cluster-sixteen-cores/raw-three-members.txt.xz "
        "(RESULT lines). Command: EXTRA=\"--members 3\" benchmarks/scripts/cluster-round-trip.sh 7 "
        "10000,50000 (one stage, fast replies on). Page: docs/benchmarks/cluster.md.")


FIGURES = [ring_vs_lmax, ring_vs_lmax_16_cores, queues_two_cores, queues_lprq_ratios,
           queues_sixteen_cores, latency_waits, journal, cluster]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", default=os.path.join(ROOT, "docs", "benchmarks", "runs"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks", "img"))
    parser.add_argument("--png", help="also write PNG copies into this folder, to look at")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.png:
        os.makedirs(args.png, exist_ok=True)
    runs = Runs(args.runs)
    for figure in FIGURES:
        figure(runs, args.out, args.png)


if __name__ == "__main__":
    main()
