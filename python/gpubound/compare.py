"""Two sets of runs compared point by point, through libgpubound: the same
computation and document as `gpubound compare BASE NEW --format json`."""

import os
from dataclasses import dataclass, field

import pandas as pd

from . import _lib


@dataclass
class Comparison:
    """A comparison of runs.

    points    -- one row per matched point, sorted by effect: point, base_ns,
                 new_ns, median_ratio, ratio with its interval [lo, hi], p,
                 verdict ("faster", "slower", "no change"), method, notes
                 (and the anchored ratio when the sides ran on different GPUs)
    summary   -- counts and the geometric-mean ratio with its interval
    only_base, only_new -- points found on one side only
    doc       -- the whole JSON document, as compare --format json prints it
    """
    base: str
    new: str
    points: pd.DataFrame
    summary: dict
    only_base: list = field(default_factory=list)
    only_new: list = field(default_factory=list)
    doc: dict = field(default_factory=dict)

    @property
    def slower(self):
        """The points significantly slower beyond the threshold (a DataFrame)."""
        return self.points[self.points["verdict"] == "slower"]

    @property
    def faster(self):
        return self.points[self.points["verdict"] == "faster"]


def _dirs(side):
    if isinstance(side, (str, bytes, os.PathLike)):
        return [os.fspath(side)]
    dirs = [os.fspath(d) for d in side]
    if not dirs:
        raise ValueError("a side of the comparison has no run directory")
    return dirs


def compare(base, new, alpha=0.01, threshold=0.02):
    """Compares the runs of BASE with those of NEW (each a run directory or a
    list of them, whose samples are pooled per point): is NEW faster or
    slower, and is the difference real? alpha is the test's size (1 - the
    confidence level), threshold the smallest relative change that counts
    (0.02 = 2%). Raises GpuboundError when a run does not load or no point
    matches."""
    doc = _lib.export_compare(_dirs(base), _dirs(new), alpha, threshold)
    return Comparison(base=doc["base"], new=doc["new"], points=pd.DataFrame(doc["points"]),
                      summary=doc["summary"], only_base=list(doc["only_base"]), only_new=list(doc["only_new"]),
                      doc=doc)
