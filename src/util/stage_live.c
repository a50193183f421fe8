/* stage_live.c - the stages this process has open, so that a signal
 * handler can remove them (stage.h, gb_stage_remove_open). Everything a
 * handler runs here is async-signal-safe: fixed storage, no allocation,
 * getdents64 rather than readdir. */
#include "util/stage_live.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "util/stage.h"

#define GB_LIVE_MAX 8
enum { GB_LIVE_FREE, GB_LIVE_OPEN, GB_LIVE_COMMITTING };

static struct {
    char tmp[GB_PATH_MAX + 64];
    char dir[GB_PATH_MAX];
    pid_t pid;                    /* a forked child's copy is not its own */
    volatile sig_atomic_t state;
} gb_live[GB_LIVE_MAX];

int gb_stage_live_add(const char *tmp, const char *dir)
{
    for (int i = 0; i < GB_LIVE_MAX; i++) {
        if (gb_live[i].state != GB_LIVE_FREE)
            continue;
        snprintf(gb_live[i].tmp, sizeof gb_live[i].tmp, "%s", tmp);
        snprintf(gb_live[i].dir, sizeof gb_live[i].dir, "%s", dir);
        gb_live[i].pid = getpid();
        gb_live[i].state = GB_LIVE_OPEN;
        return i + 1;
    }
    return 0; /* untracked: a killed command's stage, swept by the next one */
}

void gb_stage_live_drop(int slot)
{
    if (slot > 0 && slot <= GB_LIVE_MAX)
        gb_live[slot - 1].state = GB_LIVE_FREE;
}

void gb_stage_live_committing(int slot, int on, sigset_t *saved)
{
    sigset_t hold;
    if (on) {
        sigemptyset(&hold);
        sigaddset(&hold, SIGINT);
        sigaddset(&hold, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &hold, saved);
    }
    if (slot > 0 && slot <= GB_LIVE_MAX && gb_live[slot - 1].state != GB_LIVE_FREE)
        gb_live[slot - 1].state = on ? GB_LIVE_COMMITTING : GB_LIVE_OPEN;
    if (!on)
        pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* Unlinks what directory `fd` holds, `depth` levels of subdirectories
 * deep; how many entries it removed. */
static int gb_live_empty(int fd, int depth)
{
    char buf[4096];
    long got;
    int removed = 0;
    lseek(fd, 0, SEEK_SET);
    while ((got = (long)getdents64(fd, buf, sizeof buf)) > 0)
        for (long off = 0; off < got;) {
            struct dirent64 *e = (struct dirent64 *)(void *)(buf + off);
            off += e->d_reclen;
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            if (unlinkat(fd, e->d_name, 0) == 0) {
                removed++;
            } else if (depth > 0 && (errno == EISDIR || errno == EPERM)) {
                int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0) {
                    gb_live_empty(sub, depth - 1);
                    close(sub);
                }
                removed += unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0;
            }
        }
    return removed;
}

/* Removes the stage `path` and what it holds; a writer still adding to it
 * (a gnuplot not yet gone) is outlasted by a few passes. */
static int gb_live_remove(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT;
    for (int pass = 0; pass < 8; pass++) {
        gb_live_empty(fd, 1);
        if (rmdir(path) == 0)
            break;
    }
    close(fd);
    return access(path, F_OK) != 0;
}

int gb_stage_remove_open(char *dir, size_t n)
{
    int removed = 0;
    pid_t me = getpid();
    if (n)
        dir[0] = '\0';
    for (int i = 0; i < GB_LIVE_MAX; i++) {
        if (gb_live[i].state != GB_LIVE_OPEN || gb_live[i].pid != me || !gb_live_remove(gb_live[i].tmp))
            continue;
        gb_live[i].state = GB_LIVE_FREE;
        if (removed++ == 0 && n) {
            size_t len = strlen(gb_live[i].dir);
            len = len < n - 1 ? len : n - 1;
            memcpy(dir, gb_live[i].dir, len);
            dir[len] = '\0';
        }
    }
    return removed;
}
