/* plot_heat.c - the gnuplot script of a heat grid: a cell per row and
 * column, shaded by its value, the best and those within 5% and 25% of it
 * marked, flagged and failed cells drawn apart, with their legend. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/numbers.h"
#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

enum gb_status gb_gp_heat(FILE *f, const struct gb_plot *p)
{
    size_t nr = p->rows.n, nc = p->cols.n;
    double best = NAN;
    int have[5] = {0};   /* flagged, best, within 5%, within 25%, failed */

    if (p->n_cells == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no cells", p->name);
    for (size_t i = 0; i < p->n_cells; i++) {
        double v = p->cells[i].v;
        if (!isfinite(v))
            continue;
        if (isnan(best) || (p->higher_better ? v > best : v < best))
            best = v;
    }
    /* One datablock per mark, so that each draws with its own style. */
    static const char *const blocks[5] = {"flag", "best", "w5", "w25", "fail"};
    for (int k = 0; k < 5; k++) {
        fprintf(f, "$%s << EOD\n", blocks[k]);
        for (size_t i = 0; i < p->n_cells; i++) {
            const struct gb_cell_v *c = &p->cells[i];
            double v = c->v;
            int mark;
            if (!isfinite(v))
                mark = 4;
            else if (v == best)
                mark = 1;
            else {
                /* How much worse than the best, as a fraction of the best. */
                double worse = p->higher_better ? (best - v) / best : (v - best) / best;
                mark = worse <= 0.05 ? 2 : worse <= 0.25 ? 3 : -1;
            }
            if ((k == 0 && c->flagged) || (k != 0 && mark == k)) {
                fprintf(f, "%zu %zu\n", c->col, c->row);
                have[k] = 1;
            }
        }
        fputs("EOD\n", f);
    }
    gb_gp_common(f, p);
    /* Square cells: one unit of x is one unit of y on the page. */
    fputs("set size ratio -1\n", f);
    fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n", nc - 1, nr - 1);
    fputs("set xtics scale 0 (", f);
    for (size_t i = 0; i < nc; i++) {
        fputs(i ? ", " : "", f);
        gb_gp_tic(f, p->cols.v[i]);
        fprintf(f, " %zu", i);
    }
    fputs(")\n", f);
    /* Labels that would run into each other under their columns stand on end. */
    size_t widest = 0;
    for (size_t i = 0; i < nc; i++)
        if (strlen(p->cols.v[i]) > widest)
            widest = strlen(p->cols.v[i]);
    if (nc * (widest + 1) > 60)
        fputs("set xtics rotate by 90 right\n", f);
    fputs("set ytics scale 0 (", f);
    for (size_t i = 0; i < nr; i++) {
        fputs(i ? ", " : "", f);
        gb_gp_tic(f, p->rows.v[i]);
        fprintf(f, " %zu", i);
    }
    fputs(")\n", f);
    fputs("set border 15 lw 1.5 lc rgb '#404040'\nunset grid\n", f);
    for (size_t i = 1; i < nc; i++)
        fprintf(f, "set arrow from %zu.5, graph 0 to %zu.5, graph 1 nohead back lc rgb '#cccccc' "
                   "lw 1\n", i - 1, i - 1);
    for (size_t i = 1; i < nr; i++)
        fprintf(f, "set arrow from graph 0, first %zu.5 to graph 1, first %zu.5 nohead back "
                   "lc rgb '#cccccc' lw 1\n", i - 1, i - 1);
    fputs("set key outside right top vertical Left reverse samplen 1 spacing 1.5 width 1 "
          "box lc rgb '#bbbbbb'\n", f);
    fputs("set style circle radius 0.3\n", f);

    gb_gp_svg(f, p);
    const char *sep = "plot ";
    if (have[0]) {
        fprintf(f, "%s$flag using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder "
                   "lc rgb '#cfe3f5' notitle", sep);
        sep = ", \\\n     ";
    }
    if (have[1]) {
        fprintf(f, "%s$best using 1:2:(0.28):(0.28) with boxxyerror fs solid 1.0 noborder "
                   "lc rgb '%s' notitle", sep, gb_colours[0]);
        sep = ", \\\n     ";
    }
    if (have[2]) {
        fprintf(f, "%s$w5 using 1:2 with circles fs solid 1.0 noborder lc rgb '%s' notitle",
                sep, gb_colours[0]);
        sep = ", \\\n     ";
    }
    if (have[3]) {
        fprintf(f, "%s$w25 using 1:2 with circles fs empty border lw 2.5 lc rgb '%s' notitle",
                sep, gb_colours[0]);
        sep = ", \\\n     ";
    }
    if (have[4]) {
        fprintf(f, "%s$fail using 1:2 with points pt 2 ps 1.2 lw 1.5 lc rgb '#999999' notitle",
                sep);
        sep = ", \\\n     ";
    }
    /* The legend, drawn with samples that look like the marks. */
    fprintf(f, "%skeyentry with points pt 5 ps 2.2 lc rgb '%s' title 'best'", sep,
            gb_colours[0]);
    sep = ", \\\n     ";
    fprintf(f, "%skeyentry with points pt 7 ps 2.2 lc rgb '%s' title 'within 5%% of best'", sep,
            gb_colours[0]);
    fprintf(f, "%skeyentry with points pt 6 ps 2.2 lw 2.5 lc rgb '%s' title 'within 25%% of best'",
            sep, gb_colours[0]);
    if (have[0]) {
        fprintf(f, "%skeyentry with boxes fs solid 1.0 noborder lc rgb '#cfe3f5' title ", sep);
        gb_gp_str(f, p->flag_label ? p->flag_label : "flagged");
    }
    if (have[4])
        fprintf(f, "%skeyentry with points pt 2 ps 1.2 lw 1.5 lc rgb '#999999' title 'failed'",
                sep);
    fputc('\n', f);
    return GB_OK;
}
