# gpubound occupancy: answers for a known compute capability (no GPU needed),
# the CSV and JSON forms, and every bad input: one line and exit code 2.
. "$(dirname "$0")/lib.bash"

# cc 9.0, 256 threads, 32 registers: 8 warps per block; 1024 registers per
# warp leave 16 warps per sub-partition, 64 per SM: 8 blocks, 64 of 64 warps.
expect 0 "" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0
for line in "active blocks per SM  8" "active warps per SM   64 of 64" "occupancy             100%" \
    "limited by            warps, registers"; do
    printf '%s\n' "$OUT" | grep -qF -- "$line" && ok || bad "missing '$line'"
done
# The three sweeps are there, with the asked row marked.
for title in "over threads per block" "over registers per thread" "over dynamic shared memory"; do
    printf '%s\n' "$OUT" | grep -q "Active warps per SM $title" && ok || bad "no sweep '$title'"
done
printf '%s\n' "$OUT" | grep -Eq '^ +256 +8 +64 +100 +warps, registers +\*$' && ok ||
    bad "the threads sweep lacks the marked row for 256 threads"

# Shared memory binds: 12 KiB static + 1 KiB reserved = 13312 bytes per
# block; carveout 25 % of 228 KiB is 58368 -> the 64 KiB split -> 4 blocks.
expect 0 "" occupancy --cc 9.0 --threads 256 --regs 32 --smem 12288 --carveout 25
printf '%s\n' "$OUT" | grep -qF "active blocks per SM  4" && ok || bad "carveout 25: not 4 blocks"
printf '%s\n' "$OUT" | grep -qF "limited by            shared memory" && ok || bad "carveout 25: not shared memory"

# CSV: the header, then the configuration asked, then the sweeps.
expect 0 "" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --format csv
header=$(printf '%s\n' "$OUT" | sed -n 1p)
[ "$header" = "sweep,cc,threads,regs,static_smem,dyn_smem,carveout,active_blocks,active_warps,max_warps,occupancy,limited_by" ] &&
    ok || bad "csv header is '$header'"
row=$(printf '%s\n' "$OUT" | sed -n 2p)
[ "$row" = 'config,9.0,256,32,0,0,-1,8,64,64,1,"warps, registers"' ] && ok || bad "csv config row is '$row'"
n_threads=$(printf '%s\n' "$OUT" | grep -c '^threads,')
n_regs=$(printf '%s\n' "$OUT" | grep -c '^regs,')
n_smem=$(printf '%s\n' "$OUT" | grep -c '^smem,')
[ "$n_threads" = 32 ] && [ "$n_regs" = 255 ] && [ "$n_smem" = 1817 ] && ok ||
    bad "csv sweeps have $n_threads/$n_regs/$n_smem rows, expected 32/255/1817"
printf '%s\n' "$OUT" | grep -qx 'regs,9.0,256,64,0,0,-1,4,32,64,0.5,registers' && ok ||
    bad "csv: 64 registers should give 4 blocks, 32 warps"

# JSON: the same rows as objects.
expect 0 '"sweep": "config", "cc": "9.0", "threads": 256' occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --format json
if need_python3; then
    printf '%s\n' "$OUT" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r[0]["active_blocks"]==8 and len(r)==2105' &&
        ok || bad "json does not parse or has the wrong rows"
fi

# Every compute capability the help lists is known to the table.
ccs=$("$GPUBOUND" help occupancy | grep -Eo '\(7\.0[0-9. ]*\)' | tr -d '()')
[ -n "$ccs" ] && ok || bad "help lists no compute capabilities"
for cc in $ccs; do
    expect 0 "" occupancy --cc "$cc" --threads 128 --regs 32 --smem 0
    # 4-warp blocks of 32 registers fill every SM of every listed architecture
    # (the guide's warps, registers and blocks per SM allow it on each).
    printf '%s\n' "$OUT" | grep -qF "occupancy             100%" && ok || bad "cc $cc: 128 threads x 32 registers is not 100%"
done

