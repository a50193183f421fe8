/* cli_roofs.c - the roofs a command places a run under: a ceilings run
 * given or found beside the run, else the guide figures. */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_roofs.h"
#include "util/fs.h"

enum gb_status gb_cli_roofs_same_gpu(const char *ceil_dir, const struct gb_run *cr, const char *what,
                                     const char *dev, const char *escape)
{
    if (!dev || !dev[0] || !cr->info.has_device || strcmp(cr->info.device.name, dev) == 0)
        return GB_OK;
    return gb_error_set(GB_ERR_USAGE, "%s was measured on %s and %s on %s: the roofs of one kind of GPU "
                        "do not bound another; record a ceilings run on that GPU%s",
                        ceil_dir, cr->info.device.name, what, dev, escape ? escape : "");
}

enum gb_status gb_cli_roofs(const char *ceil_dir, int other_gpu, const struct gb_run *run, struct gb_ceilings *c)
{
    enum gb_status st;
    struct gb_run *cr = NULL;
    const char *dev = run->info.has_device ? run->info.device.name : NULL;
    if (!ceil_dir) {
        if (!run->info.has_device)
            return gb_error_set(GB_ERR_USAGE, "%s has no device in its run.json and no --ceilings run was given",
                                run->dir);
        gb_ceilings_guide(&run->info.device, c);
        return GB_OK;
    }
    if ((st = gb_cli_load_run(ceil_dir, &cr)) == GB_OK &&
        gb_cli_roofs_same_gpu(ceil_dir, cr, run->dir, dev, " (or give --other-gpu)") != GB_OK) {
        if (!other_gpu)
            st = GB_ERR_USAGE;
        else {
            gb_error_clear();
            fprintf(stderr, "roofline: roofs of another GPU (--other-gpu): %s, not %s\n", cr->info.device.name, dev);
        }
    }
    if (st == GB_OK)
        st = gb_ceilings_from_run(cr, c);
    gb_run_free(cr);
    return st;
}

/* Whether dir/name is a ceilings run of device `dev`. */
static int gb_is_ceilings_of(const char *dir, const char *name, const char *dev, char *path, size_t n)
{
    struct gb_run *cr = NULL;
    char runjson[GB_PATH_MAX + 320];
    int ok;
    if (strncmp(name, "ceilings", 8) != 0)
        return 0;
    snprintf(path, n, "%s/%s", dir, name);
    if (snprintf(runjson, sizeof runjson, "%s/run.json", path) >= (int)sizeof runjson)
        return 0;
    if (!gb_is_dir(path) || access(runjson, R_OK) != 0)
        return 0;
    ok = gb_run_load(path, &cr) == GB_OK && cr->info.has_device && strcmp(cr->info.device.name, dev) == 0;
    gb_run_free(cr);
    return ok;
}

/* The last ceilings run of `dev` in `dir` by name, into best; 1 when found. */
static int gb_find_in(const char *dir, const char *dev, char *best, size_t n)
{
    char path[GB_PATH_MAX + 300], name[256] = "";
    struct dirent *e;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, name) > 0 && strlen(e->d_name) < sizeof name &&
            gb_is_ceilings_of(dir, e->d_name, dev, path, sizeof path))
            snprintf(name, sizeof name, "%s", e->d_name);
    closedir(d);
    if (!name[0])
        return 0;
    snprintf(best, n, "%s/%s", dir, name);
    return 1;
}

int gb_cli_find_ceilings(const struct gb_run *run, char *buf, size_t n)
{
    char a[GB_PATH_MAX], b[GB_PATH_MAX];
    if (!run->info.has_device || !run->info.device.name[0])
        return 0;
    snprintf(a, sizeof a, "%s", run->dir);
    size_t len = strlen(a);
    while (len > 1 && a[len - 1] == '/')
        a[--len] = '\0';
    snprintf(b, sizeof b, "%s", dirname(a));     /* the parent */
    if (gb_find_in(b, run->info.device.name, buf, n))
        return 1;
    snprintf(a, sizeof a, "%s", b);
    return strcmp(a, ".") != 0 && strcmp(a, "/") != 0 && gb_find_in(dirname(a), run->info.device.name, buf, n);
}
