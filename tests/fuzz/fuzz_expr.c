/* fuzz_expr.c - libFuzzer target: the spec expression layer on its own.
 * The input (cut at its first NUL) is parsed over the names a spec's axes
 * and defines commonly have; a parsed expression is evaluated at several
 * points (zeros, negatives and large values included) and its text, size
 * and uses read. */
#include "fuzz_common.h"

#include "gpubound/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"n", "m", "k", "block_size_x", "tile", "ELEMS", "count", "bytes"};
    static const double points[][8] = {
        {1024, 512, 64, 256, 16, 4, 1, 4096},
        {0, 0, 0, 0, 0, 0, 0, 0},
        {-1, -7, 3, 32, 1, 1, -1, 1},
        {1e300, 9.2e18, 1e-300, 1024, 2, 8, 3, 1.8e19},
    };
    struct gb_expr *e = NULL;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (gb_expr_parse(text, names, 8, &e) == GB_OK) {
        double v;
        for (size_t p = 0; p < sizeof points / sizeof points[0]; p++)
            (void)gb_expr_eval(e, points[p], &v);
        (void)gb_expr_size(e);
        (void)gb_expr_text(e);
        for (int i = 0; i < 8; i++)
            (void)gb_expr_uses(e, i);
        gb_expr_free(e);
    }
    free(text);
    return 0;
}
