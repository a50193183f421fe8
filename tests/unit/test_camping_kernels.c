/* Host emulations of the camping kernels' address patterns and of the
 * clique kernel's warp algorithm (kernels/camping.cu, written out here
 * lane by lane), checked against what verification and the counts assume:
 * - camp_read/camp_write's requests visit each chunk as often as the
 *   references' visit formula says (camp_visits / camp_chunk_of) and stay
 *   inside the buffer;
 * - camp_clique's warp-uniform loops, padded chunks and binary search over
 *   the lanes count what the host reference counts, with the requests and
 *   sectors gb_camp_counts_clique predicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "suites/camping.h"

struct geom {
    uint64_t q0, nq, total, pitch;
    uint32_t rows_log2, lines, cls;
};

/* camp_offset for lane 0 of request r (lanes add lane * width, or for the
 * line table pick the half-line; checked separately below). */
static uint64_t chunk_of_request(const struct geom *g, uint64_t r, uint64_t *walk_q, uint64_t step)
{
    if (g->cls == 0)
        return (g->q0 + r) & (g->nq - 1);
    uint64_t q = *walk_q;
    *walk_q += step;
    if (*walk_q >= g->nq)
        *walk_q -= g->nq;
    return q;
}

/* camp_visits and camp_chunk_of of the kernels. */
static uint64_t visits(uint64_t c, uint64_t q0, uint64_t nq, uint64_t total)
{
    uint64_t d = (c + nq - q0 % nq) % nq;
    return total / nq + (d < total % nq ? 1 : 0);
}

static uint64_t chunk_of_byte(uint64_t b, const struct geom *g, uint64_t req)
{
    if (g->cls == 0) {
        uint64_t c = b / req;
        return c < g->nq ? c : ~0ULL;
    }
    uint64_t row = b / g->pitch, col = (b % g->pitch) / req;
    if (row >= (1ULL << g->rows_log2) || col >= g->pitch / req)
        return ~0ULL;
    return col * (1ULL << g->rows_log2) + row;
}

/* The kernel's enumeration (warp g handles r = g, g + G, ...) against the
 * references' per-chunk visits, checked through every byte of the buffer. */
static void check_pattern(const struct geom *g, uint64_t req, uint64_t G, uint64_t buf_bytes)
{
    uint64_t *seen = calloc(g->nq, sizeof *seen);
    assert_non_null(seen);
    for (uint64_t w = 0; w < G; w++) {
        uint64_t q = (g->q0 + w) % g->nq, step = G % g->nq;
        for (uint64_t r = w; r < g->total; r += G) {
            uint64_t c = chunk_of_request(g, r, &q, step);
            uint64_t off;
            if (g->cls == 0) {
                off = c * req;
            } else {
                uint64_t row = c & ((1ULL << g->rows_log2) - 1), col = c >> g->rows_log2;
                off = row * g->pitch + col * req;
            }
            assert_true(off + req <= buf_bytes);     /* the last lane's bytes too */
            assert_int_equal(off % 32, 0);          /* sector-aligned: width sectors a request */
            /* The chunk the references see at this byte is the one visited. */
            assert_int_equal(chunk_of_byte(off, g, req), c);
            assert_int_equal(chunk_of_byte(off + req - 4, g, req), c);
            seen[c]++;
        }
    }
    for (uint64_t c = 0; c < g->nq; c++)
        assert_int_equal(seen[c], visits(c, g->q0, g->nq, g->total));
    free(seen);
}

static void test_rows(void **state)
{
    (void)state;
    const uint64_t req = 128, buf = 64 * 1024, G = 6;
    struct geom g = {0};
    g.cls = 0;
    g.nq = buf / req;                      /* 512 chunks */
    uint64_t totals[] = {G * 5, G * 256, 512, 1000};
    uint64_t q0s[] = {0, 7, 511};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 3; b++) {
            g.total = totals[a];
            g.q0 = q0s[b];
            check_pattern(&g, req, G, buf);
        }
    /* The discovery's reference: a mask above the chunks read, read once. */
    g.q0 = 0;
    g.nq = 1024;
    g.total = 300;
    check_pattern(&g, req, G, 300 * req);
}

static void test_columns(void **state)
{
    (void)state;
    static const uint64_t pitches[] = {128, 256, 640, 4224, 8448};
    static const uint64_t reqs[] = {64, 128, 256, 512};
    const uint64_t buf = 1 << 20, G = 7;
    for (int p = 0; p < 5; p++)
        for (int q = 0; q < 4; q++) {
            if (pitches[p] < reqs[q])
                continue;
            struct geom g = {0};
            uint64_t rows = 1;
            while (rows * 2 * pitches[p] <= buf)
                rows *= 2;
            g.cls = 1;
            g.pitch = pitches[p];
            g.rows_log2 = 0;
            while ((1ULL << g.rows_log2) < rows)
                g.rows_log2++;
            g.nq = rows * (pitches[p] / reqs[q]);
            uint64_t totals[] = {g.nq, G * 256, g.nq * 2 + 5};
            uint64_t q0s[] = {0, 3, g.nq - 1};
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    g.total = totals[a];
                    g.q0 = q0s[b];
                    check_pattern(&g, reqs[q], G, buf);
                }
        }
}

/* The line table: lane l of request r reads half-line
 * ((q0 + r) * halves + l * width / 64) mod 2 * lines at byte (l * width) % 64
 * of it; the lanes of one request cover whole half-lines exactly once. */
