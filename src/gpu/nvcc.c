/* nvcc.c - the compiler a kernel's cubin comes from: NVRTC (opened at run
 * time, nvrtc.c) or the toolkit's nvcc, run as a program, so that gpubound
 * can time the machine code a CUDA program built with `nvcc -O3 -arch=sm_XY`
 * runs. The two front ends do not emit the same PTX for the same source and
 * options (docs/measurement.md, "The compiler"). No GPU is needed. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/nvrtc_info.h"
#include "gpubound/gpu.h"
#include "util/fs.h"

extern char **environ;

static enum gb_compiler gb_chosen = GB_COMPILER_AUTO;

static const char *const gb_compiler_names[] = {
    [GB_COMPILER_NVRTC] = "nvrtc", [GB_COMPILER_NVCC] = "nvcc", [GB_COMPILER_AUTO] = "auto"};

void gb_compiler_set(enum gb_compiler c)
{
    gb_chosen = c;
}

int gb_compiler_parse(const char *name)
{
    for (int c = 0; c < GB_COMPILER_COUNT; c++)
        if (name && strcmp(name, gb_compiler_names[c]) == 0)
            return c;
    return -1;
}

const char *gb_compiler_name(enum gb_compiler c)
{
    return (int)c >= 0 && c < GB_COMPILER_COUNT ? gb_compiler_names[c] : "?";
}

/* CPU seconds of the nvcc processes this thread waited for, not yet taken. */
static _Thread_local double gb_child_cpu_s;

double gb_nvcc_take_cpu_s(void)
{
    double s = gb_child_cpu_s;
    gb_child_cpu_s = 0;
    return s;
}

static char nvcc_path[1100];
static char nvcc_ver[32];
static pthread_once_t nvcc_once = PTHREAD_ONCE_INIT;

/* Runs argv with stdout and stderr into `log_path`; its exit status, or -1
 * when it could not be started (errno set). */
