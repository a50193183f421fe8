/* counter_names.c - Nsight Compute metric names: the default set, the
 * syntax check and the rollups asked for (include/gpubound/counter_names.h).
 * Pure; no GPU, no counter sets (decoding the profiler's values into a set:
 * src/results/counter_values.c). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/counter_names.h"

static const char *const gb_default_set[] = {
    /* global memory: warp-level instructions, L1TEX requests and sectors (CampProf's inputs) */
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    /* DRAM over the FBPAs, L2 over the slices (instanced: rollups added) */
    "dram__sectors_read.sum",
    "dram__sectors_write.sum",
    "lts__t_sectors.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum",
    /* shared memory */
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    /* instructions executed, by class */
    "smsp__inst_executed.sum",
    "smsp__inst_executed_pipe_alu.sum",
    "smsp__inst_executed_pipe_fma.sum",
    "smsp__inst_executed_pipe_fp64.sum",
    "smsp__inst_executed_pipe_lsu.sum",
    "smsp__inst_executed_pipe_xu.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
};

/* Hardware units Nsight Compute names metrics after. */
static const char *const gb_units[] = {
    "dram", "fbpa", "fbsp", "lts", "ltc", "l1tex", "smsp", "sm", "gpu", "gpc", "tpc", "sys", "idc",
    "pcie", "nvlrx", "nvltx", "lrc", "gr", "fe", "vidl2", "vidlg", "gcc", "pm", "syslts",
};

/* Units with several instances whose spread gpubound reports. */
static const char *const gb_instanced[] = {"dram", "fbpa", "lts", "ltc"};

static const char *const gb_rollups[] = {"sum", "avg", "max", "min"};

const char *const *gb_counter_default_set(size_t *n)
{
    *n = sizeof gb_default_set / sizeof gb_default_set[0];
    return gb_default_set;
}

static int gb_in_list(const char *s, size_t len, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && strncmp(s, list[i], len) == 0)
            return 1;
    return 0;
}

int gb_counter_name_check(const char *name, char *why, size_t n)
{
    size_t len = strlen(name);
    const char *sep = strstr(name, "__");
    if (len == 0 || len > GB_COUNTER_NAME_MAX) {
        snprintf(why, n, "'%.40s%s' is %s (a metric name has 1 to %d characters)", name,
                 len > 40 ? "..." : "", len ? "too long" : "empty", GB_COUNTER_NAME_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if (!(islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) || name[i] == '_' ||
              name[i] == '.')) {
            snprintf(why, n, "'%s' has '%c': Nsight Compute metric names use a-z, 0-9, '_' and '.'",
                     name, name[i]);
            return -1;
        }
    if (!sep || !gb_in_list(name, (size_t)(sep - name), gb_units, sizeof gb_units / sizeof gb_units[0])) {
        snprintf(why, n, "'%s' is not an Nsight Compute metric name (UNIT__COUNTER.ROLLUP with a "
                 "unit such as dram, lts, l1tex, smsp: e.g. dram__sectors_read.sum)", name);
        return -1;
    }
    const char *dot = strchr(sep, '.');
    if (sep[2] == '\0' || sep[2] == '.' || (dot && (dot[1] == '\0' || strstr(dot, "..")))) {
        snprintf(why, n, "'%s' has no counter after '__' or an empty part after a '.'", name);
        return -1;
    }
    return 0;
}

void gb_counter_names_free(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* Appends a copy of `s` unless present. 0, or -1 when out of memory. */
static int gb_names_add(char ***v, size_t *n, size_t *cap, const char *s, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*v)[i]) == len && strncmp((*v)[i], s, len) == 0)
            return 0;
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 32;
        char **p = realloc(*v, c * sizeof *p);
        if (!p)
            return -1;
        *v = p;
        *cap = c;
    }
    if (!((*v)[*n] = malloc(len + 1)))
        return -1;
    memcpy((*v)[*n], s, len);
    (*v)[*n][len] = '\0';
    (*n)++;
    return 0;
}

enum gb_status gb_counter_names_parse(const char *list, char ***names, size_t *n)
{
    char **v = NULL, why[256];
    size_t nv = 0, cap = 0, nd;
    const char *const *def = gb_counter_default_set(&nd);
    enum gb_status st = GB_OK;
    *names = NULL;
    *n = 0;
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ",");
        char one[GB_COUNTER_NAME_MAX + 48];
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one - 1 ? len : sizeof one - 1), p);
        if (len == 7 && strncmp(p, "default", 7) == 0) {
            for (size_t i = 0; i < nd && st == GB_OK; i++)
                if (gb_names_add(&v, &nv, &cap, def[i], strlen(def[i])) != 0)
                    st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        } else if (len >= sizeof one - 1 || gb_counter_name_check(one, why, sizeof why) != 0) {
            if (len >= sizeof one - 1)
                snprintf(why, sizeof why, "a metric name of %zu characters is too long (at most %d)", len,
                         GB_COUNTER_NAME_MAX);
            st = gb_error_set(GB_ERR_USAGE, "bad metric name: %s", why);
        } else if (gb_names_add(&v, &nv, &cap, p, len) != 0) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        }
        if (st != GB_OK)
            break;
        p += len;
        p += *p == ',';
    }
    if (st == GB_OK && nv == 0)
        st = gb_error_set(GB_ERR_USAGE, "no metric names given (a comma list, or 'default')");
    if (st != GB_OK) {
        gb_counter_names_free(v, nv);
        return st;
    }
    *names = v;
    *n = nv;
    return GB_OK;
}

/* Whether `name` is UNIT__X.sum of an instanced unit; *base_len gets the
 * length of "UNIT__X". */
static int gb_instanced_sum(const char *name, size_t *base_len)
{
    const char *sep = strstr(name, "__"), *dot = strrchr(name, '.');
    if (!sep || !dot || strcmp(dot, ".sum") != 0 || strchr(sep, '.') != dot)
        return 0;
    *base_len = (size_t)(dot - name);
    return gb_in_list(name, (size_t)(sep - name), gb_instanced, sizeof gb_instanced / sizeof gb_instanced[0]);
}

enum gb_status gb_counter_request(char *const *names, size_t n, char ***req, size_t *n_req)
{
    char **v = NULL, buf[GB_COUNTER_NAME_MAX + 8];
    size_t nv = 0, cap = 0, bl;
    *req = NULL;
    *n_req = 0;
    for (size_t i = 0; i < n; i++) {
        if (gb_names_add(&v, &nv, &cap, names[i], strlen(names[i])) != 0)
            goto oom;
        if (!gb_instanced_sum(names[i], &bl))
            continue;
        for (size_t r = 1; r < sizeof gb_rollups / sizeof gb_rollups[0]; r++) {
            int len = snprintf(buf, sizeof buf, "%.*s.%s", (int)bl, names[i], gb_rollups[r]);
            if (gb_names_add(&v, &nv, &cap, buf, (size_t)len) != 0)
                goto oom;
        }
    }
    *req = v;
    *n_req = nv;
    return GB_OK;
oom:
    gb_counter_names_free(v, nv);
    return gb_error_set(GB_ERR_NOMEM, "out of host memory");
}
