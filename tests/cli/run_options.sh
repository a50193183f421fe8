# `gpubound run`'s options come from one table (src/cli/run_options.h) that
# makes both getopt_long's options and `gpubound help run` (docs/cli.md):
# every option the help shows is taken, with the value it shows, and one
# that needs a value says so when it is left out.
. "$(dirname "$0")/lib.bash"

value_for() {
    case "$1" in
    N | MS | PCT | S) echo 1 ;;
    DIR) echo "$TMP/out-dir" ;;
    AXIS=V1,V2) echo n=1 ;;
    METHOD) echo read ;;
    CLOCK) echo events ;;
    FMT) echo csv ;;
    NAME) echo nvrtc ;;
    *) echo "unknown metavariable $1" >&2; echo "?" ;;
    esac
}

run_gb help run
labels=$(printf '%s\n' "$OUT" | sed -n 's/^  \(--[^ ].*[^ ]\)  .*/\1/p; s/^  \(--[a-z-]*\)$/\1/p' | sed 's/  .*//')
count=0
while IFS= read -r label; do
    # "--cold | --hot": two options without a value.
    for opt in $(printf '%s\n' "$label" | tr '|' '\n' | awk '{print $1}'); do
        meta=$(printf '%s\n' "$label" | awk -v o="$opt" '$1 == o && NF == 2 {print $2}')
        name=${opt%%[*}
        count=$((count + 1))
        if [ -n "$meta" ]; then
            expect 2 "unknown option '--zz-unknown'" run "$name" "$(value_for "$meta")" --zz-unknown
            expect 2 "$name needs a value" run "$name"
        else
            expect 2 "unknown option '--zz-unknown'" run "$name" --zz-unknown
        fi
    done
done <<<"$labels"
# Every option of the table is shown: 17 today (a new row shows here too).
if [ "$count" -ge 17 ]; then ok; else OUT="$labels" ERR=""; bad "help run shows $count options, expected at least 17"; fi
# Short forms the table marks stay taken; long-only options have none.
expect 2 "unknown option '--zz-unknown'" run -q -C --zz-unknown
expect 2 "unknown option '-I'" run -I 1
finish
