# An error is one line that keeps its reason: a long expression is quoted
# shortened, never cut before the reason at its end, and a newline (or
# another control character) in a value is escaped instead of splitting the
# line (src/util/status.c).
. "$(dirname "$0")/lib.bash"
SPECS="$GB_TESTS/data/specs"
mkdir -p "$TMP/long" "$TMP/nl"
cp "$SPECS/saxpy/saxpy.cu" "$TMP/long/"
cp "$SPECS/saxpy/saxpy.cu" "$TMP/nl/"

# A 30,000-byte grid expression is refused for its length, and says so.
long=$(python3 -c 'print("n" + " + n" * 7500 + " + bsx")')
sed "s|\"ceil(n / (block_size_x \* elems_per_thread))\"|\"$long\"|" "$SPECS/saxpy/spec.json" >"$TMP/long/spec.json"
expect 2 'benches\[0\]\.grid\[0\]: "n \+ n \+ [n +]*\.\.\.": longer than 4096 characters \(30007\); split it into defines$' \
    list "$TMP/long/spec.json"
# One under the limit whose fault is its last name: the quote is shortened,
# the reason kept whole.
long=$(python3 -c 'print("n" + " + n" * 1000 + " + bsx")')
sed "s|\"ceil(n / (block_size_x \* elems_per_thread))\"|\"$long\"|" "$SPECS/saxpy/spec.json" >"$TMP/long/spec.json"
expect 2 'benches\[0\]\.grid\[0\]: "n \+ n \+ [n +]*\.\.\.": unknown name "bsx"$' list "$TMP/long/spec.json"
[ "${#ERR}" -lt 400 ] && ok || bad "the shortened message is ${#ERR} bytes"

# A newline and a tab inside the expression's string.
sed 's|"ceil(n / (block_size_x \* elems_per_thread))"|"ceil(n /\\n\\tbsx)"|' "$SPECS/saxpy/spec.json" >"$TMP/nl/spec.json"
expect 2 'benches\[0\]\.grid\[0\]: "ceil\(n /\\n\\tbsx\)": ' list "$TMP/nl/spec.json"
finish