# Bad input: one line on stderr, exit 2.
expect 2 "--threads needs a number of threads per block from 1 to 1024, not '0'" occupancy --cc 9.0 --threads 0 --regs 32 --smem 0
expect 2 "--threads 2000 is more than the 1024 threads a block can have" occupancy --cc 9.0 --threads 2000 --regs 32 --smem 0
expect 2 "--threads needs .* not '12x'" occupancy --cc 9.0 --threads 12x --regs 32 --smem 0
expect 2 "--regs needs an integer from 0 to 255, not '300'" occupancy --cc 9.0 --threads 256 --regs 300 --smem 0
expect 2 "--regs needs an integer from 0 to 255, not '-1'" occupancy --cc 9.0 --threads 256 --regs -1 --smem 0
expect 2 "--smem needs an integer from 0 to 49152, not '60000'" occupancy --cc 9.0 --threads 256 --regs 32 --smem 60000
expect 2 "--dyn-smem needs a number of bytes, 0 or more, not 'lots'" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem lots
expect 2 "= 300000 bytes is more than the 232448 bytes of shared memory a block can have" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 300000
expect 2 "--max-dyn-smem needs a number of bytes, 0 or more, or 'default', not 'x'" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --max-dyn-smem x
expect 2 "--max-dyn-smem 300000 is more than the 231448 bytes a kernel with --smem 1000 can opt in to" occupancy --cc 9.0 --threads 256 --regs 32 --smem 1000 --max-dyn-smem 300000
expect 2 "--record-truth takes only --device" occupancy --record-truth /tmp/x.csv --max-dyn-smem 0
# The kernel's attribute: a request above it fits no block (the driver
# refuses the launch); without the option the kernel opted in to the request.
expect 0 "active blocks per SM +3$" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 65536
expect 0 "active blocks per SM +3$" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 65536 --max-dyn-smem 65536
expect 0 "active blocks per SM +0$" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 65536 --max-dyn-smem default
expect 0 "the driver refuses it" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 65536 --max-dyn-smem 65535
expect 0 "attribute: 40960 bytes \(the driver's default\)" occupancy --cc 9.0 --threads 256 --regs 32 --smem 8192 --dyn-smem 100 --max-dyn-smem default
expect 0 "^config,9.0,256,32,0,65536,-1,0,0,64,0,shared memory" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 65536 --max-dyn-smem default --format csv
expect 2 "--carveout needs a percentage from 0 to 100, or -1 for the default, not '101'" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --carveout 101
expect 2 "--cc 9.9: compute capability 9.9 is not in the built-in table" occupancy --cc 9.9 --threads 256 --regs 32 --smem 0
expect 2 "--cc 6.1: compute capability 6.1 is not in the built-in table" occupancy --cc 6.1 --threads 256 --regs 32 --smem 0
expect 2 "--cc needs a compute capability X.Y such as 9.0, not 'hopper'" occupancy --cc hopper --threads 256 --regs 32 --smem 0
expect 2 "--cc needs a compute capability X.Y such as 9.0, not '9'" occupancy --cc 9 --threads 256 --regs 32 --smem 0
expect 2 "--threads is required" occupancy --cc 9.0 --regs 32 --smem 0
expect 2 "--regs is required" occupancy --cc 9.0 --threads 256 --smem 0
expect 2 "--smem is required" occupancy --cc 9.0 --threads 256 --regs 32
expect 2 "--format: unknown format 'xml'" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --format xml
expect 2 "--cc and --device cannot be used together" occupancy --cc 9.0 --device 0 --threads 256 --regs 32 --smem 0
expect 2 "--device needs an integer" occupancy --device x --threads 256 --regs 32 --smem 0
expect 2 "unknown option '--bogus'" occupancy --bogus
expect 2 "--threads needs a value" occupancy --threads
expect 2 "unexpected argument 'extra'" occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 extra
expect 2 "--record-truth takes only --device" occupancy --record-truth "$TMP/t.csv" --cc 9.0

# Every example of the help computes without a GPU (each names --cc).
run_gb help occupancy
mapfile -t examples < <(printf '%s\n' "$OUT" | awk '/\\$/ { sub(/ *\\$/, ""); held = held $0 " "; next }
    { line = held $0; held = "" } line ~ /^Example: gpubound occupancy / { sub(/^Example: gpubound /, "", line);
    gsub(/  +/, " ", line); print line }')
[ "${#examples[@]}" -ge 3 ] && ok || bad "the help of occupancy shows fewer than 3 examples"
for ex in "${examples[@]}"; do
    # shellcheck disable=SC2086
    run_gb $ex
    [ "$RC" = 0 ] && [ -n "$OUT" ] && ok || bad "the help's example 'gpubound $ex' exits $RC (it must work without a GPU)"
done

if ! has_gpu; then
    # No GPU: the default --device 0 is exit 3, with the way out.
    expect 3 "occupancy --device 0: .*use --cc X.Y to compute without a GPU" occupancy --threads 256 --regs 32 --smem 0
    expect 3 "occupancy --record-truth: .*needs an NVIDIA GPU" occupancy --record-truth "$TMP/t.csv"
    [ ! -e "$TMP/t.csv" ] && [ ! -e "$TMP/t.csv.tmp" ] && ok || bad "a failed recording must leave no file"
else
    skip 3 "the no-GPU checks (exit 3, nothing left behind) need a machine without a GPU"
fi
finish
