/* The thread layer (util/parallel.h). The parallel for runs every task once,
 * for 0, 1, 2 and many tasks on 1, 2 and many threads, never two tasks at
 * once on one worker, worker 0 on the caller, and two tasks truly at once on
 * two threads. A thread group runs every worker once, all at once (they meet
 * at a barrier no sequence of calls could pass), worker 0 of a run on the
 * caller, and start returns before its workers end. With too little address
 * space for more thread stacks, a group starts nobody and returns failure,
 * while the parallel for still runs every task on the threads it got. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/parallel.h"

enum { MANY = 16, MAX_TASKS = 5000 };
#define STARVED "--starved" /* argument: run as the starved child */
#define STACK ((size_t)64 << 20)

struct tally {
    atomic_int runs[MAX_TASKS];
    atomic_int busy[MANY];      /* per worker: a task of it is running */
    atomic_int overlaps, bad_worker, caller_is_not_0;
    int workers;                /* the worker ids allowed: 0..workers-1 */
    pthread_t caller;
};

static void count_task(void *ctx, size_t task, int worker)
{
    struct tally *t = ctx;
    if (worker < 0 || worker >= t->workers) {
        atomic_fetch_add(&t->bad_worker, 1);
        return;
    }
    if (atomic_fetch_add(&t->busy[worker], 1) != 0)
        atomic_fetch_add(&t->overlaps, 1);
    if ((worker == 0) != (pthread_equal(pthread_self(), t->caller) != 0))
        atomic_fetch_add(&t->caller_is_not_0, 1);
    atomic_fetch_add(&t->runs[task], 1);
    atomic_fetch_sub(&t->busy[worker], 1);
}

static void check_parallel_for(size_t ntasks, int threads)
{
    struct tally *t = calloc(1, sizeof *t);
    size_t most = ntasks ? ntasks : 1;
    int clamped = threads < 1 ? 1 : threads;
    t->workers = (size_t)clamped < most ? clamped : (int)most;
    t->caller = pthread_self();
    spoor_parallel_for(ntasks, threads, count_task, t);
    for (size_t i = 0; i < MAX_TASKS; i++)
        assert_int_equal(t->runs[i], i < ntasks ? 1 : 0);
    assert_int_equal(t->overlaps, 0);
    assert_int_equal(t->bad_worker, 0);
    assert_int_equal(t->caller_is_not_0, 0);
    free(t);
}

static void parallel_for_runs_every_task_once(void **state)
{
    (void)state;
    const size_t tasks[] = {0, 1, 2, 3, 100, MAX_TASKS};
    const int threads[] = {-1, 0, 1, 2, 3, MANY};
    for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++)
        for (size_t j = 0; j < sizeof threads / sizeof *threads; j++)
            check_parallel_for(tasks[i], threads[j]);
}

/* Two halves of a job: each waits (up to 20 s) for the other to begin. */
struct meeting {
    atomic_int arrived;
    atomic_int met;
};

static void meet_task(void *ctx, size_t task, int worker)
{
    (void)task;
    (void)worker;
    struct meeting *m = ctx;
    atomic_fetch_add(&m->arrived, 1);
    for (int i = 0; i < 20000 && atomic_load(&m->arrived) < 2; i++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    if (atomic_load(&m->arrived) == 2)
        atomic_fetch_add(&m->met, 1);
}

static void parallel_for_runs_two_halves_at_once(void **state)
{
    (void)state;
    struct meeting m = {0};
    spoor_parallel_for(2, 2, meet_task, &m);
    assert_int_equal(m.arrived, 2);
    assert_int_equal(m.met, 2);
}

/* A group's workers: each counts itself and waits at a barrier of them all. */
struct crew {
    pthread_barrier_t all_here;
    atomic_int runs[MANY];
    atomic_int calls, on_caller;
    pthread_t caller;
    pthread_mutex_t mu;
    pthread_cond_t released;
    bool release;               /* start test: the workers wait for this */
};

static void crew_worker(void *ctx, int worker)
{
    struct crew *c = ctx;
    atomic_fetch_add(&c->calls, 1);
    if (worker >= 0 && worker < MANY)
        atomic_fetch_add(&c->runs[worker], 1);
    if (pthread_equal(pthread_self(), c->caller))
        atomic_fetch_add(&c->on_caller, worker == 0 ? 1 : 100);
    pthread_barrier_wait(&c->all_here);
    pthread_mutex_lock(&c->mu);
    while (!c->release)
        pthread_cond_wait(&c->released, &c->mu);
    pthread_mutex_unlock(&c->mu);
}

static struct crew *crew_new(int n, bool released)
{
    struct crew *c = calloc(1, sizeof *c);
    pthread_barrier_init(&c->all_here, NULL, (unsigned)(n > 0 ? n : 1));
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->released, NULL);
    c->release = released;
    c->caller = pthread_self();
    return c;
}

