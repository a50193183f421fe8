"""gpubound from Python: runs recorded by gpubound as pandas DataFrames,
comparisons of runs and the models, over libgpubound (ctypes).

    import gpubound
    df = gpubound.load_run("data/h100/compare-2026-11-23/bw-a")
    c = gpubound.compare("data/h100/compare-2026-11-23/bw-a", "data/h100/compare-2026-11-23/bw-b")

Through the library: load_run, open_run, compare. Through the gpubound
program (--format json): run, breakdown, roofline, occupancy. docs/python.md
is the reference.
"""

from ._lib import GpuboundError, library_path, version
from .compare import Comparison, compare
from .models import Breakdown, Occupancy, breakdown, occupancy, program_path, roofline, run
from .runs import Run, load_run, open_run, records_frame

__version__ = "0.1.0"

__all__ = ["GpuboundError", "Run", "Comparison", "Breakdown", "Occupancy", "load_run", "open_run",
           "records_frame", "compare", "run", "breakdown", "occupancy", "roofline", "library_path",
           "program_path", "version"]
