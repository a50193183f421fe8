#!/usr/bin/env python3
"""The rooms of src/ and the includes between them (tests/cli/layers.sh).

Every file under src/<room>/ and every public header include/gpubound/*.h
belongs to one room (a public header's room is in ROOMS_OF_HEADERS below:
the folder that implements it). An #include of a header of another room is
an arrow between rooms. Two rules:

  1. No upward arrow between the layered rooms, lowest first: numbers,
     results, models, suites, measure, report, cli. A file of one of them
     includes no header of a room above it; a file of numbers/ (the floor)
     includes only util/ besides its own.
  2. No cycle across rooms: the arrows between all rooms (util, numbers,
     gpu, analyze and the layered ones) form no loop.

The arrows that break a rule today are listed, with why, in ALLOWED: the
check fails on any other, and on an allowed one that is gone (so that the
list shrinks as the tree is mended). `layers.py SRC` prints what breaks a
rule and exits 1; `layers.py SRC --graph` prints every arrow with its count.
"""
import os
import re
import sys

LAYERS = ["numbers", "results", "models", "suites", "measure", "report", "cli"]

# The floor: what a file of numbers/ may include besides its own.
FLOOR, UNDER_FLOOR = "numbers", {"util"}

# The room of each public header: where what it declares is implemented.
ROOMS_OF_HEADERS = {
    "status": "util", "api": "util",
    "numbers": "numbers", "counter_names": "numbers",
    "gpu": "gpu", "device": "gpu", "cuda_decls": "gpu",
    "analyze": "analyze", "cexpr": "analyze", "ptx": "analyze",
    # chart_spec: the chart specs a run directory carries (charts.json), read
    # and written beside its records; the suites declare theirs with it.
    "results": "results", "counters": "results", "ncu": "results", "chart_spec": "results",
    "camp_counts": "models", "camp_detect": "models", "camp_run": "models", "campprof": "models", "compare": "models",
    "geometry": "models", "lpbm": "models", "lpbm_input": "models", "lpbm_run": "models", "nnls": "models",
    "occupancy": "models", "regress": "models", "tune": "models", "speedup": "models", "roofline": "models", "guide": "models",
    "measure": "measure", "session": "measure", "fleet_loop": "measure",
    "suite": "suites", "spec": "suites", "camp_inflight": "suites", "bench_inflight": "suites",
    "band": "report", "breakdown_chart": "report", "compare_report": "report",
    "geometry_tables": "report", "plot": "report", "report": "report", "report_html": "report",
    "table": "report",
    # The documents for bindings: a run and a comparison, written by the
    # records' and compare's writers.
    "export": "report",
    # The fleet by job: its records, its outlier rule, its run, its tables.
    "fleet_records": "results", "fleet": "models", "fleet_run": "measure", "fleet_tables": "report",
}

# Arrows that break a rule today: (file, header) -> why. Each is a debt to
# pay, not a licence; a new arrow like them fails the check, and so does a
# listed one that is gone.
ALLOWED = {
    ("src/models/lpbm/lpbm_internal.h", "gpubound/spec.h"):
        "the breakdown loads a kernel spec through suites/ (dragging in gpu.h and cuda.h)",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of_header(name, own_room):
    """The room of an included header, or None when it is no room's."""
    parts = name.split("/")
    if len(parts) == 1:
        return own_room  # a header of the includer's own folder
    if parts[0] == "gpubound":
        base = parts[-1][:-2] if parts[-1].endswith(".h") else parts[-1]
        return ROOMS_OF_HEADERS.get(base, "?" + base)
    return parts[0]


def members(src):
    """(path relative to the tree, room) of every file that belongs to a room."""
    for room in sorted(os.listdir(os.path.join(src, "src"))):
        top = os.path.join(src, "src", room)
        if not os.path.isdir(top):
            continue
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, f), src), room
    inc = os.path.join(src, "include", "gpubound")
    for f in sorted(os.listdir(inc)):
        if f.endswith(".h"):
            yield os.path.join("include", "gpubound", f), ROOMS_OF_HEADERS.get(f[:-2], "?" + f[:-2])


def arrows(src):
    """(file, room, header, header's room) for each include across rooms."""
    rooms = {room for _, room in members(src)} | set(ROOMS_OF_HEADERS.values())
    for path, room in members(src):
        with open(os.path.join(src, path), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            to = room_of_header(name, room)
            if to is None or to == room:
                continue
            if not to.startswith("?") and to not in rooms:
                continue  # generated or third-party
            yield path, room, name, to


def find_cycle(edges):
    """One loop of rooms in the graph {room: set(rooms)}, or None."""
    state = {}

    def visit(n, path):
        state[n] = 1
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if m not in state:
                found = visit(m, path + [m])
                if found:
                    return found
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            found = visit(n, [n])
            if found:
                return found
    return None


def check(src):
    problems, used = [], set()
    edges = {}
    for path, room, name, to in arrows(src):
        if to.startswith("?"):
            problems.append(f"{path}: includes {name}, a public header with no room: add it to "
                            f"ROOMS_OF_HEADERS in scripts/layers.py")
            continue
        upward = room in LAYERS and to in LAYERS and LAYERS.index(to) > LAYERS.index(room)
        if room == FLOOR and to not in UNDER_FLOOR:
            problems.append(f"{path}: includes {name}: {FLOOR}/ includes only util/ and itself")
            continue
        if (path, name) in ALLOWED:
            used.add((path, name))
            continue  # a listed debt: neither an upward arrow nor part of a cycle
        if upward:
            problems.append(f"{path}: includes {name}: {room}/ reaches up to {to}/ "
                            f"(layers, lowest first: {', '.join(LAYERS)})")
        edges.setdefault(room, set()).add(to)
    for key in sorted(set(ALLOWED) - used):
        problems.append(f"{key[0]} no longer includes {key[1]}: take it off ALLOWED in scripts/layers.py")
    cycle = find_cycle(edges)
    if cycle:
        problems.append("the rooms include each other in a loop: " + " -> ".join(cycle))
    return problems


def main():
    if len(sys.argv) < 2:
        print("usage: layers.py SRC [--graph]", file=sys.stderr)
        return 2
    src = sys.argv[1]
    if "--graph" in sys.argv[2:]:
        count = {}
        for path, room, name, to in arrows(src):
            count[(room, to)] = count.get((room, to), 0) + 1
        for (a, b), n in sorted(count.items()):
            print(f"{a} -> {b} {n}")
        return 0
    problems = check(src)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
