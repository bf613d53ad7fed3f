/* The stats recipe: counts and duration statistics per cat and per (cat, name),
 * time span, and the files, hosts, processes and threads seen.
 *
 * Each worker keeps its accumulators keyed by strings (batches come with their
 * own string pools); a batch is first reduced to its distinct keys through
 * small id-indexed caches, so the per-row cost is a few array lookups.
 *
 * Files and hosts are counted in input order (reduce), by name
 * (stats_names.c): a hash means what its own input defined at the row's
 * line, so two hashes of one path count once and one hash redefined with
 * another path counts twice. */
#include "spoor/stats.h"
#include "spoor/error.h"
#include "spoor/table.h"
#include "stats_names.h"
#include "analyze/stats_period.h"

#include <stdlib.h>
#include <string.h>

const char *const spoor_stats_arg_keys[] = {"fhash", "hhash", "fname", "hostname"};
const size_t spoor_stats_n_arg_keys = sizeof spoor_stats_arg_keys / sizeof *spoor_stats_arg_keys;

/* Durations per key: key ids of `keys` index `dur`. */
struct groups {
    struct spoor_strpool *keys;
    struct spoor_dur_stats *dur;
    size_t cap;
};

struct worker {
    struct groups by_name;        /* key: cat "\0" name */
    struct spoor_strpool *procs;  /* pid, binary */
    struct spoor_strpool *threads;/* pid, tid, binary */
    uint64_t events, metadata;
    int64_t first_ts, last_end;
    uint32_t *group_of;           /* per batch: batch key slot -> group id */
    uint64_t *pair_keys;          /* per batch: open-addressing keys (cat << 32 | name) + 1 */
    size_t pair_slots, pairs_used;
};

struct spoor_stats_run {
    struct worker *workers;
    int nworkers;
    bool groups;                  /* per cat and (cat, name): not for the period figures alone */
    struct spoor_resolver *resolver; /* reduce: the stats sink's own */
    struct stats_names *files, *hosts;
};

static void groups_init(struct groups *g)
{
    *g = (struct groups){.keys = spoor_strpool_new()};
}

static struct spoor_dur_stats *groups_get(struct groups *g, const char *key, size_t len)
{
    uint32_t id = spoor_strpool_intern(g->keys, key, len);
    if (id >= g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 256;
        while (cap <= id)
            cap *= 2;
        g->dur = spoor_xrealloc(g->dur, cap * sizeof *g->dur);
        for (size_t i = g->cap; i < cap; i++)
            g->dur[i] = (struct spoor_dur_stats){0, 0, 0, INT64_MAX, INT64_MIN};
        g->cap = cap;
    }
    return &g->dur[id];
}

static void dur_add(struct spoor_dur_stats *d, int64_t dur)
{
    d->count++;
    if (dur == SPOOR_NULL)
        return;
    d->timed++;
    d->sum += dur;
    if (dur < d->min)
        d->min = dur;
    if (dur > d->max)
        d->max = dur;
}

