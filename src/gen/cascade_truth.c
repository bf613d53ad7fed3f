/* Known answers of a generated cascade log. Every entity is folded as it is
 * generated; the slowest ones are chosen at the end by sorting all of them
 * (spoor lifecycle keeps a running top-N instead: two methods, one answer),
 * and the boxes from each group's values sorted by a comparison sort (spoor
 * lifecycle: one radix sort per delay, split by group). */
#include "gen/cascade_truth.h"
#include "analyze/lifecycle.h"
#include "spoor/lifecycle.h"
#include "util/grow.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every entity: its delays, name and groups (worker, mode). */
struct ranked {
    int64_t delay[SPOOR_LC_MAX_DELAYS];
    uint32_t name;
    const char *by[2];
};

struct cascade_truth {
    struct spoor_lc_spec spec;
    struct spoor_lc_result r;
    struct spoor_strpool *names;
    struct ranked *all;
    size_t nall, cap;
};

/* The row of a group or kind by its name, appended when new (few of them). */
static void *row_for(void **rows, size_t *n, size_t size, size_t name_at, const char *name, struct spoor_strpool *pool)
{
    for (size_t i = 0; i < *n; i++) {
        const char *have;
        memcpy(&have, (char *)*rows + i * size + name_at, sizeof have);
        if (!strcmp(have, name))
            return (char *)*rows + i * size;
    }
    *rows = spoor_xrealloc(*rows, (*n + 1) * size);
    char *row = (char *)*rows + (*n)++ * size;
    memset(row, 0, size);
    const char *kept = spoor_strpool_get(pool, spoor_strpool_intern(pool, name, strlen(name)), NULL);
    memcpy(row + name_at, &kept, sizeof kept);
    return row;
}

struct cascade_truth *cascade_truth_new(const char *preset, size_t top, struct spoor_error *err)
{
    struct cascade_truth *t = spoor_xcalloc(1, sizeof *t);
    t->spec.top = top;
    if (spoor_lc_spec_preset(&t->spec, preset, err) || spoor_lc_spec_finish(&t->spec, err)) {
        spoor_lc_spec_free(&t->spec);
        free(t);
        return NULL;
    }
    t->r.strings = spoor_strpool_new();
    t->names = spoor_strpool_new();
    return t;
}

static void add(struct spoor_lc_stat *s, int64_t v)
{
    s->min = s->count && s->min < v ? s->min : v;
    s->max = s->count && s->max > v ? s->max : v;
    s->count++;
    s->sum += v;
}

void cascade_truth_entity(struct cascade_truth *t, const char *name, const int64_t *first, const uint32_t *seen,
                          const char *worker, const char *mode)
{
    const struct spoor_lc_spec *s = &t->spec;
    struct spoor_lc_result *r = &t->r;
    int64_t at[SPOOR_LC_MAX_STAGES];
    memcpy(at, first, s->nstages * sizeof *at);
    bool filled = false;
    for (size_t f = 0; f < s->nfills && !strcmp(mode, s->fill_value); f++)
        if (at[s->fill[f].missing] == SPOOR_NULL && at[s->fill[f].source] != SPOOR_NULL) {
            at[s->fill[f].missing] = at[s->fill[f].source];
            filled = true;
        }
    r->entities++;
    r->filled += filled;
    char kind_name[128];
    snprintf(kind_name, sizeof kind_name, "%.*s", (int)strcspn(name, "(:"), name);
    struct spoor_lc_kind *kind = row_for((void **)&r->kind, &r->nkinds, sizeof *kind,
                                         offsetof(struct spoor_lc_kind, kind), kind_name, r->strings);
    kind->entities++;
    bool complete = true;
    for (size_t st = 0; st < s->nstages; st++) {
        kind->missing[st] += at[st] == SPOOR_NULL;
        kind->repeated[st] += seen[st] > 1;
        complete = complete && at[st] != SPOOR_NULL;
    }
    kind->complete += complete;
    const char *by[2] = {worker, mode};
    struct spoor_lc_group *g[2];
    for (size_t b = 0; b < 2; b++) {
        g[b] = row_for((void **)&r->group[b], &r->ngroups[b], sizeof *g[b], offsetof(struct spoor_lc_group, value),
                       by[b], r->strings);
        g[b]->entities++;
    }
    struct ranked e = {.name = spoor_strpool_intern(t->names, name, strlen(name)),
                       .by = {g[0]->value, g[1]->value}};
    for (size_t k = 0; k < s->ndelays; k++) {
        int64_t a = at[s->delay[k].from], b = at[s->delay[k].to];
        e.delay[k] = a == SPOOR_NULL || b == SPOOR_NULL ? SPOOR_NULL : b - a;
        if (e.delay[k] == SPOOR_NULL)
            continue;
        add(&r->total[k], e.delay[k]);
        add(&g[0]->delay[k], e.delay[k]);
        add(&g[1]->delay[k], e.delay[k]);
    }
    spoor_reserve((void **)&t->all, &t->cap, t->nall + 1, sizeof *t->all);
    t->all[t->nall++] = e;
}

