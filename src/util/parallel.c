/* A parallel for over independent tasks (groups, shares): threads claim the next task
 * from a shared counter, so big and small groups balance out. Every task
 * writes only its own outputs, so results do not depend on the threads. */
#include "util/parallel.h"

#include <pthread.h>
#include <stdatomic.h>

struct pool {
    void (*fn)(void *ctx, size_t task, int worker);
    void *ctx;
    size_t ntasks;
    atomic_size_t next;
};

struct worker {
    struct pool *pool;
    int id;
};

static void *work(void *arg)
{
    struct worker *w = arg;
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
    struct worker w[threads];
    int started = 1;
    for (int i = 0; i < threads; i++)
        w[i] = (struct worker){&p, i};
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[i], NULL, work, &w[i]) == 0)
            started = i + 1;
        else
            break;
    work(&w[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
}
