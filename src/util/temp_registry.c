/* A handler that runs on whichever thread the signal lands on: it removes the
 * registered temporaries, restores the default action and raises the signal
 * again, so the process dies by it (exit status 128+n in a shell) as it would
 * have without the handler. A second signal on another thread meanwhile waits
 * for the first to end the process. */
#include "util/temp_registry.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "spoor/write.h"

enum { SLOTS = 32 };
enum { FREE, FILLING, LIVE };

static struct {
    atomic_int state;
    char path[PATH_MAX];
} slots[SLOTS];
static atomic_flag handling = ATOMIC_FLAG_INIT;

static int temp_register(const char *path)
{
    size_t n = strlen(path);
    if (n >= PATH_MAX)
        return -1;
    for (int i = 0; i < SLOTS; i++) {
        int expect = FREE;
        if (atomic_compare_exchange_strong(&slots[i].state, &expect, FILLING)) {
            memcpy(slots[i].path, path, n + 1);
            atomic_store(&slots[i].state, LIVE);
            return i;
        }
    }
    return -1;
}

int spoor_temp_create(const char *prefix, char **path, int *slot)
{
    static atomic_uint counter;
    size_t cap = strlen(prefix) + 16;
    char *name = spoor_xmalloc(cap);
    for (;;) {
        /* Unique among this process's temporaries; a name a dead process with
         * the same PID left is taken (EEXIST) and the next number tried. */
        snprintf(name, cap, "%s%06u", prefix, atomic_fetch_add(&counter, 1) % 1000000);
        int s = temp_register(name);
        int fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            *path = name;
            *slot = s;
            return fd;
        }
        int e = errno;
        spoor_temp_unregister(s);
        if (e != EEXIST) {
            free(name);
            errno = e;
            return -1;
        }
    }
}

void spoor_temp_unregister(int slot)
{
    if (slot >= 0)
        atomic_store(&slots[slot].state, FREE);
}

static void on_signal(int sig)
{
    if (atomic_flag_test_and_set(&handling))
        for (;;)
            pause();
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&slots[i].state) == LIVE)
            unlink(slots[i].path);
    /* SA_RESETHAND restored the default action and SA_NODEFER left sig unblocked. */
    raise(sig);
}

void spoor_atomic_file_cleanup_on_signals(void)
{
    /* SIGPIPE: a reader of stdout that went away while a sidecar was being
     * written; SIGXFSZ, SIGXCPU: an output past `ulimit -f`, a run past `ulimit -t`. */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ, SIGXCPU};
    enum { NSIGS = sizeof sigs / sizeof *sigs };
    for (size_t i = 0; i < NSIGS; i++) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) /* nohup stays ignored */
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < NSIGS; j++) /* the others wait while one cleans up */
            if (j != i)
                sigaddset(&sa.sa_mask, sigs[j]);
        sigaction(sigs[i], &sa, NULL);
    }
}
