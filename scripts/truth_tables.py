#!/usr/bin/env python3
"""truth_tables.py [SRC]: the tables of docs/measurement.md, made from the
truth runs committed under SRC/data/<gpu>/truth-*/: truth.csv of the run's
clock, with events/truth.csv and flush-write/truth.csv (the CUPTI-clock runs),
cupti/truth.csv (the profiler-clock runs), flush-read/truth.csv (the
read-last runs), flush-read-last/truth.csv (the empty-flush runs) or
isolate-1/truth.csv (the default clock with --isolate 1) beside it; a run with none of them is the default clock's. A CPU test diffs its output
against the section of docs/measurement.md between the markers."""
import csv
import glob
import json
import os
import sys


def rows(path):
    return {(r['tag'], r['mode']): r for r in csv.DictReader(open(path))} if os.path.exists(path) else {}


def gpu_name(run_dir):
    for run_json in sorted(glob.glob(os.path.join(run_dir, 'points', '*', 'run.json'))):
        return json.load(open(run_json))['device']['name']
    return '?'


def us(r, key):
    return '%.3f' % (float(r[key]) / 1e3) if r and r.get(key) else ''


def clock(r):
    return {'profiler': 'profiler', 'cupti': 'CUPTI'}.get(r['time_source'], r['time_source'])


def table_cupti(run_dir, main, sub='cupti', first='the profiler clock', second='the CUPTI clock',
                cols=('gpubound, profiler (us)', 'gpubound, CUPTI (us)')):
    """A profiler-clock run and a second pass (sub/) against the same ncu exports."""
    cu = rows(os.path.join(run_dir, sub, 'truth.csv'))
    out = ['%s (`%s`): %d of %d comparisons within 1%% or 0.1 us of ncu with %s, '
           '%d with %s.' % (
        gpu_name(run_dir), os.path.relpath(run_dir, SRC), sum(r['pass'] == 'yes' for r in main.values()), len(main),
        first, sum(r['pass'] == 'yes' for r in cu.values()), second),
        '',
        '| point | mode | ncu (us) | %s | difference | %s | difference |' % cols,
        '| --- | --- | ---: | ---: | ---: | ---: | ---: |']
    for (tag, mode), r in main.items():
        c = cu.get((tag, mode))
        out.append('| %s | %s | %s | %s | %+.2f%% | %s | %s |' % (
            tag, mode, us(r, 'ncu_median_ns'), us(r, 'gpubound_ns'), float(r['diff_pct']),
            us(c, 'gpubound_ns') + (' (batch)' if c and c['time_source'].endswith('graph') else ''),
            '%+.2f%%' % float(c['diff_pct']) if c else ''))
    return '\n'.join(out)


def table_default(run_dir, main):
    """A run of the default clock (auto: each point's clock in a column)."""
    out = ['%s (`%s`): %d of %d comparisons within 1%% or 0.1 us of ncu with the default clock.' % (
        gpu_name(run_dir), os.path.relpath(run_dir, SRC), sum(r['pass'] == 'yes' for r in main.values()), len(main)),
        '',
        '| point | mode | ncu (us) | gpubound (us) | clock | difference | within the goal |',
        '| --- | --- | ---: | ---: | --- | ---: | --- |']
    for (tag, mode), r in main.items():
        out.append('| %s | %s | %s | %s | %s | %+.2f%% | %s |' % (
            tag, mode, us(r, 'ncu_median_ns'), us(r, 'gpubound_ns'), clock(r), float(r['diff_pct']), r['pass']))
    return '\n'.join(out)


SUBDIRS = ('cupti', 'flush-read', 'flush-read-last', 'events', 'flush-write')


def table(run_dir):
    main = rows(os.path.join(run_dir, 'truth.csv'))
    if os.path.isdir(os.path.join(run_dir, 'isolate-1')):
        return table_cupti(run_dir, main, 'isolate-1', 'the default clock', '`--isolate 1`',
                           ('gpubound (us)', 'gpubound, --isolate 1 (us)'))
    if not any(os.path.isdir(os.path.join(run_dir, d)) for d in SUBDIRS):
        return table_default(run_dir, main)
    if os.path.isdir(os.path.join(run_dir, 'cupti')):
        return table_cupti(run_dir, main)
    if os.path.isdir(os.path.join(run_dir, 'flush-read-last')):
        return table_cupti(run_dir, main, 'flush-read-last', 'the empty flush', 'the read-last flush',
                           ('gpubound, empty (us)', 'gpubound, read-last (us)'))
    if os.path.isdir(os.path.join(run_dir, 'flush-read')):
        return table_cupti(run_dir, main, 'flush-read', 'the read-last flush', 'the read flush',
                           ('gpubound, read-last (us)', 'gpubound, read (us)'))
    ev = rows(os.path.join(run_dir, 'events', 'truth.csv'))
    wr = rows(os.path.join(run_dir, 'flush-write', 'truth.csv'))
    out = ['%s (`%s`): %d of %d comparisons within 1%% or 0.1 us of ncu.' % (
        gpu_name(run_dir), os.path.relpath(run_dir, SRC), sum(r['pass'] == 'yes' for r in main.values()), len(main)),
        '',
        '| point | mode | ncu (us) | gpubound, CUPTI (us) | difference | events (us) | write flush (us) |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: |']
    for (tag, mode), r in main.items():
        e, w = ev.get((tag, mode)), wr.get((tag, mode))
        out.append('| %s | %s | %s | %s | %+.2f%% | %s | %s |' % (
            tag, mode, us(r, 'ncu_median_ns'), us(r, 'gpubound_ns'), float(r['diff_pct']),
            us(e, 'gpubound_ns') + (' (batch)' if e and e['time_source'].endswith('graph') else ''),
            us(w, 'gpubound_ns')))
    return '\n'.join(out)


SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
def default_clock_first(d):
    """Per GPU, the default clock's runs first, then the others newest first."""
    has_sub = any(os.path.isdir(os.path.join(d, s)) for s in SUBDIRS)
    return (os.path.basename(os.path.dirname(d)), has_sub, os.path.basename(d))


runs = sorted(glob.glob(os.path.join(SRC, 'data', '*', 'truth-*')), reverse=True)
runs.sort(key=lambda d: default_clock_first(d)[:2], reverse=False)
runs.sort(key=lambda d: default_clock_first(d)[0], reverse=True)
print('\n\n'.join(table(d) for d in runs))
