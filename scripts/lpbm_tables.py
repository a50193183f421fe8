#!/usr/bin/env python3
"""The LPBM tables of docs/models.md, from the committed lpbm-model.json files
of the H200 example runs (first run, then its -b repeat), and the table of
both forms on the run recorded with counters. Run from the source tree:
python3 scripts/lpbm_tables.py"""
import glob, json

TERMS = ["PUT", "G2ST", "S2PT", "ATOM", "SYNC"]   # FIX only with --intercept
files = sorted(glob.glob("data/h200/examples-2026-11-23*/*/lpbm-model.json"),
               key=lambda f: (f.split("/")[2].endswith("-b"), f))


def coef(m, term):
    return next(c for c in m["coefficients"] if c["term"] == term)


def cs(x):
    return "absent" if not x["present"] else "%.4g [%.3g, %.3g]" % (x["estimate"], x["ci_lo"], x["ci_hi"])


def fit_table(files):
    print("| run | bench | points | " + " | ".join("%s [95%% CI]" % t for t in TERMS) +
          " | R² | RMSE µs | LOO median \\|err\\| | LOO worst (configuration) | R² ≥ 0.98 | LOO ≤ 10% |")
    print("|---" * (len(TERMS) + 9) + "|")
    a = {}
    for f in files:
        run = f.split("/")[2]
        for m in json.load(open(f))["models"]:
            if m["form"] != "formula":
                continue
            a.setdefault(m["suite"] + "/" + m["bench"], []).append(m)
            h = m["holdout"]
            print("| %s | %s/%s | %d | %s | %.4f | %.4g | %.2f%% | %.2f%% (%s) | %s | %s |" % (
                run, m["suite"], m["bench"], m["n_points"], " | ".join(cs(coef(m, t)) for t in TERMS),
                m["r2"], m["rmse_ns"] / 1e3, 100 * h["median_abs_rel_error"],
                100 * h["max_abs_rel_error"], h["worst"], "met" if m["r2"] >= 0.98 else "missed",
                "met" if h["median_abs_rel_error"] <= 0.10 else "missed"))
    return a


def stability_table(a):
    print("| bench | second run's estimates inside the first run's 95% intervals |")
    print("|---|---|")
    for k, v in a.items():
        if len(v) < 2:
            print("| %s | no second run |" % k)
            continue
        r = []
        for t in TERMS:
            x, y = coef(v[0], t), coef(v[1], t)
            if not x["present"] and not y["present"]:
                r.append("%s absent in both" % t)
                continue
            ok = x["ci_lo"] <= y["estimate"] <= x["ci_hi"]
            r.append("%s %.4g in [%.3g, %.3g]: %s" % (t, y["estimate"], x["ci_lo"], x["ci_hi"],
                                                        "yes" if ok else "no"))
        print("| %s | %s |" % (k, "; ".join(r)))


def dominant_table(a):
    print("| bench | dominant term at the best configuration (first run) |")
    print("|---|---|")
    for k, v in a.items():
        print("| %s | %s |" % (k, v[0]["dominant"].split(" dominates")[0]))


def forms_table():
    print("| bench | formula form: R², held-out median (worst) | counters form: R², held-out median (worst) "
          "| resources form: R², held-out median (worst) |")
    print("| --- | --- | --- | --- |")
    for f in sorted(glob.glob("data/h200/examples-counters-2026-11-23/*/lpbm-model.json")):
        by = {}
        for m in json.load(open(f))["models"]:
            by.setdefault(m["suite"] + "/" + m["bench"], {})[m["form"]] = m
        for k, forms in by.items():
            cells = []
            for form in ("formula", "counters", "resources"):
                m = forms.get(form)
                h = m and m["holdout"]
                cells.append("%.4f, %.2f%% (%.2f%%)" % (m["r2"], 100 * h["median_abs_rel_error"],
                                                        100 * h["max_abs_rel_error"]) if m else "not fitted")
            print("| %s | %s |" % (k, " | ".join(cells)))


a = fit_table(files)
print()
stability_table(a)
print()
dominant_table(a)
print()
forms_table()
