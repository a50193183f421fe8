#!/usr/bin/env bash
# A tune that fails before it measured anything leaves nothing behind: its
# input (--replay) is read before anything is made, a replay that cannot go
# on takes away the tuning run it began, and without a GPU (exit 3) the
# directories made for --out, or the default runs/, go again. A directory
# that was there stays (as run does), and a resumed run is never removed.
source "$(dirname "$0")/lib.bash"
SPEC="$GB_SRC/corpus/gemm/spec.json"
SPACE=(--bench tiled --set n=1024)
CAMP="$GB_SRC/data/h200/camping-2026-11-21"
SWEEP="$GB_SRC/data/h100/corpus-2026-11-26/gemm"
mkdir -p "$TMP/w"
cd "$TMP/w" || exit 1

# left: what this directory holds besides what the test made.
left() { find . -mindepth 1 ! -path ./keep ! -path './keep/*' | sort | head -5; }

# --replay of something that is not a run: refused before anything is made.
expect 2 "--replay: .*/nothere is not a gpubound run directory" tune "$SPEC" "${SPACE[@]}" --budget 4 \
    --replay "$TMP/nothere"
[ -z "$(left)" ] && ok || bad "a refused --replay left $(left)"
expect 2 "--replay: " tune "$SPEC" "${SPACE[@]}" --budget 4 --replay "$TMP/nothere" --out new/out
[ -z "$(left)" ] && ok || bad "a refused --replay with --out left $(left)"

# A replay of a run that lacks the space's configurations: exit 2 part-way, nothing kept.
expect 2 "has no record of tile_x=" tune "$SPEC" "${SPACE[@]}" --budget 4 --replay "$CAMP" --out newout
[ -z "$(left)" ] && ok || bad "a replay that stopped left $(left)"
expect 2 "has no record of tile_x=" tune "$SPEC" "${SPACE[@]}" --budget 4 --replay "$CAMP" --out a/b/c
[ -z "$(left)" ] && ok || bad "a replay that stopped left its parents: $(left)"
mkdir keep
expect 2 "has no record of tile_x=" tune "$SPEC" "${SPACE[@]}" --budget 4 --replay "$CAMP" --out keep
[ -d keep ] && [ -z "$(ls -A keep)" ] && [ -z "$(left)" ] && ok || bad "a replay into an empty directory did not leave it empty"
rmdir keep

# Without a GPU: exit 3, nothing left (--out with new parents, the default runs/, an empty directory kept).
if has_gpu; then
    skip 4 "tune without a GPU (this machine has one)"
else
    expect 3 "needs an NVIDIA GPU" tune "$SPEC" "${SPACE[@]}" --budget 4 --out t/u
    [ -z "$(left)" ] && ok || bad "tune without a GPU left $(left)"
    expect 3 "needs an NVIDIA GPU" tune "$SPEC" "${SPACE[@]}" --budget 4
    [ -z "$(left)" ] && ok || bad "tune without a GPU left the default directory: $(left)"
    mkdir keep
    expect 3 "needs an NVIDIA GPU" tune "$SPEC" "${SPACE[@]}" --budget 4 --out keep
    [ -d keep ] && [ -z "$(ls -A keep)" ] && [ -z "$(left)" ] && ok || bad "tune without a GPU removed or filled keep/"
    rmdir keep
fi

# A tuning run cut short and resumed over a replay that cannot go on is kept as it was.
tune_args=(--bench tiled --set n=1024 --set tile_x=16,32 --replay "$SWEEP" --strategy exhaustive --budget 8)
expect 0 "^best: " tune "$SPEC" "${tune_args[@]}" --out done
python3 - done <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json")); r["complete"] = False
json.dump(r, open(d + "/run.json", "w"), indent=2)
PY
h=$(cd done && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
expect 2 "--replay: " tune "$SPEC" "${tune_args[@]/$SWEEP/$TMP/nothere}" --out done --resume
[ "$(cd done && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)" = "$h" ] && ok ||
    bad "a failed resume changed the tuning run it would go on with"
finish
