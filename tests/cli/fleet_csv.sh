# `gpubound fleet RUN --format csv` streams its rows (one point's rows at a
# time) instead of building the table of every point and member first: a
# sparse 1200-member fleet (400 points, each measured by two members: 2 MB
# of input, 480,000 rows) is written under a 300 MB address-space limit,
# which the table of every row alone would exceed; the rows are those of
# --format json's "points", in the same order.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
if ! need_python3; then finish; exit; fi
python3 - "$GB_SRC/tests/data/runs/bandwidth-fixture" "$TMP/sparse" 1200 400 <<'EOF2'
import json, os, sys
src, dst, n, npts = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
os.makedirs(dst)
info = json.load(open(src + "/run.json"))
base = json.load(open(src + "/results.json"))[0]
members, out = [], []
for rank in range(n):
    dev = dict(info["device"], uuid="GPU-%08d-0000-0000-0000-000000000000" % rank,
               pci_bus_id="00000000:%02X:00.0" % (rank % 256))
    members.append({"rank": rank, "local_rank": rank % 8, "host": "node-%d" % (rank // 8), "state": "ok",
                    "exit_code": 0, "reason": "", "run": dict(info, device=dev, points_ok=0, points_failed=0)})
for k in range(npts):
    for j, rank in enumerate(((2 * k) % n, (2 * k + 1) % n)):
        r = json.loads(json.dumps(base))
        r["axes"]["copy"] = str(k)
        for key in ("min", "median", "mean", "ci_lo", "ci_hi"):
            r["time_ns"][key] *= 1 + 0.001 * j
        r["bw_gbs"] = r["bytes"] / r["time_ns"]["median"]
        r["fleet"] = {"rank": rank, "host": "node-%d" % (rank // 8), "gpu_uuid": members[rank]["run"]["device"]["uuid"]}
        out.append(r)
        members[rank]["run"]["points_ok"] += 1
info.update(points_ok=len(out), points_failed=0, complete=False)
info["fleet"] = {"format": "gpubound-fleet/1", "size": n, "members": members}
json.dump(info, open(dst + "/run.json", "w"))
with open(dst + "/results.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")
EOF2
# An instrumented build (ASan reserves terabytes of address space) cannot run under a limit.
if nm -D "$GPUBOUND" 2>/dev/null | grep -q '__asan_init\|__tsan_init' || [ -n "${ASAN_OPTIONS:-}" ]; then
    skip 1 "the address-space limit (an instrumented build)"
    limit=unlimited
else
    limit=300000
fi
(ulimit -v "$limit" && exec "$GPUBOUND" fleet "$TMP/sparse" --format csv --no-chart) >"$TMP/rows.csv" 2>"$TMP/err"
RC=$? OUT="" ERR=$(cat "$TMP/err")
[ "$RC" = 0 ] && ok || bad "fleet --format csv of 1200 members x 400 points under a $limit KiB limit exited $RC"
[ "$(wc -l <"$TMP/rows.csv")" = 480001 ] && ok || bad "fleet --format csv wrote $(wc -l <"$TMP/rows.csv") lines, expected 480001"
head -1 "$TMP/rows.csv" | grep -qx 'point,rank,host,gpu_uuid,status,median (ns),ci_lo (ns),ci_hi (ns),fleet_median (ns),ratio,ratio_lo,ratio_hi,robust_z,outlier' \
    && ok || bad "the CSV header is not the long table's"
[ "$(grep -c '^point,' "$TMP/rows.csv")" = 1 ] && ok || bad "the header is repeated inside the streamed CSV"
# The same rows as --format json's points (a smaller fleet of the same shape, so that the JSON fits).
python3 - "$TMP/sparse" "$TMP/small" <<'EOF2'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst)
info = json.load(open(src + "/run.json"))
recs = json.load(open(src + "/results.json"))
keep = {m["rank"] for m in info["fleet"]["members"][:40]}
info["fleet"]["members"] = [m for m in info["fleet"]["members"] if m["rank"] in keep]
info["fleet"]["size"] = len(keep)
recs = [r for r in recs if r["fleet"]["rank"] in keep]
info["points_ok"] = len(recs)
json.dump(info, open(dst + "/run.json", "w"))
with open(dst + "/results.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
EOF2
"$GPUBOUND" fleet "$TMP/small" --format csv --no-chart >"$TMP/small.csv" 2>/dev/null
"$GPUBOUND" fleet "$TMP/small" --format json --no-chart >"$TMP/small.json" 2>/dev/null
python3 - "$TMP/small.csv" "$TMP/small.json" <<'EOF2' && ok || bad "the streamed CSV rows differ from --format json's points"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
pts = json.load(open(sys.argv[2]))["points"]
assert len(rows) - 1 == len(pts) == 20 * 40, (len(rows), len(pts))
for r, p in zip(rows[1:], pts):
    assert r[0] == p["point"] and int(r[1]) == p["rank"] and r[4] == p["status"], (r, p)
    assert (r[5] == "" and p["median (ns)"] is None) or float(r[5]) == p["median (ns)"], (r, p)
    assert r[13] == (p["outlier"] or ""), (r, p)
PY_OK = True
EOF2
finish
