/* Begin/end pairs. Chrome traces may write a span as a B event and an E event
 * on the same pid and tid, nested like calls. Each pair becomes one row at
 * the E's place in the input (a span is complete only when it ends, as a
 * DFTracer X event is written when its call returns): ts from the B, dur up
 * to the E, the B's name, cat and line, the args of both. A B's row is
 * held, with its strings and args, in a table of its own until its E comes,
 * so pairs span batches and memory grows with the spans open, not the trace.
 * Runs in input order (the loader defers map() of batches holding B or E
 * rows until then). Unmatched events are never completed by guesswork:
 * they are counted and reported as skipped. */
#include "read/pair.h"
#include "io/input.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stack {
    size_t *rows;               /* rows of `held`, innermost last */
    size_t n, cap;
};

struct pair_state {
    struct spoor_table *held;   /* the open B rows */
    struct spoor_id_map threads; /* (pid, tid) -> its stack */
    struct stack *stacks;
    size_t stacks_cap, open;
    uint32_t *keep;
    size_t keep_cap;
};

struct pair_state *pair_new(void)
{
    struct pair_state *ps = spoor_xcalloc(1, sizeof *ps);
    ps->held = spoor_table_new();
    spoor_id_map_init(&ps->threads, 2);
    return ps;
}

void pair_free(struct pair_state *ps)
{
    if (!ps)
        return;
    for (size_t i = 0; i < ps->threads.n; i++)
        free(ps->stacks[i].rows);
    free(ps->stacks);
    spoor_id_map_free(&ps->threads);
    free(ps->keep);
    spoor_table_free(ps->held);
    free(ps);
}

bool pair_batch_needs(const struct spoor_table *b)
{
    return b->nrows && (memchr(b->ph, 'B', b->nrows) || memchr(b->ph, 'E', b->nrows));
}

static struct stack *stack_of(struct pair_state *ps, int64_t pid, int64_t tid)
{
    uint32_t id = spoor_id_map_id_words(&ps->threads, (const uint64_t[2]){(uint64_t)pid, (uint64_t)tid});
    spoor_grow((void **)&ps->stacks, &ps->stacks_cap, id, sizeof *ps->stacks);
    return &ps->stacks[id];
}

static uint32_t copy_str(struct spoor_table *dst, const struct spoor_table *src, uint32_t id)
{
    if (!id)
        return 0;
    size_t len;
    const char *s = spoor_strpool_get(src->pool, id, &len);
    return spoor_table_intern(dst, s, len);
}

/* Value `srow` of column c of src into row drow of dst (same name), unless
 * dst already has one there. */
static void copy_arg(struct spoor_table *dst, size_t drow, const struct spoor_table *src,
                     const struct spoor_column *c, size_t srow)
{
    if (!spoor_column_valid(c, srow))
        return;
    struct spoor_column *d = spoor_table_column(dst, copy_str(dst, src, c->name));
    if (spoor_column_valid(d, drow))
        return;
    char text[32];
    struct spoor_value v = {.type = c->type, .text = text};
    size_t len;
    switch (c->type) {
    case SPOOR_I64:
        v.i64 = c->i64[srow];
        v.text_len = (size_t)snprintf(text, sizeof text, "%lld", (long long)v.i64);
        break;
    case SPOOR_F64:
        v.f64 = c->f64[srow];
        v.text_len = (size_t)snprintf(text, sizeof text, "%.17g", v.f64);
        break;
    case SPOOR_STR:
        v.str = copy_str(dst, src, c->str[srow]);
        v.text = spoor_strpool_get(dst->pool, v.str, &len);
        v.text_len = len;
        break;
    }
    spoor_table_set(dst, d, drow, &v);
}

/* Row `row` of src appended to dst; returns its index there. */
static size_t copy_row(struct spoor_table *dst, const struct spoor_table *src, size_t row)
{
    size_t r = spoor_table_add_row(dst);
    dst->ts[r] = src->ts[row];
    dst->dur[r] = src->dur[row];
    dst->pid[r] = src->pid[row];
    dst->tid[r] = src->tid[row];
    dst->ph[r] = src->ph[row];
    dst->src[r] = 0;
    dst->line[r] = src->line[row];
    dst->name[r] = copy_str(dst, src, src->name[row]);
    dst->cat[r] = copy_str(dst, src, src->cat[row]);
    for (size_t c = 0; c < src->ncols; c++)
        copy_arg(dst, r, src, &src->cols[c], row);
    return r;
}

