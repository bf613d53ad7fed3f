/* Chunks of a plain file are mapped one window at a time, not copied: a
 * pread of every chunk cost 15 % of `spoor stats` (docs/perf-notes.md,
 * "Reading"). A mapped file that shrinks raises SIGBUS on the next touch of
 * a page past its new end; this handler turns that into an error instead of
 * a crash. While a window is in use it is registered here; a SIGBUS inside
 * one maps zero pages over the rest of the window (so the parser reads zeros
 * and returns) and sets its input's `shrank` flag, which the cursor reports
 * on its next call ("shrank from N to M bytes"). A SIGBUS anywhere else goes
 * to the handler that was there before (or kills, as it would have). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/internal.h"

enum { GUARDS = 1024 };     /* windows in use at once; past that, chunks are read with pread */

/* seq is odd while start and end change: the handler, which may run while
 * another thread maps or unmaps, trusts a slot only when it read the same
 * even seq before and after them (and start < end). */
struct guard {
    atomic_bool used;
    atomic_uint seq;
    _Atomic uintptr_t start, end;
    _Atomic(atomic_bool *) shrank;
};

static struct guard guards[GUARDS];
static struct sigaction previous;
static pthread_mutex_t install_mu = PTHREAD_MUTEX_INITIALIZER;
static size_t page;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    uintptr_t at = (uintptr_t)si->si_addr;
    for (size_t i = 0; i < GUARDS; i++) {
        unsigned seq = atomic_load(&guards[i].seq);
        uintptr_t start = atomic_load(&guards[i].start), end = atomic_load(&guards[i].end);
        atomic_bool *shrank = atomic_load(&guards[i].shrank);
        if (seq % 2 || atomic_load(&guards[i].seq) != seq || !start || start >= end)
            continue;
        if (at >= start && at < end) {
            uintptr_t from = at & ~(uintptr_t)(page - 1);
            mmap((void *)from, end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            atomic_store(shrank, true);
            return;
        }
    }
    /* Not ours: put the old action back; the access faults again and meets it. */
    (void)sig;
    (void)uc;
    sigaction(SIGBUS, &previous, NULL);
}

/* Puts the handler in place unless it is there: checked at every window,
 * since whoever set a SIGBUS handler since (a test harness) replaced it. */
static void install(void)
{
    pthread_mutex_lock(&install_mu);
    struct sigaction cur;
    sigaction(SIGBUS, NULL, &cur);
    if (!(cur.sa_flags & SA_SIGINFO) || cur.sa_sigaction != on_sigbus) {
        page = (size_t)sysconf(_SC_PAGESIZE);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &previous);
    }
    pthread_mutex_unlock(&install_mu);
}

const void *io_guard_map(struct spoor_input *in, uint64_t off, size_t len, struct io_mapping *m)
{
    install();
    size_t g = 0;
    bool no = false;
    while (g < GUARDS && !atomic_compare_exchange_strong(&guards[g].used, &no, true)) {
        no = false;
        g++;
    }
    if (g == GUARDS)
        return NULL;
    uint64_t aligned = off / page * page;
    size_t map_len = (size_t)(off - aligned) + len;
    void *p = mmap(NULL, map_len, PROT_READ, MAP_PRIVATE, in->fd, (off_t)aligned);
    if (p == MAP_FAILED) {
        atomic_store(&guards[g].used, false);
        return NULL;
    }
    atomic_fetch_add(&guards[g].seq, 1);
    atomic_store(&guards[g].shrank, &in->shrank);
    atomic_store(&guards[g].start, (uintptr_t)p);
    atomic_store(&guards[g].end, (uintptr_t)p + map_len);
    atomic_fetch_add(&guards[g].seq, 1);
    m->map = p;
    m->len = map_len;
    m->guard = (int)g;
    return (const char *)p + (off - aligned);
}

void io_guard_unmap(struct io_mapping *m)
{
    if (!m->map)
        return;
    struct guard *g = &guards[m->guard];
    atomic_fetch_add(&g->seq, 1);
    atomic_store(&g->end, 0);
    atomic_store(&g->start, 0);
    atomic_fetch_add(&g->seq, 1);
    munmap(m->map, m->len);
    atomic_store(&g->used, false);
    m->map = NULL;
    m->len = 0;
}

const char *io_map_window(struct spoor_input *in, uint64_t off, size_t len, struct spoor_chunk *chunk)
{
    struct io_mapping m = {0};
    const char *p = io_guard_map(in, off, len, &m);
    chunk->map = m.map;
    chunk->map_len = m.len;
    chunk->map_guard = m.guard;
    return p;
}

void io_chunk_unmap(struct spoor_chunk *chunk)
{
    struct io_mapping m = {chunk->map, chunk->map_len, chunk->map_guard};
    io_guard_unmap(&m);
    chunk->map = NULL;
    chunk->map_len = 0;
}
