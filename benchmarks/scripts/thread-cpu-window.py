#!/usr/bin/env python3
"""CPU time of every thread of the processes whose command line holds MATCH, over a window.

Waits DELAY seconds, reads each thread's user and system time from /proc/PID/task/TID/stat,
waits WINDOW seconds, reads them again and prints the 25 threads that used the most in between
(process id, thread name, user and system seconds), after the window's totals. Linux only.

Usage: benchmarks/scripts/thread-cpu-window.py DELAY WINDOW MATCH [MATCH...]
e.g., beside a snapshot-stall run (the snapshot comes about 15 s after the members start):
    benchmarks/scripts/thread-cpu-window.py 15 4 SnapshotStallMember StallClient > threads.txt &
    PATHS=streamed benchmarks/scripts/snapshot-stall.sh 256 1
"""
import os
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def snapshot(matches):
    times = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if pid == str(os.getpid()):
            continue
        try:
            command = open(f"/proc/{pid}/cmdline").read()
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        if not any(m in command for m in matches):
            continue
        for tid in tids:
            try:
                stat = open(f"/proc/{pid}/task/{tid}/stat").read()
                name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            except OSError:
                continue  # the thread ended between the listing and the read
            fields = stat[stat.rindex(")") + 2:].split()
            times[(pid, tid, name)] = (int(fields[11]), int(fields[12]))  # utime, stime
    return times


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    delay, window, matches = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
    time.sleep(delay)
    before, began = snapshot(matches), time.time()
    time.sleep(window)
    after, ended = snapshot(matches), time.time()
    rows = []
    for key, (user, system) in after.items():
        user0, system0 = before.get(key, (0, 0))
        rows.append((user - user0, system - system0, key))
    rows.sort(key=lambda row: -(row[0] + row[1]))
    print(f"window {ended - began:.1f}s total user {sum(r[0] for r in rows) / TICKS:.2f}s"
          f" sys {sum(r[1] for r in rows) / TICKS:.2f}s")
    for user, system, (pid, _, name) in rows[:25]:
        print(f"{pid:>7} {name:<18} user {user / TICKS:5.2f} sys {system / TICKS:5.2f}")


if __name__ == "__main__":
    main()
