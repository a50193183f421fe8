#!/usr/bin/env bash
# behaviour_manifest.sh GPUBOUND SRC OUT_DIR
# Runs the CPU-side commands on every committed run under SRC/data (report,
# geometry, camp fit / predict / validate) and prints one line per output
# file: "<sha256>  <name>". Two builds whose manifests are equal behave the
# same on the committed runs. Charts are compared through their gnuplot
# scripts (.gp), which hold every plotted number; the SVG/PNG bytes depend
# on the installed gnuplot, not on gpubound.
set -uo pipefail
gb=$(realpath "$1") src=$2 out=$(realpath -m "$3")
mkdir -p "$out"
# Every file under OUT_DIR is hashed: files of an earlier run there would
# pass for outputs of this one.
if [ -n "$(ls -A "$out")" ]; then
    echo "behaviour_manifest.sh: $out is not empty; give a new or empty directory" >&2
    exit 2
fi
# Paths are given relative to SRC, as a user in the checkout types them, so
# that outputs which name their input compare equal across checkouts.
cd "$src" || exit 2
step() { # step NAME CMD...: runs CMD, keeps stdout as NAME.out, its exit code as NAME.rc
    local name=$1; shift
    "$@" >"$out/$name.out" 2>/dev/null
    echo $? >"$out/$name.rc"
}
for runjson in $(find data -mindepth 3 -maxdepth 3 -name run.json | sort); do
    run=$(dirname "$runjson"); tag=$(basename "$(dirname "$run")")-$(basename "$run")
    step "report-$tag" "$gb" report "$run" --out "$out/r-$tag" ${GB_REPORT_OPTS:-}
    case $tag in
    *ubench*)
        step "geometry-all-$tag" "$gb" geometry "$run" --all --format csv
        step "geometry-bench-$tag" "$gb" geometry "$run" --bench ubench1 --size large --cache default
        step "geometry-class-$tag" "$gb" geometry "$run" --class coalesced-write --size large
        step "geometry-cannon-$tag" "$gb" geometry "$run" --compare cannon_direct,cannon_shifted ;;
    *camping-2*)
        step "campfit-$tag" "$gb" camp fit "$run" --model "$out/campfit-$tag.json"
        step "campfit-i-$tag" "$gb" camp fit "$run" --interactions --model "$out/campfit-i-$tag.json"
        step "camppredict-$tag" "$gb" camp predict --model "$run/campprof-model.json" --gld 4:2097152 \
            --gst 4:2097152 --threads 256 --regs 16 --smem 4224 --time-ns 61000 --chart "$out/band-$tag.svg"
        step "campvalidate-$tag" "$gb" camp validate --model "$run/campprof-model.json" "$run" --out "$out/cv-$tag"
        step "campfit-paper-$tag" "$gb" camp fit "$run" --form paper --model "$out/campfit-paper-$tag.json"
        step "campvalidate-paper-$tag" "$gb" camp validate --model "$out/campfit-paper-$tag.json" "$run" --out "$out/cvp-$tag" ;;
    esac
done
step geometry-fixture "$gb" geometry tests/data/runs/ubench-fixture --bench ubench6
step occupancy "$gb" occupancy --threads 256 --regs 64 --smem 16384 --cc 9.0
cd "$out" && find . -type f \( -name '*.out' -o -name '*.rc' -o -name '*.md' -o -name '*.gp' \
    -o -name '*.json' -o -name '*.csv' -o -name '*.txt' \) | sort | xargs sha256sum
