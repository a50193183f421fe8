# report.html of committed runs in headless Chromium, offline: charts drawn
# with their marks, no console error, the CampProf calculator equal to
# `camp predict`, a screenshot that is not blank (browser_check.py says how).
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$GB_SRC"
python3 "$GB_TESTS/html/browser_check.py" "$GPUBOUND" "$GB_SRC" "$out"
