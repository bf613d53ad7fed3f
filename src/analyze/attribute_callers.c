/* The caller rule of attribution: an event on the same thread (pid and tid)
 * that encloses a call in time (starts no later, ends no earlier) is the
 * call's caller, a user-space function around the system call (DataCrumbs'
 * libc uprobes, cat "c": read, write, malloc, ...), never a kernel function
 * inside it. Such an event leaves the events for every call: when the calls
 * of a thread do not nest (system calls never do), an event enclosing one
 * lies inside no other, so that is leaving it out for the calls it encloses
 * (nested calls lose it for the outer call too; attribution.md says so). The
 * rule holds whatever chose the events. */
#include "spoor/attribute.h"
#include "analyze/attribute_rules.h"

#include <stdlib.h>

struct call_span {
    int64_t pid, tid, start, end;
};

static int by_thread_start(const void *a, const void *b)
{
    const struct call_span *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

static bool span_of(const struct spoor_table *t, uint32_t r, int64_t *start, int64_t *end)
{
    int64_t ts = t->ts[r], dur = t->dur[r];
    if (ts == SPOOR_NULL || dur == SPOOR_NULL || dur < 0 || ts > INT64_MAX - dur)
        return false;
    *start = ts;
    *end = ts + dur;
    return true;
}

/* The first call of v[0..n) not before (pid, tid, start). */
static size_t lower_bound(const struct call_span *v, size_t n, const struct call_span *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_thread_start(&v[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether a call of the event's thread lies within [start, end]: the calls
 * starting in it, in start order, until one ends in it too. Calls that start
 * inside and end after the event all hold its end, so on a thread of nested
 * calls they are few. */
static bool encloses_a_call(const struct call_span *v, size_t n, const struct call_span *e)
{
    for (size_t i = lower_bound(v, n, e); i < n; i++) {
        if (v[i].pid != e->pid || v[i].tid != e->tid || v[i].start > e->end)
            return false;
        if (v[i].end <= e->end)
            return true;
    }
    return false;
}

size_t spoor_attr_drop_callers(const struct spoor_table *t, const uint32_t *calls, size_t ncalls, uint32_t *events,
                               size_t nevents)
{
    struct call_span *v = spoor_xmalloc((ncalls ? ncalls : 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < ncalls; i++) {
        uint32_t r = calls[i];
        if (span_of(t, r, &v[n].start, &v[n].end)) {
            v[n].pid = t->pid[r];
            v[n].tid = t->tid[r];
            n++;
        }
    }
    qsort(v, n, sizeof *v, by_thread_start);
    size_t kept = 0;
    for (size_t i = 0; i < nevents; i++) {
        uint32_t r = events[i];
        struct call_span e = {t->pid[r], t->tid[r], 0, 0};
        if (!span_of(t, r, &e.start, &e.end) || !encloses_a_call(v, n, &e))
            events[kept++] = r;
    }
    free(v);
    return kept;
}
