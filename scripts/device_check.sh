#!/usr/bin/env bash
# device_check.sh BUILD_DIR OUT_DIR: on a GPU machine, the device tier and
# a first look at the CUPTI clock: one bandwidth point timed by CUPTI and by
# events, hot and cold. Logs and runs go under OUT_DIR.
set -uo pipefail
build=$1 out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv
bash "$src/scripts/device_tier.sh" "$build" "$out/tier"
for t in cupti events; do
    for m in hot cold; do
        "$build/gpubound" run bandwidth/read --set width=16 --set grid=stride --set bytes=8M,256M --$m \
            --timer $t --no-report --out "$out/bw-$t-$m" 2>&1 | tail -n 4
    done
done
