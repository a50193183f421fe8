"""Measuring and the models that the library reaches only through the
gpubound program today: `run`, `breakdown`, `roofline` and `occupancy` call
the program with --format json and read what it prints and writes (runs are
then loaded through the library). No model is computed here."""

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import _lib
from .runs import load_run


def program_path():
    """The gpubound program: $GPUBOUND when set, else the one beside the
    library in use (bin/ of its prefix, or the same build directory), else
    the one on PATH."""
    env = os.environ.get("GPUBOUND")
    if env:
        return env
    try:
        libdir = Path(_lib.library_path()).resolve().parent
        for p in (libdir / "gpubound", libdir.parent / "bin" / "gpubound", libdir.parent.parent / "bin" / "gpubound"):
            if p.is_file() and os.access(p, os.X_OK):
                return str(p)
    except _lib.GpuboundError:
        pass
    exe = shutil.which("gpubound")
    if exe:
        return exe
    raise _lib.GpuboundError("the gpubound program was not found (tried $GPUBOUND, beside libgpubound, PATH); "
                             "install it (make install) or set GPUBOUND to its path", "io")


def _call(args, with_stderr=False, ok_codes=(0,)):
    """Runs `gpubound ARGS`; its stdout (and stderr when asked), or
    GpuboundError with its message and exit code when the exit code is not
    one of ``ok_codes``."""
    p = subprocess.run([program_path()] + [str(a) for a in args], capture_output=True, text=True)
    _call.returncode = p.returncode
    if p.returncode not in ok_codes:
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        raise _lib.GpuboundError(lines[-1] if lines else f"gpubound {args[0]} exited {p.returncode}",
                                 p.returncode)
    return (p.stdout, p.stderr) if with_stderr else p.stdout


def run(what, out=None, quick=False, cold=None, timer=None, counters=False, device=None, **sets):
    """Measures a suite, a SUITE/BENCH or a kernel spec file (needs a GPU)
    with `gpubound run`, and returns the recorded run's records as
    load_run does. Each keyword of ``sets`` is an axis: a list sweeps it
    (``bytes=["1G", "4G"]``), a value sets it. ``out`` is the run
    directory to create (default: a new temporary directory). Raises
    GpuboundError with the program's message (status 3: no usable GPU)."""
    out = out or tempfile.mkdtemp(prefix="gpubound-run-")
    args = ["run"] + ([what] if isinstance(what, (str, os.PathLike)) else list(what))
    args += ["--out", out, "--no-report", "--format", "json"]
    for axis, v in sets.items():
        vals = v if isinstance(v, (list, tuple, range)) else [v]
        args += ["--set", f"{axis}={','.join(str(x) for x in vals)}"]
    if quick:
        args.append("--quick")
    if cold is not None:
        args.append("--cold" if cold else "--hot")
    if timer:
        args += ["--timer", timer]
    if counters:
        args.append("--counters" if counters is True else f"--counters={counters}")
    if device is not None:
        args += ["--device", device]
    _call(args)
    return load_run(out)


@dataclass
class Occupancy:
    """The occupancy calculator's answer.

    config -- the configuration asked: active_blocks, active_warps,
              max_warps, occupancy, limited_by, ...
    sweeps -- one row per point of the three sweeps (threads, regs, dyn_smem)
    """
    config: dict
    sweeps: pd.DataFrame


def occupancy(threads, regs, smem=0, cc=None, dyn_smem=None, carveout=None, max_dyn_smem=None, device=None):
    """Active blocks and warps per SM, the occupancy and its limit, as
    `gpubound occupancy --format json` computes them; cc is "9.0" (the
    built-in limits, no GPU needed) or None with ``device`` (a GPU's)."""
    args = ["occupancy", "--threads", threads, "--regs", regs, "--smem", smem, "--format", "json"]
    for flag, v in (("--cc", cc), ("--dyn-smem", dyn_smem), ("--carveout", carveout),
                    ("--max-dyn-smem", max_dyn_smem), ("--device", device)):
        if v is not None:
            args += [flag, v]
    rows = json.loads(_call(args))
    return Occupancy(config=rows[0], sweeps=pd.DataFrame(rows[1:]))


@dataclass
class Breakdown:
    """LPBM: where a kernel's time goes at each launch configuration.

    table -- each configuration's measured and predicted time and the share
             of each term, as breakdown --format json prints it
    model -- lpbm-model.json: per bench, the coefficients with their
             intervals, R^2, the held-out error, the dominant term, points
    explained -- False when the model does not explain the kernel (the
             honesty rule: breakdown exited 4, named no dominating term and
             gave no advice; docs/cli.md); the fit is still returned
    """
    table: pd.DataFrame
    model: dict = field(default_factory=dict)
    explained: bool = True

    @property
    def coefficients(self):
        """One row per bench, form and term: estimate and its 95% interval."""
        rows = [dict(bench=m["bench"], form=m["form"], **c) for m in self.model.get("models", [])
                for c in m["coefficients"]]
        return pd.DataFrame(rows)


def breakdown(run_dir, bench=None, form=None, holdout=None, weight=None, intercept=False, spec=None,
              ceilings=None):
    """Fits the Linear Performance-Breakdown Model to a recorded kernel-spec
    run with `gpubound breakdown --format json` (no GPU needed). The model
    file is written into a temporary directory and read back: the run
    directory is left as it is."""
    with tempfile.TemporaryDirectory(prefix="gpubound-breakdown-") as tmp:
        args = ["breakdown", run_dir, "--format", "json", "--no-chart", "--out", tmp]
        for flag, v in (("--bench", bench), ("--form", form), ("--holdout", holdout), ("--weight", weight),
                        ("--spec", spec), ("--ceilings", ceilings)):
            if v is not None:
                args += [flag, v]
        if intercept:
            args.append("--intercept")
        # Exit 4: fitted and written, but the model does not explain the kernel.
        table = pd.DataFrame(json.loads(_call(args, ok_codes=(0, 4))))
        explained = _call.returncode == 0
        model_file = Path(tmp) / "lpbm-model.json"
        model = json.loads(model_file.read_text()) if model_file.is_file() else {}
    return Breakdown(table=table, model=model, explained=explained)


def roofline(run, ceilings=None, pipe=None):
    """Each point of a run under the roofs, as `gpubound roofline
    --format json` computes them (no GPU needed): its arithmetic intensity
    at DRAM, L2 and L1/shared, the roof that binds, the attained fraction
    of it and a flag for a point above a measured roof. ``run`` is a run
    directory or a DataFrame from load_run (its ``attrs["dir"]``);
    ``ceilings`` a ceilings run whose largest rates are the roofs (without
    one, the guide figures of the run's device); ``pipe`` the pipe of the
    points' operations (fp32, fp64, ...). The program's notes (which roofs,
    points placed without counters) are in ``attrs["notes"]``."""
    run_dir = run.attrs.get("dir") if isinstance(run, pd.DataFrame) else run
    if not run_dir:
        raise _lib.GpuboundError("roofline needs a run directory (a DataFrame from load_run carries it)", "usage")
    args = ["roofline", run_dir, "--format", "json"]
    for flag, v in (("--ceilings", ceilings), ("--pipe", pipe)):
        if v is not None:
            args += [flag, v]
    out, err = _call(args, with_stderr=True)
    table = pd.DataFrame(json.loads(out))
    table.attrs["notes"] = [ln.split(": ", 1)[-1] for ln in err.splitlines() if ln.strip()]
    return table
