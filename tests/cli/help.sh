# help, version, the command table, and docs/cli.md generated from it.
. "$(dirname "$0")/lib.bash"

expect 0 "commands:" help
for c in info list run report occupancy help; do
    expect 0 "usage: gpubound $c" help "$c"
    expect 0 "usage: gpubound $c" "$c" --help
done
expect 0 "^gpubound [0-9]+\.[0-9]+\.[0-9]+ " --version
# The revision is the checkout's at build time, not at an earlier configure.
if rev=$(git -C "$GB_SRC" rev-parse --short=12 HEAD 2>/dev/null); then
    printf '%s' "$OUT" | grep -Eq "^gpubound [0-9.]+ \($rev(-dirty)?\)$" && ok ||
        bad "--version names another revision than the checkout's $rev (built before the last commit? rebuild)"
fi
expect 2 "unknown command 'frobnicate'; see 'gpubound help'" frobnicate
expect 2 "help: unknown command 'nope'" help nope
run_gb
if [ "$RC" = 2 ] && printf '%s' "$ERR" | grep -q "usage: gpubound COMMAND"; then ok; else bad "no arguments should print usage and exit 2"; fi

# docs/cli.md is exactly what `gpubound help --markdown` prints.
"$GPUBOUND" help --markdown >"$TMP/cli.md"
if diff -u "$GB_SRC/docs/cli.md" "$TMP/cli.md" >"$TMP/diff"; then ok; else
    OUT=$(cat "$TMP/diff"); ERR=""; bad "docs/cli.md differs from 'gpubound help --markdown' (regenerate it)"; fi
finish
