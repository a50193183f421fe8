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
# MUTATE_AREAS (default 1: each mutation runs first against the tests of
# its file's area, area_tests below, and only one those miss runs against
# the whole MUTATE_CTEST tier, so "MISSED" still means the whole tier passed;
# 0: the whole tier for every mutation),
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
"stop-rule-full-width|src/numbers/stats.c|return (s->ci_hi - s->ci_lo) / 2.0 <= rel_ci * s->median;|return (s->ci_hi - s->ci_lo) <= rel_ci * s->median;|the stopping rule compares the full CI width, not the half-width"
"ci-upper-rank|src/numbers/stats.c|*hi = n + 1 - l;|*hi = n - l;|the CI's upper order statistic one rank low"
"csv-ci-swapped|src/results/write.c|#define GB_TS_CSV(x) gb_csv_num(f, present ? t->x : NAN);|#define GB_TS_CSV(x) gb_csv_num(f, present ? (&t->x == &t->ci_lo ? t->ci_hi : &t->x == &t->ci_hi ? t->ci_lo : t->x) : NAN);|results.csv with ci_lo and ci_hi swapped"
"ncu-msecond|src/results/ncu.c|{\"msecond\", 1e6}|{\"msecond\", 1e3}|ncu's msecond scaled by 1e3, not 1e6"
"kernel-rs-walk|kernels/rs_walk.h|w->col = (w->col + 1u) & 31u;|w->col = (w->col + 3u) & 31u;|the bank-conflict kernel's column walk steps by 3"
"kernel-camp-columns|kernels/camp_walk.h|        w->q += w->step;|        w->q += w->step + 1u;|the camping column walk skips a chunk per step"
"campprof-per-warp|src/models/campprof/campprof_predict.c|    double k = eq->instr_per_warp[c];|    double k = eq->instr_per_warp[c] / warps;|CampProf's time per instruction not divided by the active warps"
"compare-verdict-interval|src/models/compare/compare.c|!(s->lo > 1.0|!(s->lo > 0.0|compare's verdict ignores the interval (a ratio beyond the threshold is enough)"
"compare-summary-se|src/models/compare/compare.c|log(hin / lon)) / (2 * z95);|log(hin / lon)) / z95;|the summary method's standard error from the whole 95% interval, not its half"
"compare-geomean-se|src/models/compare/compare.c|sqrt(sq / (double)(k - 1) / (double)k)|sqrt(sq / (double)(k - 1))|the geometric mean's interval from the spread of the log ratios, not its standard error"
"compare-hl-even|src/models/compare/compare_stats.c|gb_kth_diff(lx, n, ly, m, nm / 2 + 1)|gb_kth_diff(lx, n, ly, m, nm / 2)|the Hodges-Lehmann estimate of an even number of differences takes the lower middle twice"
"compare-moses-upper|src/models/compare/compare_stats.c|gb_kth_diff(lx, n, ly, m, nm + 1 - k)|gb_kth_diff(lx, n, ly, m, nm - k)|the Moses interval's upper rank one low"
"compare-gate-count|src/cli/cmd_compare.c|if (r->n_slower == 0 && r->n_only_base == 0)|if (r->n_slower <= 1 && r->n_only_base == 0)|the gate lets one slower point pass"
"compare-lost-error|src/models/compare/compare.c|if (e->r->status != GB_REC_SKIPPED)|if (e->r->status == GB_REC_FAILED)|a point NEW stopped on an error counted as skipped, not failed"
"compare-fleet-pooled|src/models/compare/compare.c|snprintf(f + n, 24, \"\x03rank%d\", r->fleet_rank);|snprintf(f + n, 24, \"\x03rank\");|a fleet record's rank left out of the point's key: the GPUs are pooled"
"compare-twice-identity|src/cli/cmd_compare.c|strcmp(x->host, y->host) == 0|strcmp(x->host, y->host) != 0|a copied run directory is not seen to be the same run"
"load-zero-interval|src/results/check.c|if (!(r->time_ns.ci_lo > 0)|if (!(r->time_ns.ci_lo >= 0)|the loader lets an interval reaching 0 pass"
"fleet-mad-unscaled|src/models/fleet/fleet.c|        return 1.4826 * mad;|        return mad;|fleet's robust standard deviation is the unscaled MAD"
"fleet-min-members|src/models/fleet/fleet.c|if (n_present >= GB_FLEET_MIN_MEMBERS|if (n_present > GB_FLEET_MIN_MEMBERS|fleet flags outliers only from four members on (off by one)"
"fleet-size-check|src/results/fleet.c|json_integer_value(size) != (json_int_t)*n|json_integer_value(size) < (json_int_t)*n|a fleet run declaring more members than it lists is accepted"
"fleet-uuid-check|src/results/fleet.c|        if (strcmp(r->gpu_uuid, uuid) != 0)|        if (mb->info.has_device && strcmp(r->gpu_uuid, uuid) != 0)|a record's GPU UUID is not checked against a member without a GPU"
"breakdown-r2-same|src/models/lpbm/lpbm.c|f->r2 = same ? NAN : 1 - sse / sst;|f->r2 = sst > 0 ? 1 - sse / sst : NAN;|R^2 of identical times computed from rounding noise"
"camp-predict-no-run|src/models/campprof/campprof_run.c|    if (out->config_warps <= 0)|    if (out->config_warps < 0)|camp predict gives a band for a block that cannot run"
"error-newline|src/util/status.c|    if (c >= 0x20 && c != 0x7f)|    if (c >= 0x0a && c != 0x7f)|newlines and other control characters from 0x0a kept in an error message: it splits the line"
"verify-nan-matches|kernels/spec_data.h|        return g != g && e != e;|        return 1;|the verification rule lets a NaN match any value"
"verify-rtol-from-atol|src/suites/spec_parse.c|(st = gb_sp_number(c, o, \"rtol\", 0, 1e300,|(st = gb_sp_number(c, o, \"atol\", 0, 1e300,|a buffer's rtol read from its atol field"
"verify-rule-atol-twice|kernels/spec_data.h|gb_sd_add(atol, gb_sd_mul(rtol, fabs(e)))|gb_sd_add(atol, gb_sd_mul(atol, fabs(e)))|the verification rule scales the expected value by atol, not rtol"
"spec-define-limit|src/suites/spec_parse.c|if (b->n_axes + b->n_defines + b->ref.n_defines > 16)|if (b->n_axes + b->n_defines + b->ref.n_defines > 17)|the spec parser lets 17 -D options through"
"expr-trim-unmatched|src/suites/spec_expr.c|if (*len >= 2 && (*s)[0] == '(' && gb_match_paren(*s, *len, 0) == (long)*len - 1) {|if (*len >= 2 && (*s)[0] == '(' && (*s)[*len - 1] == ')') {|trimming takes away parentheses that do not enclose the whole text"
"expr-chain-first-only|src/suites/spec_expr.c|if ((k[i] != 0) == (op == GB_EX_OR))|if ((k[i] != 0) == (op == GB_EX_OR) && i == 0)|a chain of && or || decided by its first operand"
"expr-and-as-or|src/suites/spec_expr.c|return gb_parse_chain(s, len, \"&&\", GB_EX_AND, names, n_names, out);|return gb_parse_chain(s, len, \"&&\", GB_EX_OR, names, n_names, out);|a chain of && grouped as one of or"
"expr-depth-limit|src/suites/spec_expr.c|if (deepest > GB_EXPR_MAX_DEPTH)|if (deepest > GB_EXPR_MAX_DEPTH + 1)|the expression nesting limit one level late"
"expr-length-limit|src/suites/spec_expr.c|if (len > GB_EXPR_MAX_LEN)|if (len > GB_EXPR_MAX_LEN + 1)|the expression length limit one character late"
"spec-parts-limit|src/suites/spec_parse.c|(*c->parts += gb_expr_size(*out)) > GB_SPEC_MAX_PARTS)|(*c->parts += gb_expr_size(*out)) > GB_SPEC_MAX_PARTS * 64)|a spec's expression parts unbounded in practice"
"range-long-2p63|src/suites/spec_point.c|: 0) && x < lim;|: 0) && x <= lim;|the range table lets an integer scalar one past its type's largest value through (a long of 2^63)"
"spec-file-symlink-out|src/suites/spec_parse.c|    size_t dl = strlen(rd);|    size_t dl = 0;|a spec's data file may be a symbolic link out of its directory"
"spec-file-size-at-least|src/suites/spec_point.c|(unsigned long long)have == (unsigned long long)count * sz|(unsigned long long)have >= (unsigned long long)count * sz|an init or reference file larger than its buffer passes"
"axis-repeats-allowed|src/suites/axis.c|    for (int i = 1; i < n && st == GB_OK; i++)|    for (int i = n; i < n && st == GB_OK; i++)|an axis value given twice is planned twice"
"run-json-cap-1mib|src/results/load.c|    if (sb.st_size > (off_t)GB_RUN_JSON_MAX)|    if (sb.st_size > (off_t)GB_RECORD_LINE_MAX)|the run loader's cap on run.json back at 1 MiB (a fleet of 600 ranks unreadable)"
"plan-cap-100m|src/cli/run_options.h|GB_OPT_LONG(1, GB_PLAN_MAX_POINTS_CAP)|GB_OPT_LONG(1, 100000000L)|--max-points up to 100 million again"
"provenance-hash-not-compared|src/models/lpbm/lpbm_spec.c|strcmp(was, h->sha256) == 0|strcmp(was, was) == 0|the breakdown finds the spec's recorded digest but does not compare it"
"provenance-old-not-warned|src/cli/cmd_breakdown.c|    if (f->spec_unchecked)|    if (!f->spec_unchecked)|a run recorded before digests were kept is fitted without a warning"
"provenance-kept-copy-unread|src/models/lpbm/lpbm_spec.c|snprintf(specs, sizeof specs, \"%s\", run->info.spec);|snprintf(specs, sizeof specs, \"%s\", \"\");|the copy the run kept is not found by its name in run.json, and the command line's spec is read instead"
"provenance-measured-keeps-hints|src/suites/spec_hash.c|json_object_del(b, \"lpbm\");|json_object_del(b, \"note\");|a spec's measured digest keeps its model hints"
"gz-cap-per-read|src/results/open.c|            if (n > GB_RECORDS_MAX_BYTES) {|            if ((size_t)got > GB_RECORDS_MAX_BYTES) {|the 1 GiB cap on decompressed records checked per read, not on the total"
"sampling-final-median|src/measure/sampling.c|return gb_stats_compute(s->ns, s->n, &s->stats); /* the reported median: Harrell-Davis */|return GB_OK; /* the reported median: Harrell-Davis */|sampling reports the stopping rule's middle sample, not the final Harrell-Davis median"
"breakdown-holdout-every|src/models/lpbm/lpbm.c|return (i + 1) % (size_t)h->every == 0;|return i % (size_t)h->every == 0;|--holdout every:K holds out the 1st, (K+1)th ... configurations, not every K-th"
"breakdown-holdout-size-substring|src/models/lpbm/lpbm.c|return f && (f == p->problem|return f != NULL; return f && (f == p->problem|--holdout size:AXIS=V matches V as a prefix of a longer value (n=102 holds out n=1024)"
"trips-inclusive|src/analyze/loop_trips.c|snprintf(t, n, \"max(0, (%s) + 1)\", b);|snprintf(t, n, \"max(0, %s)\", b);|a loop to i <= B counted B times, not B + 1"
"trips-stride-floor|src/analyze/loop_trips.c|snprintf(t, n, \"max(0, ((%s) - (%s) + (%s) - 1) / (%s))\", b, a, s, s);|snprintf(t, n, \"max(0, ((%s) - (%s)) / (%s))\", b, a, s);|a strided loop's trips rounded down, not up"
"trips-block-stride-floor|src/analyze/loop_trips.c|snprintf(t, n, \"ceil(1.0 * max(0, %s) / (%s))\", b, s);|snprintf(t, n, \"(max(0, %s) / (%s))\", b, s);|a block-strided loop's trips rounded down (the busiest thread's last trip lost)"
"trips-halving|src/analyze/loop_trips.c|ilog2((%s) / ((%s) + 1)) + 1 : 0)\", a, b, a, b);|ilog2((%s) / ((%s) + 1)) : 0)\", a, b, a, b);|a halving loop's trips one short"
"trips-doubling|src/analyze/loop_trips.c|clog2(((%s) + (%s) - 1) / (%s)) : 0)\", a, b, b, a, a);|ilog2((%s) / (%s)) : 0)\", a, b, b, a);|a doubling loop's trips rounded down"
"branch-compare-as-store|src/analyze/kernel_scan.c|strcmp(next, \"<=\") && strcmp(next, \">=\")|strcmp(next, \">=\")|a comparison a[i] <= v in a branch condition counted as a read-modify-write"
"branch-else-one-thread|src/analyze/kernel_scan.c|s->one_thread += i == 1;|s->one_thread += i >= 1;|the else of a one-thread branch counted as run by one thread of each block"
"rmw-no-load|src/analyze/kernel_scan.c|x->loads = strcmp(next, \"=\") != 0;|x->loads = strcmp(next, \"=\") != 0 && !compound;|a read-modify-write (a[i] += v) counted as a store only"
"rmw-bytes-once|src/analyze/totals.c|out->global_bytes += per * c * x->elem_bytes;|out->global_bytes += c * x->elem_bytes;|a read-modify-write's bytes counted once, not for the load and the store"
)