static void dur_merge(struct spoor_dur_stats *a, const struct spoor_dur_stats *b)
{
    a->count += b->count;
    a->timed += b->timed;
    a->sum += b->sum;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

static struct spoor_stats_run *begin(int threads, bool groups)
{
    struct spoor_stats_run *run = spoor_xcalloc(1, sizeof *run);
    run->nworkers = threads;
    run->groups = groups;
    run->workers = spoor_xcalloc((size_t)threads, sizeof *run->workers);
    run->files = stats_names_new(SPOOR_FIELD_FILE);
    run->hosts = stats_names_new(SPOOR_FIELD_HOST);
    for (int i = 0; i < threads; i++) {
        struct worker *w = &run->workers[i];
        groups_init(&w->by_name);
        w->procs = spoor_strpool_new();
        w->threads = spoor_strpool_new();
        w->first_ts = INT64_MAX;
        w->last_end = INT64_MIN;
    }
    return run;
}

struct spoor_stats_run *spoor_stats_begin(int threads) { return begin(threads, true); }

struct spoor_stats_run *spoor_stats_begin_period(int threads) { return begin(threads, false); }

/* The worker's group for (cat, name) ids of a batch, through a per-batch cache. */
static struct spoor_dur_stats *group_for(struct worker *w, const struct spoor_table *b, uint32_t cat,
                                         uint32_t name)
{
    /* A cache: when half full, start afresh rather than grow. */
    if (w->pairs_used * 2 >= w->pair_slots) {
        memset(w->pair_keys, 0, w->pair_slots * sizeof *w->pair_keys);
        w->pairs_used = 0;
    }
    uint64_t key = ((uint64_t)cat << 32 | name) + 1;
    size_t mask = w->pair_slots - 1;
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 40) & mask;
    while (w->pair_keys[i] && w->pair_keys[i] != key)
        i = (i + 1) & mask;
    if (!w->pair_keys[i]) {
        size_t clen, nlen;
        const char *c = spoor_strpool_get(b->pool, cat, &clen);
        const char *n = spoor_strpool_get(b->pool, name, &nlen);
        char stack[512];
        char *buf = clen + nlen + 1 <= sizeof stack ? stack : spoor_xmalloc(clen + nlen + 1);
        memcpy(buf, c, clen);
        buf[clen] = '\0';
        memcpy(buf + clen + 1, n, nlen);
        groups_get(&w->by_name, buf, clen + nlen + 1);
        w->pair_keys[i] = key;
        w->pairs_used++;
        w->group_of[i] = spoor_strpool_find(w->by_name.keys, buf, clen + nlen + 1);
        if (buf != stack)
            free(buf);
    }
    return &w->by_name.dur[w->group_of[i]];
}

static void prepare_batch_cache(struct worker *w)
{
    if (!w->pair_slots) {
        w->pair_slots = 4096;
        w->pair_keys = spoor_xmalloc(w->pair_slots * sizeof *w->pair_keys);
        w->group_of = spoor_xmalloc(w->pair_slots * sizeof *w->group_of);
    }
    memset(w->pair_keys, 0, w->pair_slots * sizeof *w->pair_keys);
    w->pairs_used = 0;
}

static int stats_map(void *ctx, int worker, const struct spoor_table *b)
{
    struct spoor_stats_run *run = ctx;
    struct worker *w = &run->workers[worker];
    if (run->groups)
        prepare_batch_cache(w);
    int64_t last_pid = SPOOR_NULL, last_tid = SPOOR_NULL;
    for (size_t r = 0; r < b->nrows; r++) {
        if (b->ph[r] == 'M') {
            w->metadata++;
            continue;
        }
        w->events++;
        if (run->groups)
            dur_add(group_for(w, b, b->cat[r], b->name[r]), b->dur[r]);
        int64_t ts = b->ts[r];
        if (ts != SPOOR_NULL) {
            int64_t end = b->dur[r] != SPOOR_NULL && b->dur[r] > 0 ? ts + b->dur[r] : ts;
            if (ts < w->first_ts)
                w->first_ts = ts;
            if (end > w->last_end)
                w->last_end = end;
        }
        if (b->pid[r] != last_pid || b->tid[r] != last_tid) {
            last_pid = b->pid[r];
            last_tid = b->tid[r];
            int64_t key[2] = {last_pid, last_tid};
            spoor_strpool_intern(w->procs, (const char *)key, sizeof key[0]);
            spoor_strpool_intern(w->threads, (const char *)key, sizeof key);
        }
    }
    return SPOOR_OK;
}

void spoor_stats_add_names(struct spoor_stats_run *run, const struct spoor_table *b, struct spoor_resolver *r)
{
    uint64_t lo, hi;
    stats_names_lines(b, &lo, &hi);
    stats_names_add(run->files, b, lo, hi, r);
    stats_names_add(run->hosts, b, lo, hi, r);
}

static int stats_reduce(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    struct spoor_stats_run *run = ctx;
    if (!run->resolver)
        run->resolver = spoor_resolver_new();
    spoor_resolver_learn(run->resolver, b);
    spoor_stats_add_names(run, b, run->resolver);
    return SPOOR_OK;
}

struct spoor_sink spoor_stats_sink(struct spoor_stats_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = stats_map, .reduce = stats_reduce};
}

struct spoor_sink spoor_stats_map_sink(struct spoor_stats_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = stats_map};
}

static void merge_set(struct spoor_strpool *dst, const struct spoor_strpool *src)
{
    for (size_t id = 1; id < spoor_strpool_count(src); id++) {
        size_t len;
        const char *s = spoor_strpool_get(src, (uint32_t)id, &len);
        spoor_strpool_intern(dst, s, len);
    }
}