static void test_lines(void **state)
{
    (void)state;
    static const uint64_t widths[] = {2, 4, 8, 16};
    for (int wi = 0; wi < 4; wi++) {
        uint64_t width = widths[wi], halves = 32 * width / 64, lines = 8, cyc = 2 * lines;
        uint64_t total = 6 * 37, seen[16][64];
        memset(seen, 0, sizeof seen);
        for (uint64_t r = 0; r < total; r++)
            for (uint64_t lane = 0; lane < 32; lane++) {
                uint64_t h = (r * halves + lane * width / 64) & (cyc - 1);
                uint64_t in = (lane * width) & 63;
                for (uint64_t b = 0; b < width; b++)
                    seen[h][in + b]++;
            }
        for (uint64_t h = 0; h < cyc; h++) {
            uint64_t v = gb_camp_halfline_visits(h, 0, halves, lines, total);
            for (int b = 0; b < 64; b++)
                assert_int_equal(seen[h][b], v);   /* every byte of it, as often */
        }
    }
}

/* camp_clique, a warp at a time, its 32 lanes as arrays. */
static void emulate_clique(const uint32_t *row, const uint32_t *col, uint32_t n, uint32_t *count,
                           struct gb_camp_counts *c)
{
    for (uint32_t v = 0; v < n; v++) {
        uint32_t vb = row[v], ve = row[v + 1], dv = ve - vb, cnt[32] = {0};
        gb_camp_counts_add(c, 0, 4, 2, 2);  /* row[v], row[v + 1]: one address each */
        for (uint32_t c0 = 0; c0 < dv; c0 += 32) {
            uint32_t x[32], active = 0;
            uint64_t lo = ~0ULL, hi = 0;
            for (uint32_t lane = 0; lane < 32; lane++) {
                x[lane] = 0xffffffffu;
                if (c0 + lane < dv) {
                    uint64_t e = (uint64_t)vb + c0 + lane;
                    x[lane] = col[e];
                    lo = e * 4 < lo ? e * 4 : lo;
                    hi = e * 4 + 4 > hi ? e * 4 + 4 : hi;
                    active++;
                }
            }
            gb_camp_counts_add(c, 0, 4, 1, (double)gb_camp_sectors(lo, hi));
            uint32_t nk = dv - c0 < 32 ? dv - c0 : 32;
            for (uint32_t k = 0; k < nk; k++) {
                uint32_t u = x[k];
                if (u <= v)
                    continue;
                gb_camp_counts_add(c, 0, 4, 2, 2);
                uint32_t ub = row[u], du = row[u + 1] - ub;
                for (uint32_t a0 = 0; a0 < dv; a0 += 32) {
                    uint32_t a[32];
                    lo = ~0ULL;
                    hi = 0;
                    for (uint32_t lane = 0; lane < 32; lane++) {
                        a[lane] = 0;
                        if (a0 + lane < dv) {
                            uint64_t e = (uint64_t)vb + a0 + lane;
                            a[lane] = col[e];
                            lo = e * 4 < lo ? e * 4 : lo;
                            hi = e * 4 + 4 > hi ? e * 4 + 4 : hi;
                        }
                    }
                    gb_camp_counts_add(c, 0, 4, 1, (double)gb_camp_sectors(lo, hi));
                    for (uint32_t b0 = 0; b0 < du; b0 += 32) {
                        uint32_t b[32];
                        lo = ~0ULL;
                        hi = 0;
                        for (uint32_t lane = 0; lane < 32; lane++) {
                            b[lane] = 0xffffffffu;
                            if (b0 + lane < du) {
                                uint64_t e = (uint64_t)ub + b0 + lane;
                                b[lane] = col[e];
                                lo = e * 4 < lo ? e * 4 : lo;
                                hi = e * 4 + 4 > hi ? e * 4 + 4 : hi;
                            }
                        }
                        gb_camp_counts_add(c, 0, 4, 1, (double)gb_camp_sectors(lo, hi));
                        for (uint32_t lane = 0; lane < 32; lane++) {
                            uint32_t pos = 0;
                            for (uint32_t step = 16; step > 0; step >>= 1)
                                if (b[pos + step - 1] < a[lane])
                                    pos += step;
                            uint32_t found = b[pos] == a[lane];
                            cnt[lane] += (a0 + lane < dv && a[lane] > u && found) ? 1u : 0u;
                        }
                    }
                }
            }
            (void)active;
        }
        uint32_t total = 0;
        for (int lane = 0; lane < 32; lane++)
            total += cnt[lane];
        count[v] = total;
        gb_camp_counts_add(c, 1, 4, 1, 1);
    }
}

static void test_clique_warp(void **state)
{
    (void)state;
    const uint32_t n = 4096;
    uint32_t *row, *col, *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    size_t m;
    assert_int_equal(gb_camp_graph_make(n, 11, &row, &col, &m), GB_OK);
    gb_camp_clique_ref(row, col, n, ref);
    struct gb_camp_counts emu, calc;
    memset(&emu, 0, sizeof emu);
    memset(&calc, 0, sizeof calc);
    emulate_clique(row, col, n, got, &emu);
    gb_camp_counts_clique(&calc, row, col, n);
    uint64_t total = 0;
    for (uint32_t v = 0; v < n; v++) {
        assert_int_equal(got[v], ref[v]);
        total += ref[v];
    }
    assert_true(total > 0);
    for (int i = 0; i < GB_CAMP_N_WIDTHS; i++) {
        assert_true(emu.ld[i] == calc.ld[i]);
        assert_true(emu.st[i] == calc.st[i]);
    }
    assert_true(emu.ld_sectors == calc.ld_sectors);
    assert_true(emu.st_sectors == calc.st_sectors);
    assert_true(calc.ld[2] > n * 10);
    free(row);
    free(col);
    free(ref);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_clique_warp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
