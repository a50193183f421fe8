# Device tier: the SASS of every benchmark of suite `throughput` holds the
# instruction its row names (docs/suites.md, throughput). The cubins are
# compiled by NVRTC exactly as gpubound compiles them (the nvrtc test's
# --dump mode, which also writes the expected SASS from the suite's table),
# for the architecture of GPU 0, and disassembled with cuobjdump (or
# nvdisasm). Needs the CUDA binary utilities; the GPU only names the arch.
set -u
: "${GPUBOUND:?}"
bin=$(dirname "$GPUBOUND")/tests/nvrtc_test_throughput_isa
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
dis=""
for t in cuobjdump nvdisasm; do
    for d in "" "${CUDA_HOME:-/usr/local/cuda}/bin/"; do
        if command -v "$d$t" >/dev/null 2>&1; then dis="$d$t"; break 2; fi
    done
done
[ -n "$dis" ] || { echo "FAIL: neither cuobjdump nor nvdisasm found (install the CUDA toolkit)"; exit 1; }
arch=${GB_SASS_ARCH:-$("$GPUBOUND" info --device 0 2>/dev/null | sed -n 's/.*\(sm_[0-9]*[a-z]*\).*/\1/p' | head -n 1)}
[ -n "$arch" ] || { echo "FAIL: cannot tell the GPU's architecture (set GB_SASS_ARCH=sm_90)"; exit 1; }
dir=$(mktemp -d /tmp/gb-sass-XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$bin" --dump "$dir" "$arch" || { echo "FAIL: compiling the cubins for $arch"; exit 1; }

# Mnemonics of a cubin, one per line (predicates and operands dropped).
mnemonics() {
    case "$dis" in
    *cuobjdump) "$dis" -sass "$1" ;;
    *) "$dis" "$1" ;;
    esac | sed -n 's#^[[:space:]]*/\*[0-9a-f]*\*/[[:space:]]*\(@!\{0,1\}U\{0,1\}P[0-9T][[:space:]]*\)\{0,1\}\([A-Z][A-Z0-9_.]*\).*#\2#p'
}
# count NAME FILE: mnemonics equal to NAME or starting with "NAME."; NAME may
# list alternatives, "A|B" (sm_90 spreads integer adds over IADD3 and IMAD.IADD).
count() {
    awk -v n="$1" 'BEGIN { k = split(n, alt, "|") }
        { for (i = 1; i <= k; i++) if ($0 == alt[i] || index($0, alt[i] ".") == 1) { c++; break } }
        END { print c + 0 }' "$2"
}

pass=0 fail=0
while IFS=$'\t' read -r cubin min want never; do
    case "$cubin" in "#"*|"") continue ;; esac
    mnemonics "$dir/$cubin" >"$dir/m.txt"
    [ -s "$dir/m.txt" ] || { echo "FAIL: $cubin: no instructions disassembled"; fail=$((fail + 1)); continue; }
    ok=1 first=1 report=""
    IFS=, read -r -a names <<<"$want"
    for n in "${names[@]}"; do
        c=$(count "$n" "$dir/m.txt")
        need=1; [ $first = 1 ] && need=$min
        report="$report $n=$c"
        [ "$c" -ge "$need" ] || { echo "FAIL: $cubin: $n occurs $c times, expected at least $need"; ok=0; }
        first=0
    done
    if [ "$never" != "-" ]; then
        IFS=, read -r -a names <<<"$never"
        for n in "${names[@]}"; do
            c=$(count "$n" "$dir/m.txt")
            report="$report no-$n=$c"
            [ "$c" = 0 ] || { echo "FAIL: $cubin: $n occurs $c times, expected none"; ok=0; }
        done
    fi
    echo "${cubin%.cubin}:$report"
    if [ $ok = 1 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "  its mnemonics: $(sort "$dir/m.txt" | uniq -c | sort -rn | head -n 12 | awk '{printf "%s=%s ", $2, $1}')"
    fi
done <"$dir/expect.tsv"
echo "$pass passed, $fail failed ($arch, $dis)"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
