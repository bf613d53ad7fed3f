/* spoor_attribute: calls and events split by the join key; for SELF, first
 * each thread's self-time timeline (the stack sweep over its events); then
 * per key group the events' union (coverage) and the sweep-line join. Groups
 * run on threads; hits are put back in call order, so the answer does not
 * depend on them. */
#include "ops/interval_internal.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

struct job {
    const struct spoor_table *t;
    enum spoor_attr_mode mode;
    struct iv_groups calls, events;     /* by the join key */
    struct iv_items *pieces;            /* SELF: per join group, the timelines of its threads */
    struct iv_hits *hits;               /* per worker */
    struct spoor_attribution *out;
    /* SELF: events by thread, their timelines and the sweep's scratch */
    struct iv_groups threads;
    struct iv_items *segs;
    struct iv_nest_out nest;
};

static void timeline(void *ctx, size_t g, int worker)
{
    struct job *j = ctx;
    struct iv_nest_out out = j->nest;
    out.segs = &j->segs[g];
    iv_nest_group(&j->threads, g, &out);
}

/* The self-time timelines of the events' threads, gathered per join group. */
static void self_pieces(struct job *j, const uint32_t *events, size_t nevents, struct iv_keys *join_keys,
                        int threads)
{
    const struct spoor_table *t = j->t;
    struct iv_keys *keys = iv_keys_new(SPOOR_IV_THREAD);
    uint32_t *ids = iv_keys_assign(keys, t, events, nevents);
    iv_groups_build(&j->threads, t, events, nevents, ids, iv_keys_count(keys));
    free(ids);
    iv_keys_free(keys);
    iv_nest_out_alloc(&j->nest, t->nrows);
    j->segs = spoor_xcalloc(j->threads.n ? j->threads.n : 1, sizeof *j->segs);
    spoor_parallel_for(j->threads.n, threads, timeline, j);
    j->pieces = spoor_xcalloc(j->events.n ? j->events.n : 1, sizeof *j->pieces);
    for (size_t g = 0; g < j->threads.n; g++) {
        struct iv_items *to = &j->pieces[iv_keys_of_row(join_keys, t, j->threads.items[j->threads.first[g]].row)];
        for (size_t i = 0; i < j->segs[g].n; i++)
            iv_items_push(to, j->segs[g].v[i]);
        free(j->segs[g].v);
    }
    free(j->segs);
    iv_nest_out_free(&j->nest);
    iv_groups_free(&j->threads);
}

/* The first of the windows [lo, hi) (disjoint, in order) that ends after
 * start, else hi. Events come nearly in time order, so the search starts at
 * `near` (the last answer) and gallops out from it: a few steps where a
 * binary search over every window took ~13 unpredictable ones a row. */
