"""Run directories as pandas DataFrames, loaded by libgpubound (gb_run_load,
with every check of its loader) and exported by its own record writer."""

import math
from dataclasses import dataclass, field

import pandas as pd

from . import _lib

# The fixed columns of a record, in results.csv's names and order.
_TIMES = ("min", "median", "mean", "stddev", "ci_lo", "ci_hi")
_FIXED = ("suite", "bench", "status", "reason", "cache", "samples", "converged", "batch", "time_source",
          "cold_flush", "isolate_s") + tuple(f"{t}_ns" for t in _TIMES) + tuple(
              f"batch_{t}_ns" for t in _TIMES) + ("bytes", "flops", "bw_gbs", "gflops", "sm_mhz_before",
                                                  "sm_mhz_after", "throttled", "wall_s", "timed_s")


@dataclass
class Run:
    """A loaded run directory.

    records  -- one row per record (see ``records_frame`` for the columns)
    info     -- run.json as a dict (device, tool, times, ...)
    warnings -- the loader's consistency warnings, one line each
    truncated -- results.json was cut mid-write (a killed run)
    """
    dir: str
    records: pd.DataFrame
    info: dict
    warnings: list = field(default_factory=list)
    warnings_total: int = 0
    truncated: bool = False
    records_file: str = ""

    @property
    def device(self):
        """run.json's device (name, compute capability, mem_peak_gbs, ...), or {}."""
        return self.info.get("device") or {}


def _num(v):
    return math.nan if v is None else v


def _flatten(rec):
    """One record of results.json as one flat row."""
    row = {k: rec.get(k) for k in ("suite", "bench", "status", "reason", "cache", "samples", "converged",
                                    "batch", "time_source", "cold_flush")}
    row["isolate_s"] = _num(rec.get("isolate_s", 0.0))
    t = rec.get("time_ns") or {}
    b = rec.get("batch_time_ns") or {}
    for k in _TIMES:
        row[f"{k}_ns"] = _num(t.get(k))
        row[f"batch_{k}_ns"] = _num(b.get(k))
    for k in ("bytes", "flops", "bw_gbs", "gflops", "sm_mhz_before", "sm_mhz_after", "wall_s", "timed_s"):
        row[k] = _num(rec.get(k))
    row["throttled"] = bool(rec.get("throttled"))
    for k, v in (rec.get("axes") or {}).items():
        row[f"axis.{k}"] = v
    for k, v in (rec.get("metrics") or {}).items():
        row[f"metric.{k}"] = _num(v)
    for k, v in (rec.get("counters") or {}).items():
        row[f"counter.{k}"] = v if isinstance(v, list) else _num(v)
    row["sample_ns"] = rec.get("sample_ns")
    if "fleet" in rec:
        for k, v in rec["fleet"].items():
            row[f"fleet.{k}"] = v
    return row


def _axis_numeric(col):
    """An axis column as numbers when every value is a plain number, else as written."""
    conv = pd.to_numeric(col, errors="coerce")
    return conv if conv.notna().sum() == col.notna().sum() else col


def records_frame(records):
    """Records (dicts as in results.json) as a DataFrame, one row each.

    Columns: the fixed fields under results.csv's names (suite, bench,
    status, ..., min_ns, median_ns, ..., ci_lo_ns, ci_hi_ns, batch_*_ns,
    bytes, flops, bw_gbs, gflops, ...), then ``axis.<name>`` for each axis
    (numbers when every value of the axis is a plain number, else the text
    as written: "2G"), ``metric.<name>``, ``counter.<name>`` (a list for a
    counter with per-instance values), ``sample_ns`` (the kept samples, a
    list, or None) and ``fleet.*`` in fleet runs. Missing numbers are NaN.
    """
    rows = [_flatten(r) for r in records]
    df = pd.DataFrame(rows)
    if df.empty:
        return pd.DataFrame(columns=list(_FIXED) + ["sample_ns"])
    dynamic = [c for c in df.columns if c not in _FIXED and c != "sample_ns"]
    order = ([c for c in _FIXED if c in df.columns] + sorted(c for c in dynamic if c.startswith("axis.")) +
             sorted(c for c in dynamic if not c.startswith("axis.")) + ["sample_ns"])
    df = df[order]
    for c in df.columns:
        if c.startswith("axis."):
            df[c] = _axis_numeric(df[c])
    return df


def open_run(directory):
    """Loads a run directory through libgpubound: a Run (records, run.json,
    the loader's warnings). Raises GpuboundError when the library refuses
    the run (a missing file, a value out of range, the same point twice)."""
    doc = _lib.export_run(directory)
    meta = doc["meta"]
    return Run(dir=meta["dir"], records=records_frame(doc["records"]), info=doc["run"],
               warnings=list(meta["warnings"]), warnings_total=meta["warnings_total"],
               truncated=bool(meta["truncated"]), records_file=meta["records_file"])


def load_run(directory):
    """A run's records as a pandas DataFrame (records_frame's columns),
    loaded through libgpubound. run.json is in ``df.attrs["run"]`` and the
    loader's warnings in ``df.attrs["warnings"]``."""
    r = open_run(directory)
    df = r.records
    df.attrs["run"] = r.info
    df.attrs["warnings"] = r.warnings
    df.attrs["dir"] = r.dir
    return df