static int gb_spawn_logged(char *const argv[], const char *log_path)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status = 0, rc;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    gb_child_cpu_s += (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                      (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* "V13.0.88" of `nvcc --version`'s last line, into nvcc_ver ("" when none). */
static void gb_nvcc_read_version(void)
{
    char tmpl[] = "/tmp/gpubound-nvcc-ver-XXXXXX", line[256];
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return;
    close(fd);
    char *argv[] = {nvcc_path, "--version", NULL};
    FILE *f = gb_spawn_logged(argv, tmpl) == 0 ? fopen(tmpl, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        const char *v = strstr(line, ", V");
        if (v)
            snprintf(nvcc_ver, sizeof nvcc_ver, "%.*s", (int)strcspn(v + 3, " \r\n"), v + 3);
    }
    if (f)
        fclose(f);
    unlink(tmpl);
}

/* nvcc under $GB_NVCC, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, then PATH. */
static void gb_nvcc_find(void)
{
    const char *own = getenv("GB_NVCC");
    char path[1100], home[1040];
    if (own && own[0] && strlen(own) < sizeof path && access(own, X_OK) == 0)
        snprintf(nvcc_path, sizeof nvcc_path, "%s", own);
    if (!nvcc_path[0] && gb_cuda_home_file("bin/nvcc", X_OK, home, sizeof home))
        snprintf(nvcc_path, sizeof nvcc_path, "%s/bin/nvcc", home);
    const char *env_path = getenv("PATH");
    for (const char *d = env_path; !nvcc_path[0] && d && *d;) {
        size_t len = strcspn(d, ":");
        if (len && len < 1000) {
            snprintf(path, sizeof path, "%.*s/nvcc", (int)len, d);
            if (access(path, X_OK) == 0)
                snprintf(nvcc_path, sizeof nvcc_path, "%s", path);
        }
        d += len + (d[len] == ':');
    }
    if (nvcc_path[0])
        gb_nvcc_read_version();
}

enum gb_status gb_nvcc_version(char *buf, size_t n)
{
    pthread_once(&nvcc_once, gb_nvcc_find);
    if (!nvcc_path[0] || !nvcc_ver[0])
        return gb_error_set(GB_ERR_UNSUPPORTED, "nvcc not found (under $GB_NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin "
                                                "or on PATH, with a version): install the CUDA toolkit or run "
                                                "with --compiler nvrtc");
    snprintf(buf, n, "%s", nvcc_ver);
    return GB_OK;
}

enum gb_compiler gb_compiler_for(int user)
{
    char ver[32];
    if (!user || gb_chosen == GB_COMPILER_NVRTC)
        return GB_COMPILER_NVRTC;
    if (gb_chosen == GB_COMPILER_NVCC)
        return GB_COMPILER_NVCC;
    return gb_nvcc_version(ver, sizeof ver) == GB_OK ? GB_COMPILER_NVCC : GB_COMPILER_NVRTC;
}

enum gb_status gb_compiler_describe(char *buf, size_t n)
{
    char ver[32] = "";
    enum gb_compiler c = gb_compiler_for(1);
    enum gb_status st = c == GB_COMPILER_NVCC ? gb_nvcc_version(ver, sizeof ver) : gb_nvrtc_version(ver, sizeof ver);
    if (st == GB_OK)
        snprintf(buf, n, "%s %s", gb_compiler_name(c), ver);
    return st;
}

/* Writes `text` to dir/name, making its folders (a relative name without
 * ".."; the spec's loader has kept it inside the spec's directory). */
static enum gb_status gb_nvcc_put(const char *dir, const char *name, const char *text)
{
    char path[4200];
    if (!name[0] || name[0] == '/' || strstr(name, "..") || strlen(dir) + strlen(name) + 2 > sizeof path)
        return gb_error_set(GB_ERR_USAGE, "nvcc: header name '%s' is not a relative name inside the spec", name);
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return gb_error_set(GB_ERR_USAGE, "nvcc: header name '%s' is too long", name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    enum gb_status st = gb_mkdir_p(path);
    *slash = '/';
    return st != GB_OK ? st : gb_write_file_atomic(path, text, strlen(text));
}

/* 1 when identifier `name` (len bytes) stands in a #pragma line of `text`:
 * nvcc leaves a pragma's argument unexpanded ("#pragma unroll unroll"
 * unrolls by the macro in NVRTC, names a variable in nvcc). */
static int gb_in_pragma(const char *text, const char *name, size_t len)
{
    for (const char *p = strstr(text, "pragma"); p; p = strstr(p + 6, "pragma")) {
        const char *hash = p;
        while (hash > text && (hash[-1] == ' ' || hash[-1] == '\t'))
            hash--;
        if (hash == text || hash[-1] != '#')
            continue;
        size_t line = strcspn(p, "\n");
        for (const char *q = p + 6; q + len <= p + line; q++)
            if (memcmp(q, name, len) == 0 && !(isalnum((unsigned char)q[-1]) || q[-1] == '_') &&
                !(isalnum((unsigned char)q[len]) || q[len] == '_'))
                return 1;
    }
    return 0;
}

/* 1 when the program's source or one of its headers contains `text`. */
static int gb_program_mentions(const struct gb_nvrtc_program *x, const char *text)
{
    int found = strstr(x->source, text) != NULL;
    for (int h = 0; !found && h < x->n_headers; h++)
        found = strstr(x->header_sources[h], text) != NULL;
    return found;
}

/* One -D option as a #define, and, for a name a #pragma uses, first a
 * constant of its (numeric) value for nvcc's unexpanded pragma argument. */
static char *gb_nvcc_define(char *p, const char *opt, const struct gb_nvrtc_program *x)
{
    size_t name_len = strcspn(opt + 2, "=");
    const char *name = opt + 2, *val = opt[2 + name_len] == '=' ? opt + 3 + name_len : "1";
    char *end;
    double v = strtod(val, &end);
    int numeric = end != val && *end == '\0';
    int used = gb_in_pragma(x->source, name, name_len);
    for (int h = 0; !used && h < x->n_headers; h++)
        used = gb_in_pragma(x->header_sources[h], name, name_len);
    if (used && numeric)
        p += sprintf(p, "static constexpr %s %.*s = %s;\n", v == (double)(long long)v ? "long long" : "double",
                     (int)name_len, name, val);
    return p + sprintf(p, "#define %.*s %s\n", (int)name_len, name, val);
}

/* The translation unit nvcc compiles: the runtime's header (and the narrow
 * types' the program uses) first, so that an axis named like a header's
 * identifier (`n`) does not reach them, then the -D options as #defines,
 * then the source. */
static char *gb_nvcc_unit(const struct gb_nvrtc_program *x, const char *const *opts, int n_opts)
{
    size_t n = strlen(x->source) + 256 + strlen(x->name);
    for (int i = 0; i < n_opts; i++)
        n += 2 * strlen(opts[i]) + 64;
    char *u = malloc(n), *p = u;
    if (!u)
        return NULL;
    p += sprintf(p, "#include <cuda_runtime.h>\n");
    /* The narrow types' headers too, before the defines, where the source
     * uses them (each costs about half a second of nvcc's time). */
    static const char *const narrow[] = {"cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h"};
    for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; i++)
        if (gb_program_mentions(x, narrow[i]))
            p += sprintf(p, "#include <%s>\n", narrow[i]);
    for (int i = 0; i < n_opts; i++)
        if (strncmp(opts[i], "-D", 2) == 0)
            p = gb_nvcc_define(p, opts[i], x);
    p += sprintf(p, "#line 1 \"%s\"\n", x->name);
    strcpy(p, x->source);
    return u;
}

/* The strings of nvcc's argument vector that are made, not given. */
struct gb_nvcc_args {
    char arch[64], inc[4200], out[4200], src[4200];
};

/* nvcc's argument vector: -cubin -O3 for `arch`, the options every NVRTC
 * compile has (--std=c++17, -lineinfo) and the caller's other than -D. */
static char **gb_nvcc_argv(const char *arch, const char *const *opts, int n_opts, const char *dir,
                           struct gb_nvcc_args *a)
{
    char **argv = calloc((size_t)n_opts + 16, sizeof *argv);
    int k = 0;
    if (!argv)
        return NULL;
    snprintf(a->arch, sizeof a->arch, "--gpu-architecture=%s", arch);
    snprintf(a->inc, sizeof a->inc, "-I%s", dir);
    snprintf(a->out, sizeof a->out, "%s/unit.cubin", dir);
    snprintf(a->src, sizeof a->src, "%s/unit.cu", dir);
    char *fixed[] = {nvcc_path, "-cubin", "-O3", a->arch, "--std=c++17", "-lineinfo", a->inc};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        argv[k++] = fixed[i];
    for (int i = 0; i < n_opts; i++)
        if (strncmp(opts[i], "-D", 2) != 0)
            argv[k++] = (char *)opts[i];
    argv[k++] = "-o";
    argv[k++] = a->out;
    argv[k++] = a->src;
    return argv;
}

/* Reads the whole of `path` (malloc'ed, NUL-terminated) into *text. */
static enum gb_status gb_nvcc_slurp(const char *path, char **text, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long len;
    *text = NULL;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(*text = malloc((size_t)len + 1)) || fread(*text, 1, (size_t)len, f) != (size_t)len) {
        if (f)
            fclose(f);
        free(*text);
        *text = NULL;
        return gb_error_set(GB_ERR_IO, "nvcc: cannot read %s: %s", path, strerror(errno));
    }
    fclose(f);
    (*text)[len] = '\0';
    if (size)
        *size = (size_t)len;
    return GB_OK;
}

/* The first line of nvcc's log that names an error, for the one-line message. */
static void gb_nvcc_first_error(const char *log, char *buf, size_t n)
{
    const char *e = log ? strstr(log, "error") : NULL;
    const char *start = e ? e : log ? log : "";
    while (e && start > log && start[-1] != '\n')
        start--;
    snprintf(buf, n, "%.*s", (int)strcspn(start, "\n"), start);
}

/* Runs nvcc on the unit in `dir`; the cubin on success, else the error. */
static enum gb_status gb_nvcc_run(const struct gb_nvrtc_program *x, const char *arch, const char *const *opts,
                                  int n_opts, const char *dir, char **cubin, size_t *size, char **log)
{
    struct gb_nvcc_args a;
    char log_path[4200], first[512];
    char **argv = gb_nvcc_argv(arch, opts, n_opts, dir, &a);
    if (!argv)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
    snprintf(log_path, sizeof log_path, "%s/nvcc.log", dir);
    int rc = gb_spawn_logged(argv, log_path);
    enum gb_status st = GB_OK;
    if (rc < 0) {
        st = gb_error_set(GB_ERR_COMPILE, "kernel %s: nvcc (%s) could not be started: %s", x->name, nvcc_path,
                          strerror(errno));
    } else if (rc != 0) {
        char *text = NULL;
        (void)gb_nvcc_slurp(log_path, &text, NULL);
        gb_nvcc_first_error(text, first, sizeof first);
        st = gb_error_set(GB_ERR_COMPILE, "kernel %s failed to compile for %s with nvcc (exit %d): %s", x->name,
                          arch, rc, first[0] ? first : "(no log)");
        if (log)
            *log = text;
        else
            free(text);
    } else {
        st = gb_nvcc_slurp(a.out, cubin, size);
    }
    free(argv);
    return st;
}

enum gb_status gb_nvcc_compile_program(const struct gb_nvrtc_program *x, const char *arch, const char *const *opts,
                                       int n_opts, char **cubin, size_t *size, char **log)
{
    char ver[32], dir[] = "/tmp/gpubound-nvcc-XXXXXX";
    enum gb_status st = gb_nvcc_version(ver, sizeof ver);
    char *unit = NULL;
    *cubin = NULL;
    *size = 0;
    if (st != GB_OK)
        return st;
    if (!mkdtemp(dir))
        return gb_error_set(GB_ERR_IO, "nvcc: cannot make a directory under /tmp: %s", strerror(errno));
    for (int i = 0; st == GB_OK && i < x->n_headers; i++)
        st = gb_nvcc_put(dir, x->header_names[i], x->header_sources[i]);
    if (st == GB_OK && !(unit = gb_nvcc_unit(x, opts, n_opts)))
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
    if (st == GB_OK)
        st = gb_nvcc_put(dir, "unit.cu", unit);
    if (st == GB_OK)
        st = gb_nvcc_run(x, arch, opts, n_opts, dir, cubin, size, log);
    free(unit);
    (void)gb_fs_remove_tree(AT_FDCWD, dir, 16);
    return st;
}
