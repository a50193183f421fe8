# Without a GPU, every command behaves as README.md's "Without a GPU" says:
# the commands its list names exit 3 with one line on stderr and nothing on
# stdout; every other command (and `info --ceilings RUN`) works. Each command
# of `gpubound help` must be covered, so that a new command is classified.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
cd "$GB_SRC" || exit 1
if "$GPUBOUND" info >/dev/null 2>&1; then
    skip 1 "a GPU is present: the no-GPU behaviour cannot be checked here"
    finish
    exit
fi

# The README's list: the backquoted items of the sentence "Every command but ... works".
sentence=$(tr '\n' ' ' <README.md | grep -o 'Every command but [^.]*works on a machine without a GPU' | head -1)
# The items are the commands; an option beside one (`--replay RUN`) says when it needs no GPU.
mapfile -t gpu_cmds < <(printf '%s\n' "$sentence" | sed 's/ works on.*//' | grep -o '`[^`]*`' | tr -d '`' | grep -v '^-')
[ "${#gpu_cmds[@]}" -ge 3 ] && ok || { OUT="$sentence" ERR=""; bad "README.md's list of GPU commands not found"; }

# A GPU command as the README names it, invoked as a user would.
gpu_invocation() {
    case "$1" in
    info) echo "info" ;;
    run) echo "run bandwidth/read --quick --out $TMP/run" ;;
    profile) echo "profile camping/read --set pattern=camped --set width=4 --set warps=64" ;;
    "camp detect") echo "camp detect transpose/naive --set n=4096" ;;
    occupancy) echo "occupancy --threads 128 --regs 64 --smem 12288 --carveout 50" ;;
    tune) echo "tune corpus/gemm/spec.json --bench tiled --set n=1024 --set tile_x=16,32 --budget 4 --out $TMP/run" ;;
    *) return 1 ;;
    esac
}
covered=" "
for c in "${gpu_cmds[@]}"; do
    inv=$(gpu_invocation "$c") || { OUT="" ERR=""; bad "README.md names '$c' as needing a GPU: this test has no invocation of it"; continue; }
    # shellcheck disable=SC2086
    run_gb $inv
    if [ "$RC" != 3 ]; then bad "gpubound $inv: exit $RC without a GPU, README.md says it needs one (exit 3)"
    elif [ "$(printf '%s\n' "$ERR" | grep -c .)" != 1 ]; then bad "gpubound $inv: not one line on stderr"
    elif [ -n "$OUT" ]; then bad "gpubound $inv: printed on stdout without a GPU"
    elif [ -e "$TMP/run" ]; then bad "gpubound $inv: left a run directory"
    else ok; fi
    covered="$covered${c%% *} "
done

# Every other command works on the committed runs.
camp_run=data/h200/camping-2026-11-21
cpu=(
    "list"
    "help run"
    "info --ceilings tests/data/runs/ceilings-fixture"
    "occupancy --cc 9.0 --threads 256 --regs 64 --smem 16384"
    "report tests/data/runs/bandwidth-fixture --out $TMP/report --chart-format svg"
    "fleet data/h200/fleet-2gpu-2026-11-24/fleet --no-chart"
    "geometry data/h100/ubench-2026-11-25 --bench ubench1 --size large --cache default"
    "camp fit $camp_run --model $TMP/camp.json"
    "camp predict --model $camp_run/campprof-model.json --gld 4:1179648 --gst 4:1179648 --warps 64"
    "camp validate --model $camp_run/campprof-model.json $camp_run --out $TMP/cv"
    "compare data/h100/compare-2026-11-23/bw-a data/h100/compare-2026-11-23/bw-b"
    "breakdown data/h200/examples-2026-11-23/sgemm --bench tiled --no-chart --out $TMP/bd"
    "roofline data/h100/compare-2026-11-23/bw-a"
    "check tests/data/specs/saxpy/spec.json --quick --arch sm_90"
    "tune corpus/gemm/spec.json --bench tiled --set n=1024 --set tile_x=16,32 --replay data/h100/corpus-2026-11-26/gemm --budget 4 --out $TMP/tune"
    "export data/h100/corpus-2026-11-26/gemm --format kt-cache --bench tiled"
    "import tests/data/kt/cache.json --out $TMP/kt-import"
)
for inv in "${cpu[@]}"; do
    # shellcheck disable=SC2086
    run_gb $inv
    if [ "$RC" != 0 ] || [ -z "$OUT" ]; then bad "gpubound $inv: exit $RC without a GPU (README.md: it needs none)"
    else ok; fi
    covered="$covered${inv%% *} "
done

# Every command of `gpubound help` is one of the two kinds above.
for c in $("$GPUBOUND" help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}'); do
    case "$covered" in
    *" $c "*) ok ;;
    *) OUT="" ERR=""; bad "command '$c' is neither in README.md's GPU list nor run here without a GPU" ;;
    esac
done
finish
