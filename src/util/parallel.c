/* The one place that starts threads (see parallel.h).
 *
 * The parallel for: threads claim the next task from a shared counter, so big
 * and small tasks balance out. Every task writes only its own outputs, so
 * results do not depend on the threads.
 *
 * The thread group: each started thread first waits at a gate until all are
 * started; if one cannot start, the gate turns them back before they run
 * anything, so a group either runs every worker or none. */
#include "util/parallel.h"

#include "spoor/error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct pool {
    void (*fn)(void *ctx, size_t task, int worker);
    void *ctx;
    size_t ntasks;
    atomic_size_t next;
};

struct claimer {
    struct pool *pool;
    int id;
};

static void *claim_tasks(void *arg)
{
    struct claimer *w = arg;
    for (size_t i; (i = atomic_fetch_add(&w->pool->next, 1)) < w->pool->ntasks;)
        w->pool->fn(w->pool->ctx, i, w->id);
    return NULL;
}

void spoor_parallel_for(size_t ntasks, int threads, void (*fn)(void *ctx, size_t task, int worker), void *ctx)
{
    struct pool p = {fn, ctx, ntasks, 0};
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > ntasks)
        threads = ntasks ? (int)ntasks : 1;
    pthread_t tid[threads];
    struct claimer w[threads];
    int started = 1;
    for (int i = 0; i < threads; i++)
        w[i] = (struct claimer){&p, i};
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[i], NULL, claim_tasks, &w[i]) == 0)
            started = i + 1;
        else
            break;
    claim_tasks(&w[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
}

enum gate { GATE_SHUT, GATE_OPEN, GATE_CANCELLED };

struct member {
    struct spoor_thread_group *group;
    int worker;
    pthread_t thread;
};

struct spoor_thread_group {
    void (*fn)(void *ctx, int worker);
    void *ctx;
    pthread_mutex_t mu;
    pthread_cond_t gate_moved;
    enum gate gate;
    int started;
    struct member members[];
};

static void *member_main(void *arg)
{
    struct member *m = arg;
    struct spoor_thread_group *g = m->group;
    pthread_mutex_lock(&g->mu);
    while (g->gate == GATE_SHUT)
        pthread_cond_wait(&g->gate_moved, &g->mu);
    bool go = g->gate == GATE_OPEN;
    pthread_mutex_unlock(&g->mu);
    if (go)
        g->fn(g->ctx, m->worker);
    return NULL;
}

/* Starts n threads running workers first..first+n-1; NULL if not all could. */
static struct spoor_thread_group *group_start(int n, int first, void (*fn)(void *ctx, int worker), void *ctx)
{
    if (n < 0)
        n = 0;
    struct spoor_thread_group *g = spoor_xmalloc(sizeof *g + (size_t)n * sizeof *g->members);
    g->fn = fn;
    g->ctx = ctx;
    g->gate = GATE_SHUT;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->gate_moved, NULL);
    for (g->started = 0; g->started < n; g->started++) {
        struct member *m = &g->members[g->started];
        *m = (struct member){g, first + g->started, 0};
        if (pthread_create(&m->thread, NULL, member_main, m) != 0)
            break;
    }
    bool all = g->started == n;
    pthread_mutex_lock(&g->mu);
    g->gate = all ? GATE_OPEN : GATE_CANCELLED;
    pthread_cond_broadcast(&g->gate_moved);
    pthread_mutex_unlock(&g->mu);
    if (all)
        return g;
    spoor_thread_group_join(g);
    return NULL;
}

struct spoor_thread_group *spoor_thread_group_start(int n, void (*fn)(void *ctx, int worker), void *ctx)
{
    return group_start(n, 0, fn, ctx);
}

void spoor_thread_group_join(struct spoor_thread_group *g)
{
    for (int i = 0; i < g->started; i++)
        pthread_join(g->members[i].thread, NULL);
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->gate_moved);
    free(g);
}

bool spoor_thread_group_run(int n, void (*fn)(void *ctx, int worker), void *ctx)
{
    if (n < 1)
        return true;
    struct spoor_thread_group *g = group_start(n - 1, 1, fn, ctx);
    if (!g)
        return false;
    fn(ctx, 0);
    spoor_thread_group_join(g);
    return true;
}
