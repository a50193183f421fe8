# No function in src/ is over 120 lines or has a cyclomatic complexity over
# 40 (scripts/function_size.sh says why); and the check itself finds a
# function planted over each limit.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
check="$GB_SRC/scripts/function_size.sh"

msg=$(bash "$check" "$GB_SRC" 2>&1) && ok || bad "$msg"

mkdir -p "$TMP/long/src" "$TMP/branchy/src" "$TMP/fine/src"
{ echo 'int f(int x)'; echo '{'; for i in $(seq 1 130); do echo "    x += $i;"; done; echo '    return x;'; echo '}'; } >"$TMP/long/src/a.c"
{ echo 'int g(int x)'; echo '{'; for i in $(seq 1 45); do echo "    if (x == $i) x++;"; done; echo '    return x;'; echo '}'; } >"$TMP/branchy/src/b.c"
{ echo 'int h(int x)'; echo '{'; for i in $(seq 1 30); do echo "    if (x == $i) x++;"; done; echo '    return x;'; echo '}'; } >"$TMP/fine/src/c.c"
out=$(bash "$check" "$TMP/long" 2>&1); [ $? = 1 ] && grep -q 'src/a.c.*: f: 13[0-9] lines' <<<"$out" && ok || bad "a 134-line function was not reported: $out"
out=$(bash "$check" "$TMP/branchy" 2>&1); [ $? = 1 ] && grep -q 'g: .*complexity 46' <<<"$out" && ok || bad "complexity 46 was not reported: $out"
out=$(bash "$check" "$TMP/fine" 2>&1) && ok || bad "a small function was reported: $out"
finish
