# The rooms of src/ and the includes between them (scripts/layers.py): no
# upward include between numbers/, results/, models/, suites/, measure/,
# report/ and cli/, numbers/ on util/ alone, and no loop of includes across
# rooms, apart from the debts listed in the script's ALLOWED. The checker
# itself is tried on copies of the tree with an upward include, a loop and
# a floor breach planted: each must fail.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
need_python3 || finish
python3 "$GB_SRC/scripts/layers.py" "$GB_SRC" >"$TMP/out" 2>&1 && ok || bad "the tree breaks its layers: $(head -c 1500 "$TMP/out")"

# plant FILE LINE WANT: a copy of the tree with LINE added to FILE fails with WANT.
plant() {
    local file=$1 line=$2 want=$3
    rm -rf "$TMP/t" && mkdir -p "$TMP/t" && cp -r "$GB_SRC/src" "$GB_SRC/include" "$TMP/t/"
    printf '%s\n' "$line" >>"$TMP/t/$file"
    if python3 "$GB_SRC/scripts/layers.py" "$TMP/t" >"$TMP/out" 2>&1; then
        bad "layers.py passed with '$line' in $file"
    elif ! grep -q -- "$want" "$TMP/out"; then
        bad "layers.py on '$line' in $file: no '$want' in: $(head -c 600 "$TMP/out")"
    else
        ok
    fi
}
plant src/results/check.c '#include "measure/timer.h"' "results/ reaches up to measure/"
plant src/models/fleet/fleet.c '#include "gpubound/report.h"' "models/ reaches up to report/"
plant src/numbers/stats.c '#include "gpubound/results.h"' "numbers/ includes only util/"
plant src/util/text.c '#include "gpubound/numbers.h"' "loop: util -> numbers -> util"
plant src/gpu/gpu.c '#include "gpubound/measure.h"' "loop:"
plant src/models/stats/nnls.c '#include "gpubound/brandnew.h"' "no room"
finish
