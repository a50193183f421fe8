"""compare through libgpubound gives the document `gpubound compare --format json` prints."""
import json
import subprocess

import pytest

import gpubound

A = "data/h100/compare-2026-11-23/bw-a"
B = "data/h100/compare-2026-11-23/bw-b"


def cli(program, src, *args):
    p = subprocess.run([program, "compare", *args, "--format", "json"], cwd=src, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize("base,new,opts", [
    (A, B, {}),
    (A, B, {"alpha": 0.05, "threshold": 0.001}),
    ("data/h100/compare-2026-11-23/tr-a", "data/h200/compare-2026-11-23/tr-a", {}),  # two GPUs: anchored
])
def test_same_document_as_the_program(program, src, monkeypatch, base, new, opts):
    monkeypatch.chdir(src)
    args = []
    if "alpha" in opts:
        args += ["--alpha", str(opts["alpha"]), "--threshold", f"{100 * opts['threshold']}%"]
    want = cli(program, src, base, new, *args)
    got = gpubound.compare(base, new, **opts)
    assert got.doc == want
    assert len(got.points) == want["summary"]["points"] > 0
    assert list(got.points["point"]) == [p["point"] for p in want["points"]]


def test_anchored_between_gpus(src, monkeypatch):
    monkeypatch.chdir(src)
    c = gpubound.compare("data/h100/compare-2026-11-23/tr-a", "data/h200/compare-2026-11-23/tr-a")
    assert c.doc["anchor"] and "peak memory bandwidth" in c.doc["anchor"]
    assert "anchored" in c.points.columns


def test_pooled_sides(src, monkeypatch):
    monkeypatch.chdir(src)
    c = gpubound.compare([A], [B, A])
    assert c.new == f"{B},{A}"
    assert c.summary["points"] == 19


def test_nothing_in_common_is_an_error(src):
    with pytest.raises(gpubound.GpuboundError) as e:
        gpubound.compare(src / A, src / "data/h100/compare-2026-11-23/tr-a")
    assert e.value.status == "usage"
    assert "matches" in str(e.value)


def test_bad_alpha(src):
    with pytest.raises(gpubound.GpuboundError):
        gpubound.compare(src / A, src / B, alpha=0.7)
