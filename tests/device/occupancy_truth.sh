# Device tier: records the driver's occupancy answers for compiled variants of
# kernels/occupancy.cu (gpubound occupancy --record-truth) and checks the
# calculator against every row with the occupancy unit test.
# Keep the recording: GB_KEEP_TRUTH=tests/data/occupancy/<gpu>.csv
set -u
: "${GPUBOUND:?GPUBOUND must name the gpubound binary}"
dir=$(mktemp -d /tmp/gb-occ-XXXXXX)
trap 'rm -rf "$dir"' EXIT

# The unit test executable sits in the build tree next to the binary.
unit=${GB_TEST_OCCUPANCY:-}
if [ -z "$unit" ]; then
    for c in "$(dirname "$GPUBOUND")/tests/test_occupancy" "$(dirname "$GPUBOUND")/test_occupancy"; do
        [ -x "$c" ] && unit=$c && break
    done
fi
[ -n "$unit" ] || { echo "FAIL: test_occupancy not found next to $GPUBOUND (set GB_TEST_OCCUPANCY)"; exit 1; }

"$GPUBOUND" occupancy --record-truth "$dir/truth.csv" ${GB_DEVICE:+--device "$GB_DEVICE"} ||
    { echo "FAIL: recording the truth table"; exit 1; }
rows=$(grep -vc '^#' "$dir/truth.csv")
echo "recorded $((rows - 1)) rows"
if [ -n "${GB_KEEP_TRUTH:-}" ]; then
    cp "$dir/truth.csv" "$GB_KEEP_TRUTH" && cp "$dir/truth.csv.run.json" "$GB_KEEP_TRUTH.run.json" &&
        echo "kept as $GB_KEEP_TRUTH (and its .run.json)"
fi
GB_OCCUPANCY_TRUTH="$dir/truth.csv" "$unit" || { echo "FAIL: the calculator disagrees with the driver"; exit 1; }
echo "1 passed, 0 failed"
