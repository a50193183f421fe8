/* cli_interrupt.c - Ctrl-C or SIGTERM while a command writes its outputs:
 * its stages are removed and one line says so (cli.h). */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/stage.h"

static const char *gb_int_cmd = "";
static volatile sig_atomic_t gb_int_caught;

/* Appends `s` to buf (n bytes) at *len; async-signal-safe. */
static void gb_int_put(char *buf, size_t n, size_t *len, const char *s)
{
    size_t k = strlen(s);
    if (*len + k >= n)
        k = n - 1 - *len;
    memcpy(buf + *len, s, k);
    *len += k;
}

static void gb_int_handler(int sig)
{
    char dir[GB_PATH_MAX], line[GB_PATH_MAX + 256];
    size_t len = 0;
    /* A second signal, or one while the first is handled: the default, now. */
    if (gb_int_caught++) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (gb_stage_remove_open(dir, sizeof dir) > 0) {
        gb_int_put(line, sizeof line, &len, "gpubound ");
        gb_int_put(line, sizeof line, &len, gb_int_cmd);
        gb_int_put(line, sizeof line, &len, sig == SIGINT ? ": interrupted" : ": terminated");
        gb_int_put(line, sizeof line, &len, ": nothing was written to ");
        gb_int_put(line, sizeof line, &len, dir);
        gb_int_put(line, sizeof line, &len, " (its staged files are removed); run the command again\n");
        (void)!write(STDERR_FILENO, line, len);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void gb_cli_catch_interrupts(const char *cmd)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = gb_int_handler;
    /* Not held during the handler: a second Ctrl-C ends the process at once. */
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    gb_int_cmd = cmd;
    for (int i = 0; i < 2; i++) {
        int sig = i ? SIGTERM : SIGINT;
        struct sigaction was;
        /* A signal ignored from the start (a background job's SIGINT) stays ignored. */
        if (sigaction(sig, NULL, &was) == 0 && was.sa_handler != SIG_IGN)
            sigaction(sig, &sa, NULL);
    }
}
