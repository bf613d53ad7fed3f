/* The one place that starts threads. Two shapes:
 *
 * - spoor_parallel_for: independent tasks claimed in order by up to N threads,
 *   the caller's among them. A task never waits for another, so when a thread
 *   cannot start the ones that did (or the caller alone) run every task: it
 *   cannot fail. Two different halves of a job done at once are tasks 0 and 1.
 *
 * - spoor_thread_group: long-lived workers that wait on one another (a reader
 *   waiting for a free slot, a writer for a compressed block). Run one after
 *   the other they could wait forever, so a group starts all its threads or
 *   none of them runs, and its caller decides what to do instead. */
#ifndef SPOOR_UTIL_PARALLEL_H
#define SPOOR_UTIL_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

/* Runs fn(ctx, task, worker) for task 0..ntasks-1 on up to `threads` threads
 * (the caller's included, as worker 0; no more threads than tasks); tasks are
 * claimed in order. Two tasks on the same worker never overlap, so `worker`
 * (0..threads-1) can index per-thread scratch. */
void spoor_parallel_for(size_t ntasks, int threads, void (*fn)(void *ctx, size_t task, int worker), void *ctx);

struct spoor_thread_group;

/* Starts n threads running fn(ctx, worker) for worker 0..n-1 and returns at
 * once; NULL (and fn never ran) if not all of them could start. */
struct spoor_thread_group *spoor_thread_group_start(int n, void (*fn)(void *ctx, int worker), void *ctx);
/* Waits for every worker of g to return and frees g. */
void spoor_thread_group_join(struct spoor_thread_group *g);

/* Runs fn(ctx, worker) for worker 0..n-1 at once, worker 0 on the caller's
 * thread, and returns when all have returned. False (and fn never ran) if the
 * other n-1 threads could not all start. n < 1 runs nothing. */
bool spoor_thread_group_run(int n, void (*fn)(void *ctx, int worker), void *ctx);

#endif
