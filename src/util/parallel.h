/* A parallel for over independent tasks, used by the interval engine and the
 * lifecycle pivot and fold. */
#ifndef SPOOR_UTIL_PARALLEL_H
#define SPOOR_UTIL_PARALLEL_H

#include <stddef.h>

/* Runs fn(ctx, task, worker) for task 0..ntasks-1 on up to `threads` threads
 * (the caller's included); tasks are claimed in order. */
void spoor_parallel_for(size_t ntasks, int threads, void (*fn)(void *ctx, size_t task, int worker), void *ctx);

#endif