/* The held rows of ended spans are dropped now and then, so `held` stays
 * the size of the open spans. */
static void compact(struct pair_state *ps)
{
    if (ps->open == 0) {
        spoor_table_clear(ps->held, true);
        return;
    }
    if (ps->held->nrows < 4096 || ps->held->nrows < 4 * ps->open)
        return;
    struct spoor_table *t = spoor_table_new();
    for (size_t i = 0; i < ps->threads.n; i++)
        for (size_t k = 0; k < ps->stacks[i].n; k++)
            ps->stacks[i].rows[k] = copy_row(t, ps->held, ps->stacks[i].rows[k]);
    spoor_table_free(ps->held);
    ps->held = t;
}

static int unmatched(struct spoor_skips *skips, const char *path, enum spoor_records records, bool strict,
                     uint64_t line, const char *reason, struct spoor_error *err)
{
    return spoor_skip_or_fail(skips, path, records, strict, line, reason, err);
}

/* Row e of b becomes the pair of held row h. */
static void complete(struct pair_state *ps, struct spoor_table *b, size_t e, size_t h)
{
    const struct spoor_table *held = ps->held;
    int64_t end = b->ts[e];
    b->ts[e] = held->ts[h];
    b->dur[e] = end == SPOOR_NULL || held->ts[h] == SPOOR_NULL ? SPOOR_NULL : end - held->ts[h];
    if (held->name[h])
        b->name[e] = copy_str(b, held, held->name[h]);
    if (held->cat[h])
        b->cat[e] = copy_str(b, held, held->cat[h]);
    b->ph[e] = 'X';
    b->line[e] = held->line[h];
    for (size_t c = 0; c < held->ncols; c++)
        copy_arg(b, e, held, &held->cols[c], h);
}

int pair_batch(struct pair_state *ps, struct spoor_table *b, struct spoor_skips *skips, const char *path,
               enum spoor_records records, bool strict, struct spoor_table **view, struct spoor_error *err)
{
    *view = b;
    spoor_reserve((void **)&ps->keep, &ps->keep_cap, b->nrows, sizeof *ps->keep);
    size_t nkeep = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        uint8_t ph = b->ph[i];
        if (ph != 'B' && ph != 'E') {
            ps->keep[nkeep++] = (uint32_t)i;
            continue;
        }
        struct stack *s = stack_of(ps, b->pid[i], b->tid[i]);
        if (ph == 'B') {
            spoor_reserve((void **)&s->rows, &s->cap, s->n + 1, sizeof *s->rows);
            s->rows[s->n++] = copy_row(ps->held, b, i);
            ps->open++;
            continue;
        }
        if (s->n == 0) {
            int st = unmatched(skips, path, records, strict, b->line[i], "E without B", err);
            if (st != SPOOR_OK)
                return st;
            continue;
        }
        size_t h = s->rows[--s->n];
        ps->open--;
        if (b->ts[i] != SPOOR_NULL && ps->held->ts[h] != SPOOR_NULL && b->ts[i] < ps->held->ts[h]) {
            /* both go: which of them is wrong cannot be told */
            int st = unmatched(skips, path, records, strict, ps->held->line[h], "E before its B", err);
            if (st == SPOOR_OK)
                st = unmatched(skips, path, records, strict, b->line[i], "E before its B", err);
            if (st != SPOOR_OK)
                return st;
            continue;
        }
        complete(ps, b, i, h);
        ps->keep[nkeep++] = (uint32_t)i;
    }
    compact(ps);
    if (nkeep < b->nrows)
        *view = spoor_table_select(b, ps->keep, nkeep);
    return SPOOR_OK;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int pair_finish(struct pair_state *ps, struct spoor_skips *skips, const char *path, enum spoor_records records,
                bool strict, struct spoor_error *err)
{
    if (ps->open == 0)
        return SPOOR_OK;
    /* reported in input order, whatever the threads they were on */
    uint64_t *lines = spoor_xmalloc(ps->open * sizeof *lines);
    size_t n = 0;
    for (size_t i = 0; i < ps->threads.n; i++)
        for (size_t k = 0; k < ps->stacks[i].n; k++)
            lines[n++] = ps->held->line[ps->stacks[i].rows[k]];
    qsort(lines, n, sizeof *lines, by_value);
    int st = SPOOR_OK;
    for (size_t i = 0; i < n && st == SPOOR_OK; i++)
        st = unmatched(skips, path, records, strict, lines[i], "B without E", err);
    free(lines);
    return st;
}
