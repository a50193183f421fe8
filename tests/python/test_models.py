"""run, breakdown, roofline and occupancy through the program."""
import os

import pytest

import gpubound


def test_occupancy_matches_the_calculator():
    # 256 threads x 64 registers on 9.0: the register file holds 4 blocks (the install test's figure).
    o = gpubound.occupancy(256, 64, 0, cc="9.0")
    assert o.config["active_blocks"] == 4
    assert o.config["occupancy"] == pytest.approx(0.5)
    assert set(o.sweeps["sweep"]) == {"threads", "regs", "smem"}


def test_occupancy_usage_error():
    with pytest.raises(gpubound.GpuboundError) as e:
        gpubound.occupancy(4096, 32, 0, cc="9.0")
    assert e.value.status == 2


def test_breakdown_leaves_the_run_alone(src):
    d = src / "data/h200/examples-2026-11-23/sgemm"
    before = sorted(os.listdir(d))
    b = gpubound.breakdown(d, bench="tiled")  # the copy of the spec in the run: regblock needs the newer one
    assert sorted(os.listdir(d)) == before
    assert len(b.table) > 4
    assert {"measured (us)", "predicted (us)"} <= set(b.table.columns)
    coef = b.coefficients
    s2pt = coef[coef["term"] == "S2PT"].iloc[0]
    assert s2pt["ci_lo"] <= s2pt["estimate"] <= s2pt["ci_hi"]
    assert b.model["format"] == "gpubound-lpbm/1"


def test_roofline_is_the_programs(src, program):
    d = src / "data/h100/compare-2026-11-23/bw-a"
    df = gpubound.load_run(d)
    r = gpubound.roofline(df)  # the DataFrame's run directory
    peak = df.attrs["run"]["device"]["mem_peak_gbs"]
    # Without counters or a ceilings run: the DRAM roof is the device's peak, the fraction bytes / time / peak.
    assert list(r["fraction"]) == pytest.approx(list(r["dram bytes"] / r["time (ns)"] / peak), rel=1e-9)
    assert set(r["binding"]) == {"dram"} and (r["fraction"] < 1).all()
    assert any("guide figures" in n for n in r.attrs["notes"])
    import json, subprocess
    printed = json.loads(subprocess.run([program, "roofline", str(d), "--format", "json"],
                                        capture_output=True, text=True, check=True).stdout)
    assert list(r["point"]) == [row["point"] for row in printed]
    assert list(r["fraction"]) == [row["fraction"] for row in printed]
    s = gpubound.roofline(str(src / "data/h200/examples-counters-2026-11-23/sgemm"), pipe="fp64")
    assert set(s["pipe"]) == {"fp64"}


def test_roofline_refuses_a_frame_without_a_run():
    import pandas as pd
    with pytest.raises(gpubound.GpuboundError) as e:
        gpubound.roofline(pd.DataFrame())
    assert e.value.status == "usage"


def test_roofline_has_no_python_model():
    import inspect
    src_text = inspect.getsource(gpubound.models.roofline)
    assert "_call(" in src_text and "mem_peak_gbs" not in src_text


def test_run_without_a_gpu_says_so(program, tmp_path):
    if gpubound_info_rc(program) == 0:
        pytest.skip("a GPU is present: the no-GPU path cannot be checked here")
    with pytest.raises(gpubound.GpuboundError) as e:
        gpubound.run("bandwidth/read", out=str(tmp_path / "r"), quick=True, bytes=["1M"])
    assert e.value.status == 3


def gpubound_info_rc(program):
    import subprocess
    return subprocess.run([program, "info"], capture_output=True).returncode


def test_breakdown_that_does_not_explain_is_returned_not_raised(src):
    # The formula form on the tiled transpose: every term absent, exit 4 (the honesty rule).
    d = src / "data/h100/corpus-2026-11-26/transpose"
    b = gpubound.breakdown(d, bench="tiled", form="formula")
    assert b.explained is False
    assert len(b.table) > 4
    assert gpubound.breakdown(src / "data/h200/examples-2026-11-23/sgemm", bench="tiled").explained is True
