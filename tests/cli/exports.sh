# The shared library exports exactly what the public headers declare with
# GB_API (include/gpubound/*.h): built with -fvisibility=hidden, nothing
# else leaks out, and every declared function or table is defined.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
: "${GB_SHARED_LIB:?GB_SHARED_LIB must name libgpubound.so}"
OUT="" ERR=""
grep -ho 'GB_API .*' "$GB_SRC"/include/gpubound/*.h | grep -o '\bgb_[A-Za-z0-9_]*[[:space:]]*[([]' |
    sed 's/[[:space:]]*[([]$//' | sort -u >"$TMP/declared"
[ -s "$TMP/declared" ] && ok || bad "no GB_API declaration found under include/gpubound"
nm -D --defined-only "$GB_SHARED_LIB" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort -u >"$TMP/exported"
[ -s "$TMP/exported" ] && ok || bad "nm lists no symbol defined by $GB_SHARED_LIB"
extra=$(comm -13 "$TMP/declared" "$TMP/exported" | head -n 10 | tr '\n' ' ')
[ -z "$extra" ] && ok || bad "exported but declared in no public header with GB_API: $extra"
missing=$(comm -23 "$TMP/declared" "$TMP/exported" | head -n 10 | tr '\n' ' ')
[ -z "$missing" ] && ok || bad "declared with GB_API but not defined by the library: $missing"
# A header declaration without GB_API is a function the library hides.
plain=$(grep -hE '^(const )?(enum|struct|void|int|double|size_t|char|unsigned|long|float|bool|uint[0-9]+_t|int[0-9]+_t)[ *][^;(]*\bgb_[A-Za-z0-9_]*\(' "$GB_SRC"/include/gpubound/*.h | head -n 5 | tr '\n' ' ')
[ -z "$plain" ] && ok || bad "public prototypes without GB_API: $plain"
finish
