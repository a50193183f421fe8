#!/usr/bin/env bash
# The Python tests' packages (pandas, pytest, jsonschema; setuptools and wheel
# to pip-install python/ offline), in a virtual
# environment under the build directory: usage python_deps.sh VENV_DIR.
# The environment sees the system's site packages, so what the system already
# has (Debian's python3-pandas, a user's pip install) is used as it is, and pip
# installs only what is missing. Called by `make deps`; quick when all is there.
set -u
venv=${1:?usage: python_deps.sh VENV_DIR}
py=${PYTHON:-python3}
need="pandas pytest jsonschema setuptools wheel"
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$(dirname "$venv")"
    if ! "$py" -m venv --system-site-packages "$venv" >/dev/null 2>&1; then
        echo "make deps: '$py -m venv' failed; install python3-venv (apt-get install python3-venv) and run make again" >&2
        exit 1
    fi
fi
missing=""
for m in $need; do
    "$venv/bin/python" -c "import $m" >/dev/null 2>&1 || missing="$missing $m"
done
[ -z "$missing" ] && exit 0
echo "make deps: pip-installing$missing into $venv"
# shellcheck disable=SC2086
if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check $missing >/dev/null; then
    echo "make deps: pip could not install$missing into $venv; install them (pip install$missing) and run make again" >&2
    exit 1
fi
