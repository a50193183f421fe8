# Kernel spec files on the command line: `list SPEC.json` (a golden), a bad
# spec is one line naming the file and field (exit 2) before anything is
# made, a point whose grid is not an integer is refused at plan time, and
# without a GPU a spec run exits 3 leaving no run directory.
. "$(dirname "$0")/lib.bash"
SPECS="$GB_TESTS/data/specs"

run_gb list "$SPECS/saxpy/spec.json"
cat >"$TMP/golden" <<'GOLDEN'
saxpy: y = a * x + y over n floats: threads per block against elements per thread
  saxpy/saxpy  (hot) block_size_x threads per block, elems_per_thread consecutive strides of the block each
      block_size_x   = 64,128,256,512,1024  (quick: 128,512)  threads per block (also the launch's block)
      elems_per_thread = 1,2,4,8  (quick: 1,4)  elements each thread updates
      n              = 1M:64M:*4  (quick: 1000000)  elements of x and y
GOLDEN
if [ "$RC" = 0 ] && diff -u "$TMP/golden" "$TMP/out" >&2; then ok; else bad "list saxpy spec differs from the golden"; fi

# The template spec: its axes get the default help (the define they become).
expect 0 "block_size_x += 32,64,128,256,512,1024  \(quick: 64,256\)  -Dblock_size_x" list "$SPECS/reduce/spec.json"
# The spec's suite is not known without its file.
expect 2 "list: unknown suite 'saxpy'" list saxpy

# A bad spec: one line, the file and the field, exit 2.
mkdir -p "$TMP/bad"
cp "$SPECS/saxpy/saxpy.cu" "$TMP/bad/"
sed 's|"ceil(n / (block_size_x \* elems_per_thread))"|"ceil(n / bsx)"|' "$SPECS/saxpy/spec.json" >"$TMP/bad/spec.json"
expect 2 "^gpubound: $TMP/bad/spec.json: benches\[0\]\.grid\[0\]: \"ceil\(n / bsx\)\": unknown name \"bsx\"$" \
    list "$TMP/bad/spec.json"
expect 2 "benches\[0\]\.grid\[0\]: \"ceil\(n / bsx\)\": unknown name \"bsx\"" run "$TMP/bad/spec.json" --out "$TMP/r1"
[ ! -e "$TMP/r1" ] && ok || bad "a bad spec left $TMP/r1 behind"
sed 's|"type": "float", "value": "2.5"|"type": "quad", "value": "2.5"|' "$SPECS/saxpy/spec.json" >"$TMP/bad/spec.json"
expect 2 "benches\[0\]\.args\[2\]\.type: \"quad\" is not a type" run "$TMP/bad/spec.json"
echo '{' >"$TMP/bad/broken.json"
expect 2 "broken.json: line 2, column 0: not JSON" list "$TMP/bad/broken.json"
expect 2 "nosuch.json: cannot read the spec file: No such file or directory" run "$TMP/nosuch.json"

# A point whose grid is not an integer: refused before any GPU work.
sed 's|"ceil(n / (block_size_x \* elems_per_thread))"|"n / 3"|' "$SPECS/saxpy/spec.json" >"$TMP/bad/spec.json"
expect 2 "benches\[0\]\.grid\[0\]: \"n / 3\" = 333333.3333 at block_size_x=128 elems_per_thread=1 n=1000000 is not a non-negative integer" \
    run "$TMP/bad/spec.json" --quick --out "$TMP/r2"
[ ! -e "$TMP/r2" ] && ok || bad "a bad point left $TMP/r2 behind"
# Restrictions that leave nothing: the reason is the expression.
expect 2 "saxpy/saxpy: no point to measure: restriction \"block_size_x \* elems_per_thread <= 4096\" is false" \
    run "$SPECS/saxpy/spec.json" --set block_size_x=1024 --set elems_per_thread=8
# --set takes a spec's axes; an axis it lacks is refused.
expect 2 "--set m: no selected benchmark has an axis of that name" run "$SPECS/saxpy/spec.json" --set m=1
# A bench of a spec: SPEC.json/BENCH.
expect 2 "suite saxpy has no benchmark 'nosuch'" run "$SPECS/saxpy/spec.json/nosuch"

if has_gpu; then
    skip 2 "the no-GPU spec run checks (this machine has a GPU)"
else
    expect 3 "needs an NVIDIA GPU" run "$SPECS/saxpy/spec.json" --quick --out "$TMP/r3"
    [ ! -e "$TMP/r3" ] && ok || bad "a spec run without a GPU left $TMP/r3 behind"
fi
finish