static int compare_groups(const void *a, const void *b)
{
    const struct spoor_stats_group *x = a, *y = b;
    int c = strcmp(x->cat, y->cat);
    if (c || !x->name)
        return c;
    return strcmp(x->name, y->name);
}

void spoor_stats_end(struct spoor_stats_run *run, struct spoor_stats *out)
{
    memset(out, 0, sizeof *out);
    struct worker *all = &run->workers[0];
    for (int i = 1; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        for (size_t id = 1; id < spoor_strpool_count(w->by_name.keys); id++) {
            size_t len;
            const char *key = spoor_strpool_get(w->by_name.keys, (uint32_t)id, &len);
            dur_merge(groups_get(&all->by_name, key, len), &w->by_name.dur[id]);
        }
        merge_set(all->procs, w->procs);
        merge_set(all->threads, w->threads);
        all->events += w->events;
        all->metadata += w->metadata;
        if (w->first_ts < all->first_ts)
            all->first_ts = w->first_ts;
        if (w->last_end > all->last_end)
            all->last_end = w->last_end;
    }
    out->events = all->events;
    out->metadata_events = all->metadata;
    out->first_ts = all->first_ts == INT64_MAX ? SPOOR_NULL : all->first_ts;
    out->last_end = all->last_end == INT64_MIN ? SPOOR_NULL : all->last_end;
    out->files = stats_names_count(run->files);
    out->hosts = stats_names_count(run->hosts);
    out->processes = spoor_strpool_count(all->procs) - 1;
    out->threads = spoor_strpool_count(all->threads) - 1;

    /* Groups: the empty key (id 0) is the pool's reserved string, never a group. */
    out->strings = spoor_strpool_new();
    size_t n = spoor_strpool_count(all->by_name.keys) - 1;
    out->by_name = spoor_xcalloc(n ? n : 1, sizeof *out->by_name);
    struct groups by_cat;
    groups_init(&by_cat);
    for (size_t id = 1; id <= n; id++) {
        size_t len;
        const char *key = spoor_strpool_get(all->by_name.keys, (uint32_t)id, &len);
        size_t clen = strlen(key);
        struct spoor_stats_group *g = &out->by_name[out->nby_name++];
        g->cat = spoor_strpool_get(out->strings, spoor_strpool_intern(out->strings, key, clen), NULL);
        g->name = spoor_strpool_get(out->strings,
                                    spoor_strpool_intern(out->strings, key + clen + 1, len - clen - 1), NULL);
        g->dur = all->by_name.dur[id];
        /* Keyed with the terminating NUL so an empty cat is not the pool's id 0. */
        dur_merge(groups_get(&by_cat, key, clen + 1), &g->dur);
    }
    size_t ncat = spoor_strpool_count(by_cat.keys) - 1;
    out->by_cat = spoor_xcalloc(ncat ? ncat : 1, sizeof *out->by_cat);
    for (size_t id = 1; id <= ncat; id++) {
        const char *key = spoor_strpool_get(by_cat.keys, (uint32_t)id, NULL);
        struct spoor_stats_group *g = &out->by_cat[out->nby_cat++];
        g->cat = spoor_strpool_get(out->strings, spoor_strpool_intern(out->strings, key, strlen(key)), NULL);
        g->dur = by_cat.dur[id];
    }
    qsort(out->by_name, out->nby_name, sizeof *out->by_name, compare_groups);
    qsort(out->by_cat, out->nby_cat, sizeof *out->by_cat, compare_groups);

    spoor_strpool_free(by_cat.keys);
    free(by_cat.dur);
    for (int i = 0; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        spoor_strpool_free(w->by_name.keys);
        free(w->by_name.dur);
        spoor_strpool_free(w->procs);
        spoor_strpool_free(w->threads);
        free(w->group_of);
        free(w->pair_keys);
    }
    free(run->workers);
    stats_names_free(run->files);
    stats_names_free(run->hosts);
    spoor_resolver_free(run->resolver);
    free(run);
}

void spoor_stats_free(struct spoor_stats *s)
{
    free(s->by_name);
    free(s->by_cat);
    spoor_strpool_free(s->strings);
    memset(s, 0, sizeof *s);
}
