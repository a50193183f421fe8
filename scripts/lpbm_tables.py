#!/usr/bin/env python3
"""The LPBM tables of docs/models.md, from the committed lpbm-model.json files
of the H200 example runs (first run, then its -b repeat)."""
import glob, json
files = sorted(glob.glob("data/h200/examples-2026-11-23*/*/lpbm-model.json"),
               key=lambda f: (f.split("/")[2].endswith("-b"), f))
def cs(x):
    return "absent" if not x["present"] else "%.4g [%.3g, %.3g]" % (x["estimate"], x["ci_lo"], x["ci_hi"])
print("| run | bench | points | PUT [95% CI] | G2ST [95% CI] | S2PT [95% CI] | ATOM [95% CI] | R² | RMSE µs | LOO median \\|err\\| | LOO worst (configuration) | R² ≥ 0.98 | LOO ≤ 10% |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
a = {}
for f in files:
    run = f.split("/")[2]
    for m in json.load(open(f))["models"]:
        a.setdefault(m["suite"] + "/" + m["bench"], []).append(m)
        c, h = m["coefficients"], m["holdout"]
        print("| %s | %s/%s | %d | %s | %s | %s | %s | %.4f | %.4g | %.2f%% | %.2f%% (%s) | %s | %s |" % (
            run, m["suite"], m["bench"], m["n_points"], cs(c[0]), cs(c[1]), cs(c[2]), cs(c[3]), m["r2"],
            m["rmse_ns"] / 1e3, 100 * h["median_abs_rel_error"], 100 * h["max_abs_rel_error"],
            h["worst"], "met" if m["r2"] >= 0.98 else "missed",
            "met" if h["median_abs_rel_error"] <= 0.10 else "missed"))
print()
print("| bench | second run's estimates inside the first run's 95% intervals |")
print("|---|---|")
for k, v in a.items():
    if len(v) < 2:
        print("| %s | no second run |" % k)
        continue
    r = []
    for x, y in zip(v[0]["coefficients"], v[1]["coefficients"]):
        if not x["present"] and not y["present"]:
            r.append("%s absent in both" % x["term"])
            continue
        ok = x["ci_lo"] <= y["estimate"] <= x["ci_hi"]
        r.append("%s %.4g in [%.3g, %.3g]: %s" % (x["term"], y["estimate"], x["ci_lo"], x["ci_hi"], "yes" if ok else "no"))
    print("| %s | %s |" % (k, "; ".join(r)))
print()
print("| bench | dominant term at the best configuration (first run) |")
print("|---|---|")
for k, v in a.items():
    print("| %s | %s |" % (k, v[0]["dominant"].split(" dominates")[0]))