static void crew_free(struct crew *c)
{
    pthread_barrier_destroy(&c->all_here);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->released);
    free(c);
}

static void group_run_runs_every_worker_at_once(void **state)
{
    (void)state;
    const int sizes[] = {1, 2, 3, MANY};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int n = sizes[i];
        struct crew *c = crew_new(n, true);
        assert_true(spoor_thread_group_run(n, crew_worker, c));
        assert_int_equal(c->calls, n);
        for (int w = 0; w < MANY; w++)
            assert_int_equal(c->runs[w], w < n ? 1 : 0);
        assert_int_equal(c->on_caller, 1);
        crew_free(c);
    }
}

static void group_run_of_nobody_runs_nothing(void **state)
{
    (void)state;
    struct crew *c = crew_new(1, true);
    assert_true(spoor_thread_group_run(0, crew_worker, c));
    assert_true(spoor_thread_group_run(-3, crew_worker, c));
    assert_int_equal(c->calls, 0);
    crew_free(c);
}

/* start returns while its workers still wait for the caller, none of them on
 * the caller's thread; join waits for them all. */
static void group_start_returns_before_its_workers_end(void **state)
{
    (void)state;
    const int sizes[] = {1, 2, MANY};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int n = sizes[i];
        struct crew *c = crew_new(n, false);
        struct spoor_thread_group *g = spoor_thread_group_start(n, crew_worker, c);
        assert_non_null(g);
        pthread_mutex_lock(&c->mu);
        c->release = true;
        pthread_cond_broadcast(&c->released);
        pthread_mutex_unlock(&c->mu);
        spoor_thread_group_join(g);
        assert_int_equal(c->calls, n);
        for (int w = 0; w < MANY; w++)
            assert_int_equal(c->runs[w], w < n ? 1 : 0);
        assert_int_equal(c->on_caller, 0);
        crew_free(c);
    }
    struct crew *c = crew_new(1, true);
    struct spoor_thread_group *g = spoor_thread_group_start(0, crew_worker, c);
    assert_non_null(g);
    spoor_thread_group_join(g);
    assert_int_equal(c->calls, 0);
    crew_free(c);
}

static void never_called(void *ctx, int worker)
{
    (void)worker;
    atomic_fetch_add((atomic_int *)ctx, 1);
}

/* In a fresh process (no thread stacks cached for reuse) whose address space
 * leaves room for one more thread stack and a half: the first thread of a
 * group starts, the second cannot. Stacks are made large (STACK) so that the
 * half left over holds what a sanitizer maps for itself. Returns the problems
 * found as its exit status (0: none). */
static int starved_child(void)
{
    const size_t stack = STACK;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (pthread_attr_setstacksize(&attr, stack) != 0 || pthread_setattr_default_np(&attr) != 0)
        return 9;
    pthread_attr_destroy(&attr);
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld", &pages) != 1)
        return 10;
    fclose(f);
    rlim_t limit = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + stack + stack / 2;
    if (setrlimit(RLIMIT_AS, &(struct rlimit){limit, limit}) != 0)
        return 11;
    atomic_int calls = 0;
    if (spoor_thread_group_start(4, never_called, &calls) != NULL)
        return 12;
    if (spoor_thread_group_run(4, never_called, &calls))
        return 13;
    if (calls != 0)
        return 14;
    struct tally *t = calloc(1, sizeof *t);
    t->workers = 4;
    t->caller = pthread_self();
    spoor_parallel_for(100, 4, count_task, t);
    for (size_t i = 0; i < 100; i++)
        if (t->runs[i] != 1)
            return 15;
    return t->overlaps || t->bad_worker || t->caller_is_not_0 ? 16 : 0;
}

static void without_threads_a_group_fails_and_the_for_still_runs(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/proc/self/exe", "test_parallel", STARVED, (char *)NULL);
        _exit(20);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], STARVED) == 0)
        return starved_child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parallel_for_runs_every_task_once),
        cmocka_unit_test(parallel_for_runs_two_halves_at_once),
        cmocka_unit_test(group_run_runs_every_worker_at_once),
        cmocka_unit_test(group_run_of_nobody_runs_nothing),
        cmocka_unit_test(group_start_returns_before_its_workers_end),
        cmocka_unit_test(without_threads_a_group_fails_and_the_for_still_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