static size_t first_ending_after(const struct spoor_span *windows, size_t lo, size_t hi, int64_t start, size_t near)
{
    if (near >= lo && near < hi) {
        if (windows[near].end > start) { /* the answer is near or before it */
            size_t step = 1;
            hi = near;
            while (hi - lo > step && windows[hi - step - 1].end > start) {
                hi -= step;
                step *= 2;
            }
            if (hi - lo > step)
                lo = hi - step;
        } else { /* after it */
            size_t step = 1;
            lo = near + 1;
            while (hi - lo > step && windows[lo + step - 1].end <= start) {
                lo += step;
                step *= 2;
            }
            if (hi - lo > step)
                hi = lo + step;
        }
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (windows[mid].end > start)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The events that can meet a call: those sharing time with, or touching, a
 * call of their join group. Nothing else can count for any call, in any
 * mode: an event's self time inside a call is decided by the events active
 * then, all of which touch the call. So the nesting, unions and joins below
 * run over the events near the calls, not the whole trace. Rewrites
 * events[0..n) and ids in place; returns how many remain. */
static size_t near_calls(const struct iv_groups *calls, uint32_t *events, uint32_t *ids, size_t n,
                         const struct spoor_table *t)
{
    size_t total = calls->first[calls->n];
    struct spoor_span *windows = spoor_xmalloc((total ? total : 1) * sizeof *windows);
    size_t *first = spoor_xmalloc((calls->n + 1) * sizeof *first);
    size_t nwindows = 0;
    for (size_t g = 0; g < calls->n; g++) { /* per group: the union of [start, end + 1) */
        first[g] = nwindows;
        for (size_t i = calls->first[g]; i < calls->first[g + 1]; i++) {
            const struct iv_item *c = &calls->items[i];
            windows[nwindows++] = (struct spoor_span){c->start, c->end == INT64_MAX ? c->end : c->end + 1};
        }
        nwindows = first[g] + spoor_spans_union(windows + first[g], nwindows - first[g]);
    }
    first[calls->n] = nwindows;
    size_t kept = 0, at = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t g = ids[i];
        if (g == UINT32_MAX || g >= calls->n)
            continue;
        int64_t start = t->ts[events[i]], end = start + t->dur[events[i]];
        size_t lo = first_ending_after(windows, first[g], first[g + 1], start, at);
        at = lo;
        if (lo < first[g + 1] && windows[lo].start <= end) {
            events[kept] = events[i];
            ids[kept++] = g;
        }
    }
    free(windows);
    free(first);
    return kept;
}

static void join_group(void *ctx, size_t g, int worker)
{
    struct job *j = ctx;
    struct iv_item *calls = j->calls.items + j->calls.first[g];
    size_t ncalls = j->calls.first[g + 1] - j->calls.first[g];
    if (!ncalls)
        return;
    struct iv_item *events = j->events.items + j->events.first[g];
    size_t nevents = j->events.first[g + 1] - j->events.first[g];
    iv_order(calls, ncalls);
    iv_order(events, nevents);

    struct spoor_span *spans = spoor_xmalloc((nevents ? nevents : 1) * sizeof *spans);
    for (size_t i = 0; i < nevents; i++)
        spans[i] = (struct spoor_span){events[i].start, events[i].end};
    size_t nspans = spoor_spans_union(spans, nevents);
    for (size_t i = 0; i < ncalls; i++) {
        int64_t covered = spoor_spans_covered(spans, nspans, calls[i].start, calls[i].end);
        j->out->covered[calls[i].tag] = covered;
        j->out->unattributed[calls[i].tag] = calls[i].end - calls[i].start - covered;
    }
    free(spans);

    if (j->mode == SPOOR_ATTR_SELF) {
        iv_order(j->pieces[g].v, j->pieces[g].n);
        iv_join(j->t, j->mode, calls, ncalls, j->pieces[g].v, j->pieces[g].n, &j->hits[worker]);
    } else {
        iv_join(j->t, j->mode, calls, ncalls, events, nevents, &j->hits[worker]);
    }
}

/* Hits of every worker into call order; a call's hits are contiguous in one
 * worker's list and keep their order. */
static void gather(struct spoor_attribution *a, const struct iv_hits *hits, int workers)
{
    a->first = spoor_xcalloc(a->ncalls + 1, sizeof *a->first);
    size_t total = 0;
    for (int w = 0; w < workers; w++) {
        total += hits[w].n;
        for (size_t i = 0; i < hits[w].n; i++)
            a->first[hits[w].v[i].tag + 1]++;
    }
    for (size_t i = 0; i < a->ncalls; i++)
        a->first[i + 1] += a->first[i];
    size_t *fill = spoor_xmalloc((a->ncalls + 1) * sizeof *fill);
    memcpy(fill, a->first, (a->ncalls + 1) * sizeof *fill);
    a->fns = spoor_xmalloc((total ? total : 1) * sizeof *a->fns);
    for (int w = 0; w < workers; w++)
        for (size_t i = 0; i < hits[w].n; i++) {
            const struct iv_hit *h = &hits[w].v[i];
            a->fns[fill[h->tag]++] = (struct spoor_attr_fn){h->name, h->cat, h->ns};
        }
    free(fill);
}

int spoor_attribute(const struct spoor_table *t, const uint32_t *calls, size_t ncalls, const uint32_t *events,
                    size_t nevents, const struct spoor_attr_opts *opts, struct spoor_attribution *out,
                    struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    if (!calls)
        ncalls = t->nrows;
    if (!events)
        nevents = t->nrows;
    int rc = iv_check_rows(t, calls, ncalls, err);
    if (!rc)
        rc = iv_check_rows(t, events, nevents, err);
    if (rc)
        return rc;
    int threads = opts->threads < 1 ? 1 : opts->threads;
    struct job j = {.t = t, .mode = opts->mode, .out = out};
    out->ncalls = ncalls;
    out->covered = spoor_xmalloc((ncalls ? ncalls : 1) * sizeof *out->covered);
    out->unattributed = spoor_xmalloc((ncalls ? ncalls : 1) * sizeof *out->unattributed);
    for (size_t i = 0; i < ncalls; i++)
        out->covered[i] = out->unattributed[i] = SPOOR_NULL;

    struct iv_keys *keys = iv_keys_new(opts->key);
    uint32_t *call_ids = iv_keys_assign(keys, t, calls, ncalls);
    iv_groups_build(&j.calls, t, calls, ncalls, call_ids, iv_keys_count(keys));
    free(call_ids);
    uint32_t *near = spoor_xmalloc((nevents ? nevents : 1) * sizeof *near);
    for (size_t i = 0; i < nevents; i++)
        near[i] = events ? events[i] : (uint32_t)i;
    uint32_t *event_ids = iv_keys_assign(keys, t, near, nevents);
    size_t nnear = near_calls(&j.calls, near, event_ids, nevents, t);
    iv_groups_build(&j.events, t, near, nnear, event_ids, j.calls.n);
    free(event_ids);
    if (opts->mode == SPOOR_ATTR_SELF)
        self_pieces(&j, near, nnear, keys, threads);
    free(near);
    iv_keys_free(keys);

    j.hits = spoor_xcalloc((size_t)threads, sizeof *j.hits);
    spoor_parallel_for(j.calls.n, threads, join_group, &j);
    gather(out, j.hits, threads);
    for (int w = 0; w < threads; w++)
        free(j.hits[w].v);
    free(j.hits);
    if (j.pieces)
        for (size_t g = 0; g < j.events.n; g++)
            free(j.pieces[g].v);
    free(j.pieces);
    iv_groups_free(&j.calls);
    iv_groups_free(&j.events);
    return 0;
}

void spoor_attribution_free(struct spoor_attribution *a)
{
    free(a->first);
    free(a->fns);
    free(a->covered);
    free(a->unattributed);
    memset(a, 0, sizeof *a);
}
