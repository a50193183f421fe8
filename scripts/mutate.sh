#!/usr/bin/env bash
# mutate.sh [OUT_FILE]: the mutation check. Applies each small, realistic bug
# of the list below, one at a time, to a copy of the tracked tree, builds it,
# runs the CPU tier (ctest -LE 'device|nvrtc', without the clang rebuild) and
# reports whether a test failed (caught) or not (MISSED). A mutation whose
# text is no longer in the source is reported as "does not apply" (update
# the list). Prints a Markdown table (also to OUT_FILE when given); exits 1
# when any mutation was missed or did not apply.
#
# Environment: MUTATE_DIR (the copy; default a temporary directory, removed
# at the end), MUTATE_ONLY (a grep -E pattern of mutation names to run),
# MUTATE_CTEST (ctest arguments, default: -LE 'device|nvrtc' -E build_with_clang),
# CUDA_HOME (default /usr/local/cuda). Takes about a minute per mutation on
# two cores, after one full build.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
report=${1:-}
work=${MUTATE_DIR:-$(mktemp -d /tmp/gb-mutate-XXXXXX)}
[ -n "${MUTATE_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
jobs=$(nproc 2>/dev/null || echo 2)

# name | file | text in the source | the mutated text | the bug
MUTATIONS=(
"stop-rule-full-width|src/measure/stats.c|return (s->ci_hi - s->ci_lo) / 2.0 <= rel_ci * s->median;|return (s->ci_hi - s->ci_lo) <= rel_ci * s->median;|the stopping rule compares the full CI width, not the half-width"
"ci-upper-rank|src/measure/stats.c|*hi = n + 1 - l;|*hi = n - l;|the CI's upper order statistic one rank low"
"csv-ci-swapped|src/results/write.c|r->ci_lo_ns, r->ci_hi_ns,|r->ci_hi_ns, r->ci_lo_ns,|results.csv with ci_lo and ci_hi swapped"
"ncu-msecond|src/results/ncu.c|{\"msecond\", 1e6}|{\"msecond\", 1e3}|ncu's msecond scaled by 1e3, not 1e6"
"kernel-rs-walk|kernels/rs_walk.h|w->col = (w->col + 1u) & 31u;|w->col = (w->col + 3u) & 31u;|the bank-conflict kernel's column walk steps by 3"
"kernel-camp-columns|kernels/camp_walk.h|        w->q += w->step;|        w->q += w->step + 1u;|the camping column walk skips a chunk per step"
"campprof-per-warp|src/models/campprof_predict.c|    double k = eq->instr_per_warp[c];|    double k = eq->instr_per_warp[c] / warps;|CampProf's time per instruction not divided by the active warps"
"compare-verdict-interval|src/models/compare.c|!(s->lo > 1.0|!(s->lo > 0.0|compare's verdict ignores the interval (a ratio beyond the threshold is enough)"
"compare-summary-se|src/models/compare.c|log(hin / lon)) / (2 * z95);|log(hin / lon)) / z95;|the summary method's standard error from the whole 95% interval, not its half"
"compare-geomean-se|src/models/compare.c|sqrt(sq / (double)(k - 1) / (double)k)|sqrt(sq / (double)(k - 1))|the geometric mean's interval from the spread of the log ratios, not its standard error"
"compare-hl-even|src/models/compare_stats.c|gb_kth_diff(lx, n, ly, m, nm / 2 + 1)|gb_kth_diff(lx, n, ly, m, nm / 2)|the Hodges-Lehmann estimate of an even number of differences takes the lower middle twice"
"compare-moses-upper|src/models/compare_stats.c|gb_kth_diff(lx, n, ly, m, nm + 1 - k)|gb_kth_diff(lx, n, ly, m, nm - k)|the Moses interval's upper rank one low"
"compare-gate-count|src/cli/cmd_compare.c|if (r->n_slower == 0 && r->n_only_base == 0)|if (r->n_slower <= 1 && r->n_only_base == 0)|the gate lets one slower point pass"
"compare-lost-error|src/models/compare.c|if (e->r->status != GB_REC_SKIPPED)|if (e->r->status == GB_REC_FAILED)|a point NEW stopped on an error counted as skipped, not failed"
"compare-fleet-pooled|src/models/compare.c|snprintf(f + n, 24, \"\x03rank%d\", r->fleet_rank);|snprintf(f + n, 24, \"\x03rank\");|a fleet record's rank left out of the point's key: the GPUs are pooled"
"compare-twice-identity|src/cli/cmd_compare.c|strcmp(x->host, y->host) == 0|strcmp(x->host, y->host) != 0|a copied run directory is not seen to be the same run"
"load-zero-interval|src/results/check.c|if (!(r->ci_lo_ns > 0)|if (!(r->ci_lo_ns >= 0)|the loader lets an interval reaching 0 pass"
"fleet-mad-unscaled|src/models/fleet.c|        return 1.4826 * mad;|        return mad;|fleet's robust standard deviation is the unscaled MAD"
"fleet-min-members|src/models/fleet.c|if (n_present >= GB_FLEET_MIN_MEMBERS|if (n_present > GB_FLEET_MIN_MEMBERS|fleet flags outliers only from four members on (off by one)"
"fleet-size-check|src/results/fleet.c|json_integer_value(size) != (json_int_t)*n|json_integer_value(size) < (json_int_t)*n|a fleet run declaring more members than it lists is accepted"
"fleet-uuid-check|src/results/fleet.c|        if (strcmp(r->gpu_uuid, uuid) != 0)|        if (mb->info.has_device && strcmp(r->gpu_uuid, uuid) != 0)|a record's GPU UUID is not checked against a member without a GPU"
"breakdown-r2-same|src/models/lpbm.c|f->r2 = same ? NAN : 1 - sse / sst;|f->r2 = sst > 0 ? 1 - sse / sst : NAN;|R^2 of identical times computed from rounding noise"
"camp-predict-no-run|src/cli/cmd_camp_predict.c|    if (ps->config_warps <= 0)|    if (ps->config_warps < 0)|camp predict gives a band for a block that cannot run"
"error-newline|src/util/status.c|    if (c >= 0x20 && c != 0x7f)|    if (c >= 0x0a && c != 0x7f)|newlines and other control characters from 0x0a kept in an error message: it splits the line"
)

echo "mutate.sh: copying the tracked tree to $work and building it" >&2
mkdir -p "$work/tree"
(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$work/tree")
b="$work/build"
if ! { cmake -S "$work/tree" -B "$b" -DGB_CUDA_HOME="$cuda" >/dev/null && cmake --build "$b" -j "$jobs" >"$work/build.log" 2>&1; }; then
    echo "mutate.sh: the unmutated tree does not build (see $work/build.log)" >&2; exit 2
fi
read -r -a ctest_args <<<"${MUTATE_CTEST:-"-LE device|nvrtc -E build_with_clang"}"
# The unmutated tree must pass, or a "caught" means nothing.
if ! (cd "$b" && ctest "${ctest_args[@]}" -j "$jobs" >"$work/clean.log" 2>&1); then
    echo "mutate.sh: the unmutated tree fails its tests (see $work/clean.log)" >&2; exit 2
fi

table="| mutation | file | bug | result |"$'\n'"|---|---|---|---|"
missed=0
for m in "${MUTATIONS[@]}"; do
    IFS='|' read -r name file from to what <<<"$m"
    if [ -n "${MUTATE_ONLY:-}" ] && ! grep -Eq "${MUTATE_ONLY}" <<<"$name"; then continue; fi
    f="$work/tree/$file"
    cp "$f" "$work/orig"
    if ! python3 - "$f" "$from" "$to" <<'PY'
import sys
p, a, b = sys.argv[1:4]
s = open(p).read()
if s.count(a) != 1:
    sys.exit(1)
open(p, "w").write(s.replace(a, b))
PY
    then
        result="does not apply (the text is not in $file exactly once)"; missed=$((missed + 1))
    elif ! cmake --build "$b" -j "$jobs" >"$work/$name.build" 2>&1; then
        result="caught by the build"
    elif (cd "$b" && ctest "${ctest_args[@]}" -j "$jobs" >"$work/$name.log" 2>&1); then
        result="**MISSED**"; missed=$((missed + 1))
    else
        failed=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p' "$work/$name.log" | paste -sd, - | sed 's/,/, /g')
        result="caught by ${failed:-a failing test}"
    fi
    cp "$work/orig" "$f"
    echo "$name: $result" >&2
    table+=$'\n'"| $name | \`$file\` | $what | $result |"
done
cmake --build "$b" -j "$jobs" >/dev/null 2>&1
echo "$table"
[ -z "$report" ] || echo "$table" >"$report"
[ "$missed" = 0 ]