static const struct cascade_truth *sorting;

static int slowest_first(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;
    int k = sorting->spec.top_delay;
    if (a->delay[k] != b->delay[k])
        return a->delay[k] > b->delay[k] ? -1 : 1;
    return strcmp(spoor_strpool_get(sorting->names, a->name, NULL), spoor_strpool_get(sorting->names, b->name, NULL));
}

static int by_value(const void *x, const void *y)
{
    return strcmp(((const struct spoor_lc_group *)x)->value, ((const struct spoor_lc_group *)y)->value);
}

static int by_kind(const void *x, const void *y)
{
    return strcmp(((const struct spoor_lc_kind *)x)->kind, ((const struct spoor_lc_kind *)y)->kind);
}

/* A delay of an entity in its group (an index among the sorted groups). */
struct grouped {
    size_t group;
    int64_t v;
};

static int by_group_then_value(const void *x, const void *y)
{
    const struct grouped *a = x, *b = y;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* Delay k's boxes: of the totals (by < 0) or of the groups of field `by`
 * (sorted by value). */
static void boxes(struct cascade_truth *t, size_t k, int by, struct grouped *values, int64_t *sorted)
{
    struct spoor_lc_result *r = &t->r;
    size_t n = 0;
    for (size_t i = 0; i < t->nall; i++) {
        if (t->all[i].delay[k] == SPOOR_NULL)
            continue;
        size_t g = 0;
        if (by >= 0) {
            struct spoor_lc_group key = {.value = t->all[i].by[by]};
            g = (size_t)((struct spoor_lc_group *)bsearch(&key, r->group[by], r->ngroups[by], sizeof key, by_value) -
                         r->group[by]);
        }
        values[n++] = (struct grouped){g, t->all[i].delay[k]};
    }
    qsort(values, n, sizeof *values, by_group_then_value);
    for (size_t i = 0; i < n; i++)
        sorted[i] = values[i].v;
    for (size_t from = 0, to; from < n; from = to) {
        for (to = from; to < n && values[to].group == values[from].group; to++)
            ;
        struct spoor_lc_stat *d = by < 0 ? &r->total[k] : &r->group[by][values[from].group].delay[k];
        d->box = spoor_lc_box_of(sorted + from, to - from);
    }
}

int cascade_truth_write(struct cascade_truth *t, const char *path, uint64_t lines, uint64_t skipped, uint64_t records,
                        uint64_t own_records, struct spoor_error *err)
{
    struct spoor_lc_result *r = &t->r;
    r->counts = (struct spoor_lc_counts){.records = records, .other_stage = records - own_records};
    for (size_t b = 0; b < 2; b++)
        qsort(r->group[b], r->ngroups[b], sizeof *r->group[b], by_value);
    qsort(r->kind, r->nkinds, sizeof *r->kind, by_kind);
    struct grouped *values = spoor_xmalloc((t->nall ? t->nall : 1) * sizeof *values);
    int64_t *sorted = spoor_xmalloc((t->nall ? t->nall : 1) * sizeof *sorted);
    for (size_t k = 0; k < t->spec.ndelays; k++)
        for (int by = -1; by < 2; by++)
            boxes(t, k, by, values, sorted);
    free(values);
    free(sorted);
    sorting = t;
    /* entities without the top delay (SPOOR_NULL, the smallest) sort last */
    qsort(t->all, t->nall, sizeof *t->all, slowest_first);
    size_t ranked = 0;
    while (ranked < t->nall && t->all[ranked].delay[t->spec.top_delay] != SPOOR_NULL)
        ranked++;
    r->ntop = ranked < t->spec.top ? ranked : t->spec.top;
    r->top = spoor_xcalloc(r->ntop ? r->ntop : 1, sizeof *r->top);
    for (size_t i = 0; i < r->ntop; i++) {
        r->top[i].name = spoor_strpool_get(t->names, t->all[i].name, NULL);
        memcpy(r->top[i].delay, t->all[i].delay, sizeof r->top[i].delay);
    }
    struct spoor_lc_input in = {lines, skipped};
    struct spoor_report *rep = spoor_lc_report(&t->spec, r, &in);
    int st = spoor_report_save(rep, path, SPOOR_FORMAT_CSV, 1, err);
    spoor_report_free(rep);
    return st;
}

void cascade_truth_free(struct cascade_truth *t)
{
    if (!t)
        return;
    spoor_lc_result_free(&t->r);
    spoor_lc_spec_free(&t->spec);
    spoor_strpool_free(t->names);
    free(t->all);
    free(t);
}
