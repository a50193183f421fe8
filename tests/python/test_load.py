"""load_run goes through libgpubound: its values are those of the files, and
the loader's checks refuse what it refuses."""
import gzip
import json
import math
import shutil

import pytest

import gpubound

BW = "data/h100/compare-2026-11-23/bw-a"


def records_of(run_dir):
    p = run_dir / "results.json"
    text = p.read_text() if p.exists() else gzip.decompress((run_dir / "results.json.gz").read_bytes()).decode()
    return json.loads(text)


def test_load_run_matches_results_json(src):
    df = gpubound.load_run(src / BW)
    recs = records_of(src / BW)
    assert len(df) == len(recs) == 19
    assert set(df["axis.bytes"]) == {"2G"}  # as written, not a number
    for (_, row), rec in zip(df.iterrows(), recs):
        assert (row["suite"], row["bench"], row["cache"]) == (rec["suite"], rec["bench"], rec["cache"])
        for k in ("min", "median", "mean", "ci_lo", "ci_hi"):
            assert row[f"{k}_ns"] == pytest.approx(rec["time_ns"][k], rel=1e-12)
        for k, v in rec["axes"].items():  # numbers as numbers, "2G" as written
            got = row[f"axis.{k}"]
            assert got == v if isinstance(got, str) else got == float(v)
        assert set(k for k in rec["axes"]) == set(c[5:] for c in df.columns if c.startswith("axis.") and row[c] == row[c])
        assert row["sample_ns"] == pytest.approx(rec["sample_ns"])
        assert row["samples"] == len(rec["sample_ns"])


def test_load_run_attrs_carry_run_json(src):
    df = gpubound.load_run(src / BW)
    run = json.loads((src / BW / "run.json").read_text())
    assert df.attrs["run"]["device"]["name"] == run["device"]["name"] == "NVIDIA H100 80GB HBM3"
    assert df.attrs["run"]["command_line"] == run["command_line"]


def test_metrics_and_counters(src):
    d = src / "data/h100/counters-2026-11-23/run-camping"
    df = gpubound.load_run(d)
    recs = records_of(d)
    counter_cols = [c for c in df.columns if c.startswith("counter.")]
    assert counter_cols, "a --counters run has counter columns"
    name = next(k for k, v in recs[0]["counters"].items() if not isinstance(v, list))
    assert df[f"counter.{name}"].iloc[0] == pytest.approx(recs[0]["counters"][name])
    if recs[0]["metrics"]:
        m = next(iter(recs[0]["metrics"]))
        v = recs[0]["metrics"][m]
        assert (math.isnan(df[f"metric.{m}"].iloc[0]) if v is None else df[f"metric.{m}"].iloc[0] == pytest.approx(v))


def test_gzip_records(src):
    d = src / "data/h100/ubench-2026-11-25"
    r = gpubound.open_run(d)
    assert r.records_file.endswith("results.json.gz")
    assert len(r.records) == len(records_of(d)) > 1000


def test_missing_directory_is_an_io_error(tmp_path):
    with pytest.raises(gpubound.GpuboundError) as e:
        gpubound.load_run(tmp_path / "nothing-here")
    assert e.value.status == "io"
    assert "nothing-here" in str(e.value)


def test_loader_checks_apply(src, tmp_path):
    """A reversed interval is refused by the library's consistency check,
    which a plain JSON reader would let through."""
    d = tmp_path / "run"
    shutil.copytree(src / "tests/data/runs/bandwidth-fixture", d)
    recs = records_of(d)
    t = recs[0]["time_ns"]
    t["ci_lo"], t["ci_hi"] = t["ci_hi"] + 10, t["ci_lo"]
    (d / "results.json").write_text("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
    with pytest.raises(gpubound.GpuboundError) as e:
        gpubound.load_run(d)
    assert e.value.status == "format"
    assert "ci_lo" in str(e.value) or "interval" in str(e.value)


def test_truncated_run_loads_with_flag(src, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(src / "tests/data/runs/bandwidth-fixture", d)
    lines = (d / "results.json").read_text().splitlines()
    (d / "results.json").write_text("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])
    r = gpubound.open_run(d)
    assert r.truncated
    assert len(r.records) == 2