echo "mutate.sh: copying the tracked tree to $work and building it" >&2
mkdir -p "$work/tree"
(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$work/tree")
b="$work/build"
# The Python tests' packages, as `make deps` gives the build (before CMake
# looks for the environment).
bash "$src/scripts/python_deps.sh" "$b/venv" >"$work/venv.log" 2>&1 ||
    { echo "mutate.sh: the Python tests' environment could not be made (see $work/venv.log)" >&2; exit 2; }
if ! { cmake -S "$work/tree" -B "$b" -DGB_CUDA_HOME="$cuda" >/dev/null && cmake --build "$b" -j "$jobs" >"$work/build.log" 2>&1; }; then
    echo "mutate.sh: the unmutated tree does not build (see $work/build.log)" >&2; exit 2
fi
read -r -a ctest_args <<<"${MUTATE_CTEST:-"-LE device|nvrtc -E build_with_clang"}"
# The unmutated tree must pass, or a "caught" means nothing.
if ! (cd "$b" && ctest "${ctest_args[@]}" -j "$jobs" >"$work/clean.log" 2>&1); then
    echo "mutate.sh: the unmutated tree fails its tests (see $work/clean.log)" >&2; exit 2
fi

# area_tests FILE: a ctest -R pattern of the tests of FILE's area (a subset
# of the tier: a mutation they catch, the whole tier catches).
area_tests() {
    case $1 in
    src/numbers/* | src/measure/*) echo 'unit/test_(stats|stats_rules|numbers|sampling|session_loop)$|cli/compare$' ;;
    src/results/*) echo 'unit/test_(results|results_gz|csv_readback|ncu_units|hostile|fleet|provenance)$|cli/(hostile|fleet|compare|report|provenance)$|python/test_load$' ;;
    kernels/*) echo 'unit/test_(patterns_walk|camping_kernels|camping|spec_data|spec)$' ;;
    src/models/campprof/* | src/cli/cmd_camp*) echo 'unit/test_campprof.*|cli/camp.*' ;;
    src/models/compare/* | src/cli/cmd_compare.c) echo 'unit/test_compare$|cli/compare$|python/test_compare$' ;;
    src/models/fleet/*) echo 'unit/test_fleet.*|cli/fleet.*' ;;
    src/models/lpbm/* | src/cli/cmd_breakdown.c | src/analyze/*)
        echo 'unit/test_(lpbm|lpbm_run|provenance|analyze_hand|analyze_calls)$|cli/(breakdown|breakdown_predict|provenance)$' ;;
    src/util/*) echo 'unit/test_(errors|stage|open_regular)$|cli/(errors_oneline|outputs_guards)$' ;;
    src/suites/* | src/cli/run_options.h)
        echo 'unit/test_(spec|spec_expr|spec_cache|spec_data|hostile|plan|provenance)$|cli/(spec|hostile|run_errors|run_options|provenance)$' ;;
    *) echo '.' ;;
    esac
}

# run_tests NAME FILE: 0 when the tests pass on the mutated build (MISSED),
# else 1; the failing tests' names in $failed.
run_tests() {
    local log="$work/$1.log"
    if [ "${MUTATE_AREAS:-1}" = 1 ] &&
        ! (cd "$b" && ctest "${ctest_args[@]}" -R "$(area_tests "$2")" -j "$jobs" >"$log" 2>&1); then
        :
    elif (cd "$b" && ctest "${ctest_args[@]}" -j "$jobs" >"$log" 2>&1); then
        return 0
    fi
    failed=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p' "$log" | paste -sd, - | sed 's/,/, /g')
    return 1
}

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
    elif run_tests "$name" "$file"; then
        result="**MISSED**"; missed=$((missed + 1))
    else
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
