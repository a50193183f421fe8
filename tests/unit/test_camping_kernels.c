/* The camping kernels' address patterns, run on the host from the kernels'
 * own source: kernels/camp_walk.h is the file NVRTC compiles into
 * camping.cu (cmake/embed.cmake pastes it in), with WIDTH a variable here.
 * Every lane of every warp of a grid walks its requests through
 * camp_walk_start / camp_my_requests / camp_offset, and the test checks:
 * - each request's 32 lanes cover one whole sector-aligned chunk inside the
 *   buffer, and the chunk the verification references see at those bytes
 *   (camp_chunk_of) is the chunk visited;
 * - every chunk is visited as often as camp_visits says (the reference the
 *   kernels' verification multiplies by);
 * - the line table (class 2): every byte of every half-line as often as the
 *   host's own count (gb_camp_halfline_visits, src/suites/camping_calc.c).
 * The clique kernel's warp algorithm (shuffles) has no host copy: its
 * verification against the host's clique count runs on the GPU, and
 * tests/device/kernel_mutants.sh shows that verification catches a
 * mutated binary search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "suites/camping.h"

static unsigned width_now = 4;
#define WIDTH width_now
#include "../../kernels/camp_walk.h"

/* Every lane of G warps walks its requests as camp_read does; returns the
 * visits per chunk (the chunk of lane 0, after checking the other lanes
 * lie in the same chunk). */
static void check_pattern(const struct camp_geom *g, uint64_t G, uint64_t buf_bytes)
{
    uint64_t *seen = calloc(g->nq, sizeof *seen);
    assert_non_null(seen);
    for (unsigned w = 0; w < G; w++) {
        struct camp_walk walk[32];
        unsigned n_my = camp_my_requests(g, w, (unsigned)G);
        for (unsigned lane = 0; lane < 32; lane++) {
            walk[lane].q = walk[lane].step = 0;
            if (g->cls == 1)
                camp_walk_start(g, &walk[lane], w, (unsigned)G);
        }
        unsigned r = w;
        for (unsigned i = 0; i < n_my; i++, r += (unsigned)G) {
            uint64_t off0 = 0, c = 0;
            for (unsigned lane = 0; lane < 32; lane++) {
                uint64_t off = camp_offset(g, &walk[lane], NULL, r, lane);
                if (lane == 0) {
                    off0 = off;
                    assert_int_equal(off0 % 32, 0);   /* sector-aligned: WIDTH sectors a request */
                    c = camp_chunk_of(off0, g);
                    assert_true(c < g->nq);
                }
                assert_int_equal(off, off0 + lane * WIDTH);
                assert_true(off + WIDTH <= buf_bytes);
                assert_int_equal(camp_chunk_of(off + WIDTH - 1, g), c);
            }
            seen[c]++;
        }
    }
    for (uint64_t c = 0; c < g->nq; c++)
        assert_int_equal(seen[c], camp_visits(c, g->q0, g->nq, g->total));
    free(seen);
}

static void test_rows(void **state)
{
    (void)state;
    const uint64_t buf = 64 * 1024, G = 6;
    for (width_now = 2; width_now <= 16; width_now *= 2) {
        struct camp_geom g;
        memset(&g, 0, sizeof g);
        g.cls = 0;
        g.nq = buf / REQ;
        uint64_t totals[] = {G * 5, G * 256, g.nq, 1000};
        uint64_t q0s[] = {0, 7, g.nq - 1};
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 3; b++) {
                g.total = totals[a];
                g.q0 = q0s[b];
                check_pattern(&g, G, buf);
            }
        /* The discovery's reference: a mask above the chunks read, read once. */
        g.q0 = 0;
        g.nq = 1024;
        g.total = 300;
        check_pattern(&g, G, 300 * REQ);
    }
}

static void test_columns(void **state)
{
    (void)state;
    static const uint64_t pitches[] = {128, 256, 640, 4224, 8448};
    const uint64_t buf = 1 << 20, G = 7;
    for (width_now = 2; width_now <= 16; width_now *= 2)
        for (int p = 0; p < 5; p++) {
            if (pitches[p] < REQ || pitches[p] % REQ)
                continue;
            struct camp_geom g;
            memset(&g, 0, sizeof g);
            uint64_t rows = 1;
            while (rows * 2 * pitches[p] <= buf)
                rows *= 2;
            g.cls = 1;
            g.pitch = pitches[p];
            while ((1ULL << g.rows_log2) < rows)
                g.rows_log2++;
            g.nq = rows * (pitches[p] / REQ);
            uint64_t totals[] = {g.nq, G * 256, g.nq * 2 + 5};
            uint64_t q0s[] = {0, 3, g.nq - 1};
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    g.total = totals[a];
                    g.q0 = q0s[b];
                    check_pattern(&g, G, buf);
                }
        }
}

/* The line table (class 2), with the identity table (line i at byte
 * 128 * i): every byte of every half-line is accessed as often as the
 * host's count says, whichever lane and request reaches it. */
static void test_lines(void **state)
{
    (void)state;
    static unsigned table[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (width_now = 2; width_now <= 16; width_now *= 2) {
        uint64_t lines = 8, total = 6 * 37, seen[16][64];
        struct camp_geom g;
        memset(&g, 0, sizeof g);
        memset(seen, 0, sizeof seen);
        g.cls = 2;
        g.lines = (unsigned)lines;
        g.total = total;
        for (unsigned r = 0; r < total; r++)
            for (unsigned lane = 0; lane < 32; lane++) {
                struct camp_walk w = {0, 0};
                uint64_t off = camp_offset(&g, &w, table, r, lane);
                assert_true(off + WIDTH <= lines * CAMP_LINE);
                for (unsigned b = 0; b < WIDTH; b++)
                    seen[(off + b) / 64][(off + b) % 64]++;
            }
        for (uint64_t h = 0; h < 2 * lines; h++) {
            uint64_t v = gb_camp_halfline_visits(h, 0, HALVES, lines, total);
            for (int b = 0; b < 64; b++)
                assert_int_equal(seen[h][b], v);   /* every byte of it, as often */
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
