/* Stage 3 of the series recipe (see series_internal.h): at the end, the
 * totals reduce merged (series.c) and every worker's counts into the result,
 * with metrics in input order and groups sorted (digit runs compared as
 * numbers: node2 before node10), and the resample entries of every batch
 * merged into one bucket per (group, time bucket). */
#include "analyze/series_internal.h"
#include "spoor/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Natural order: runs of digits compare by value, the rest bytewise. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            size_t la = 0, lb = 0;
            while (isdigit((unsigned char)a[la]))
                la++;
            while (isdigit((unsigned char)b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = memcmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* qsort has no context argument: the orders are computed before sorting. */
struct order {
    uint32_t id;
    uint32_t rank;
    const char *name;
};

static int by_rank(const void *a, const void *b)
{
    const struct order *x = a, *y = b;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int by_name(const void *a, const void *b)
{
    const struct order *x = a, *y = b;
    int c = natural_cmp(x->name, y->name);
    return c ? c : strcmp(x->name, y->name);
}

/* The totals and the workers' counts, in global ids with a stride of m metrics. */
struct totals {
    size_t m, g;
    struct spoor_moments *moments;
    uint64_t *group_rows, *non_numeric;
    struct spoor_bucket_sum *hour_weekday;
    struct spoor_comoments *comoments;
};

static void merge_workers(const struct spoor_series_run *run, struct totals *t, struct spoor_series *out)
{
    size_t m = t->m = run->nmetrics, g = t->g = spoor_strpool_count(run->groups);
    t->moments = spoor_xmalloc((g ? g : 1) * (m ? m : 1) * sizeof *t->moments);
    for (size_t i = 0; i < g * m; i++)
        series_moments_init(&t->moments[i]);
    t->group_rows = spoor_xcalloc(g ? g : 1, sizeof *t->group_rows);
    t->non_numeric = spoor_xcalloc(m ? m : 1, sizeof *t->non_numeric);
    t->hour_weekday = spoor_xcalloc(SERIES_SLOTS * (m ? m : 1), sizeof *t->hour_weekday);
    t->comoments = spoor_xcalloc((m ? m : 1) * (m ? m : 1), sizeof *t->comoments);
    const struct series_totals *all = &run->totals;
    size_t am = all->mcap < m ? all->mcap : m;
    for (size_t gi = 0; gi < all->gcap && gi < g; gi++)
        for (size_t mi = 0; mi < am; mi++)
            t->moments[gi * m + mi] = all->moments[gi * all->mcap + mi];
    for (size_t s = 0; s < SERIES_SLOTS; s++)
        for (size_t mi = 0; mi < am; mi++)
            t->hour_weekday[s * m + mi] = all->hour_weekday[s * all->mcap + mi];
    if (run->opts.corr)
        for (size_t i = 0; i < am; i++)
            for (size_t j = i + 1; j < am; j++)
                t->comoments[i * m + j] = all->comoments[i * all->mcap + j];
    for (int k = 0; k < run->nworkers; k++) { /* counts: the same in any order */
        const struct series_worker *w = &run->workers[k];
        out->rows += w->rows;
        out->rows_without_time += w->rows_without_time;
        for (size_t gi = 0; gi < w->gcap && gi < g; gi++)
            t->group_rows[gi] += w->group_rows[gi];
        for (size_t mi = 0; mi < w->mcap && mi < m; mi++)
            t->non_numeric[mi] += w->non_numeric[mi];
        for (size_t s = 0; s < SERIES_SLOTS; s++)
            out->hour_weekday_rows[s] += w->hour_weekday_rows[s];
    }
}

static void totals_free(struct totals *t)
{
    free(t->moments);
    free(t->group_rows);
    free(t->non_numeric);
    free(t->hour_weekday);
    free(t->comoments);
}

/* The metrics to report, in order: listed ones all; otherwise those that held a number. */
static size_t pick_metrics(const struct spoor_series_run *run, const struct totals *t, struct order *o)
{
    size_t n = 0;
    for (uint32_t id = 0; id < t->m; id++) {
        uint64_t numbers = 0;
        for (size_t g = 0; g < t->g; g++)
            numbers += t->moments[g * t->m + id].n;
        if (!run->opts.listed && numbers == 0)
            continue;
        o[n++] = (struct order){id, run->rank[id], spoor_strpool_get(run->metric_names, id + 1, NULL)};
    }
    qsort(o, n, sizeof *o, by_rank);
    return n;
}

static size_t pick_groups(const struct spoor_series_run *run, const struct totals *t, struct order *o)
{
    size_t n = 0;
    for (uint32_t g = 0; g < t->g; g++)
        if (t->group_rows[g])
            o[n++] = (struct order){g, 0, spoor_strpool_get(run->groups, g, NULL)};
    qsort(o, n, sizeof *o, by_name);
    return n;
}

/* The sizes of the bucket arrays (megabytes, written once). */
static size_t buckets_bytes(const struct spoor_series *s)
{
    return (s->nbuckets ? s->nbuckets : 1) * sizeof *s->buckets;
}

static size_t bucket_sums_bytes(const struct spoor_series *s)
{
    return (s->nbuckets ? s->nbuckets : 1) * (s->nmetrics ? s->nmetrics : 1) * sizeof *s->bucket_sums;
}

/* The totals' resample entries, each (group, bucket) once a batch, with their
 * output group index. */
struct all_entries {
    size_t n;
    uint32_t *group;        /* output group index */
    const int64_t *bucket;
};

static void all_entries(const struct spoor_series_run *run, const uint32_t *group_index, struct all_entries *a)
{
    const struct series_buckets *b = &run->totals.buckets;
    a->n = b->n;
    a->group = spoor_xmalloc((a->n ? a->n : 1) * sizeof *a->group);
    for (size_t e = 0; e < b->n; e++)
        a->group[e] = group_index[b->group[e]];
    a->bucket = b->bucket;
}

static bool same_key(const struct all_entries *a, size_t g, size_t h)
{
    return a->group[g] == a->group[h] && a->bucket[g] == a->bucket[h];
}

/* An entry's part in its (group, bucket): the first of several, the only
 * one, or a later one (its batch comes after the first's). */
enum role { FIRST, ONLY, LATER };

/* Entry e's sum of metric id; none when the totals had no room for it yet. */
static struct spoor_bucket_sum entry_sum(const struct series_buckets *b, size_t e, uint32_t id)
{
    return id < b->stride ? b->sums[e * b->stride + id] : (struct spoor_bucket_sum){0, 0};
}

/* The hour x weekday sums as the resample buckets give them, when each bucket
 * lies within one local hour (profile_from_buckets): the rows then skip the
 * profile. Buckets are added in the order of their first entries, which is
 * input order, so the sums are the same on every run. A bucket of one entry
 * is read from the totals' entries, in order, not from the sorted buckets,
 * all over memory. */
static void profile_from_buckets(const struct spoor_series_run *run, struct totals *t, const struct order *mo,
                                 const size_t *bucket_of, const unsigned char *role, struct spoor_series *out)
{
    size_t m = out->nmetrics;
    int64_t last_bucket = 0;
    unsigned slot = series_hour_weekday_slot(0);
    const struct series_buckets *b = &run->totals.buckets;
    for (size_t e = 0; e < b->n; e++) {
        if (role[e] == LATER)
            continue;
        if (b->bucket[e] != last_bucket) /* the groups of a time bucket mostly follow each other */
            slot = series_hour_weekday_slot((last_bucket = b->bucket[e]) * run->opts.resample_ns);
        const struct spoor_series_bucket *ob = &out->buckets[bucket_of[e]];
        out->hour_weekday_rows[slot] += role[e] == ONLY ? b->rows[e] : ob->rows;
        for (size_t k = 0; k < m; k++) {
            struct spoor_bucket_sum sum;
            if (role[e] == ONLY) { /* as the bucket holds it: added to an empty one */
                struct spoor_bucket_sum own = entry_sum(b, e, mo[k].id);
                sum = (struct spoor_bucket_sum){0 + own.n, 0.0 + own.sum};
            } else {
                sum = ob->sums[k];
            }
            series_bucket_add(&t->hour_weekday[slot * t->m + mo[k].id], sum.n, sum.sum);
        }
    }
}

/* The totals' entries merged into buckets, sorted by group, then start, their
 * sums in one block. One radix sort of the entries finds each entry's bucket;
 * then the entries are read straight through, in input order, and added into
 * their buckets (merging through a hash map cost a random access per entry
 * and a map as large as the result; reading the entries in sorted order, a
 * cache miss each). */
/* Entries ahead whose buckets are fetched: far enough to hide a miss. */
enum { AHEAD = 16 };

static void fill_buckets(const struct spoor_series_run *run, struct totals *t, const struct order *mo,
                         const uint32_t *group_index, struct spoor_series *out)
{
    struct all_entries a;
    all_entries(run, group_index, &a);
    uint32_t *order = series_buckets_order(a.group, a.bucket, a.n, out->ngroups);
    for (size_t r = 0; r < a.n; r++)
        out->nbuckets += r == 0 || !same_key(&a, order[r - 1], order[r]);
    out->buckets = spoor_xmalloc(buckets_bytes(out));
    out->bucket_sums = spoor_xmalloc(bucket_sums_bytes(out));
    size_t m = out->nmetrics, i = SIZE_MAX;
    size_t *bucket_of = spoor_xmalloc((a.n ? a.n : 1) * sizeof *bucket_of);
    unsigned char *role = spoor_xmalloc(a.n ? a.n : 1);
    for (size_t r = 0; r < a.n; r++) {
        size_t g = order[r];
        bool first = r == 0 || !same_key(&a, order[r - 1], g);
        if (first) {
            i++;
            out->buckets[i] = (struct spoor_series_bucket){
                .group = a.group[g],
                .start_ns = a.bucket[g] * run->opts.resample_ns - run->opts.utc_offset_ns,
                .sums = out->bucket_sums + i * m,
            };
        }
        bucket_of[g] = i;
        role[g] = !first ? LATER : r + 1 == a.n || !same_key(&a, g, order[r + 1]) ? ONLY : FIRST;
    }
    const struct series_buckets *b = &run->totals.buckets;
    for (size_t e = 0; e < b->n; e++) {
        if (e + AHEAD < a.n) { /* one bucket per group is being written: too many streams to detect */
            size_t ahead = bucket_of[e + AHEAD];
            __builtin_prefetch(&out->buckets[ahead], 1);
            __builtin_prefetch(out->bucket_sums + ahead * m, 1);
            __builtin_prefetch(out->bucket_sums + ahead * m + m - 1, 1);
        }
        struct spoor_series_bucket *ob = &out->buckets[bucket_of[e]];
        if (role[e] != LATER) { /* its bucket's first entry: the entries are read in order */
            ob->rows = 0;
            for (size_t k = 0; k < m; k++)
                ob->sums[k] = (struct spoor_bucket_sum){0, 0};
        }
        ob->rows += b->rows[e];
        for (size_t k = 0; k < m; k++) {
            struct spoor_bucket_sum own = entry_sum(b, e, mo[k].id);
            series_bucket_add(&ob->sums[k], own.n, own.sum);
        }
    }
    if (run->opts.profile_from_buckets)
        profile_from_buckets(run, t, mo, bucket_of, role, out);
    free(role);
    free(bucket_of);
    free(order);
    free(a.group);
}

void series_result(const struct spoor_series_run *run, struct spoor_series *out)
{
    memset(out, 0, sizeof *out);
    struct totals t;
    merge_workers(run, &t, out);
    out->strings = spoor_strpool_new();

    struct order *mo = spoor_xmalloc((t.m ? t.m : 1) * sizeof *mo);
    size_t m = out->nmetrics = pick_metrics(run, &t, mo);
    struct order *go = spoor_xmalloc((t.g ? t.g : 1) * sizeof *go);
    size_t g = out->ngroups = pick_groups(run, &t, go);
    uint32_t *group_index = spoor_xcalloc(t.g ? t.g : 1, sizeof *group_index);

    out->metrics = spoor_xcalloc(m ? m : 1, sizeof *out->metrics);
    out->groups = spoor_xcalloc(g ? g : 1, sizeof *out->groups);
    out->group_moments = spoor_xmalloc((g ? g : 1) * (m ? m : 1) * sizeof *out->group_moments);
    for (size_t gi = 0; gi < g; gi++) {
        group_index[go[gi].id] = (uint32_t)gi;
        uint32_t id = spoor_strpool_intern(out->strings, go[gi].name, strlen(go[gi].name));
        out->groups[gi] = spoor_strpool_get(out->strings, id, NULL);
    }
    for (size_t k = 0; k < m; k++) {
        struct spoor_series_metric *om = &out->metrics[k];
        uint32_t id = spoor_strpool_intern(out->strings, mo[k].name, strlen(mo[k].name));
        om->name = spoor_strpool_get(out->strings, id, NULL);
        om->non_numeric = t.non_numeric[mo[k].id];
        series_moments_init(&om->all);
        for (size_t gi = 0; gi < g; gi++) {
            out->group_moments[gi * m + k] = t.moments[go[gi].id * t.m + mo[k].id];
            series_moments_merge(&om->all, &out->group_moments[gi * m + k]);
        }
        om->missing = out->rows - om->all.n - om->non_numeric;
    }
    fill_buckets(run, &t, mo, group_index, out); /* before the hour x weekday sums: it may add to them */
    out->hour_weekday = spoor_xcalloc(SERIES_SLOTS * (m ? m : 1), sizeof *out->hour_weekday);
    for (size_t s = 0; s < SERIES_SLOTS; s++)
        for (size_t k = 0; k < m; k++)
            out->hour_weekday[s * m + k] = t.hour_weekday[s * t.m + mo[k].id];
    out->comoments = spoor_xcalloc((m ? m : 1) * (m ? m : 1), sizeof *out->comoments);
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j < m; j++) {
            uint32_t a = mo[i].id, b = mo[j].id;
            struct spoor_comoments c = t.comoments[(a < b ? a : b) * t.m + (a < b ? b : a)];
            out->comoments[i * m + j] = a > b ? series_comoments_swapped(c) : c; /* stored as (b, a) */
        }

    free(group_index);
    free(go);
    free(mo);
    totals_free(&t);
}

void spoor_series_free(struct spoor_series *s)
{
    free(s->buckets);
    free(s->bucket_sums);
    free(s->metrics);
    free(s->groups);
    free(s->group_moments);
    free(s->hour_weekday);
    free(s->comoments);
    if (s->strings)
        spoor_strpool_free(s->strings);
    memset(s, 0, sizeof *s);
}
