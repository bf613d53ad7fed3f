/* The resolver: file and host names of rows from the FH and HH lookups of
 * every batch so far. Batches have their own string pools, so lookups are
 * re-interned by text into the resolver's pool, which only grows, each
 * definition under its input's path (interned too) and line. A row takes the
 * definition in force at its line in its own input (spoor/table.h). Per
 * batch, each distinct hash is looked up once: an answer that holds over all
 * the lines of a batch of one input (nearly always) is cached as the hash's
 * name for the batch; any other is cached with the input and the lines it
 * holds for, so a hash redefined within a batch, or the same hash text in
 * rows of several inputs, is looked up again. */
#include "spoor/error.h"
#include "spoor/table.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INT_CACHE = 256 };
/* In hash_cache: the rest is the name of every row with that hash. */
#define WHOLE_BATCH 0x80000000u

/* Resolution of one row field from a hash column, a name column and a lookup. */
struct source {
    const char *hash_key, *name_key;
    enum spoor_lookup_kind kind;
};

static const struct source file_source = {"fhash", "fname", SPOOR_LOOKUP_FILE};
static const struct source host_source = {"hhash", "hostname", SPOOR_LOOKUP_HOST};

/* A lookup's answer for one input over lines [from, to). */
struct answer {
    uint32_t src, id;
    uint64_t from, to;
};

static bool answer_holds(const struct answer *a, uint32_t src, uint64_t line)
{
    return a->src == src && a->from <= line && line < a->to;
}

struct spoor_resolver {
    struct spoor_strpool *pool;
    struct spoor_lookup lookups[2];         /* file, host; keys, values and inputs in pool */
    uint32_t *file, *host;                  /* per row of the current batch */
    size_t rows_cap;
    uint32_t *srcs;                         /* per input of the batch: its path in pool */
    size_t nsrcs, srcs_cap;
    uint32_t *hash_cache, *name_cache;      /* per batch string id: answer + 1 or WHOLE_BATCH | name / name id;
                                               0 / UINT32_MAX = not yet */
    bool one_input, range_known;            /* of the current batch; its lines [lo, hi] once needed */
    uint64_t lo, hi;
    size_t cache_cap;
    struct answer *answers;                 /* of the hashes of the current batch */
    size_t nanswers, answers_cap;
    struct {
        int64_t key;
        struct answer a;
        bool used;
    } int_cache[INT_CACHE];                 /* integer hashes, direct-mapped */
    struct spoor_resolved out;
};

struct spoor_resolver *spoor_resolver_new(void)
{
    struct spoor_resolver *r = spoor_xcalloc(1, sizeof *r);
    r->pool = spoor_strpool_new();
    return r;
}

void spoor_resolver_free(struct spoor_resolver *r)
{
    if (!r)
        return;
    for (int i = 0; i < 2; i++)
        spoor_lookup_release(&r->lookups[i]);
    free(r->file);
    free(r->host);
    free(r->srcs);
    free(r->hash_cache);
    free(r->name_cache);
    free(r->answers);
    spoor_strpool_free(r->pool);
    free(r);
}

static uint32_t reintern(struct spoor_resolver *r, const struct spoor_table *t, uint32_t id)
{
    size_t len;
    const char *s = spoor_strpool_get(t->pool, id, &len);
    return spoor_strpool_intern(r->pool, s, len);
}

static void learn(struct spoor_resolver *r, struct spoor_lookup *dst, const struct spoor_lookup *src,
                  const struct spoor_table *t)
{
    for (size_t i = 0; i < src->n; i++)
        spoor_lookup_put(dst, src->srcs[i] < t->nsources ? r->srcs[src->srcs[i]] : 0, reintern(r, t, src->keys[i]),
                         reintern(r, t, src->values[i]), src->lines[i]);
}

/* The lookup's answer for a hash given as text, in input src at line. */
static struct answer by_text(const struct spoor_resolver *r, const struct spoor_lookup *l, uint32_t src,
                             uint64_t line, const char *s, size_t len)
{
    struct answer a = {src, 0, 0, UINT64_MAX};
    uint32_t key = spoor_strpool_find(r->pool, s, len);
    if (key != UINT32_MAX)
        a.id = spoor_lookup_get(l, src, key, line, &a.from, &a.to);
    return a;
}

static uint32_t by_int(struct spoor_resolver *r, const struct spoor_lookup *l, uint32_t src, uint64_t line,
                       int64_t v)
{
    size_t slot = ((uint64_t)v * 0x9e3779b97f4a7c15ull) >> 56;
    if (r->int_cache[slot].used && r->int_cache[slot].key == v && answer_holds(&r->int_cache[slot].a, src, line))
        return r->int_cache[slot].a.id;
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)v);
    r->int_cache[slot].a = by_text(r, l, src, line, buf, (size_t)n);
    r->int_cache[slot].key = v;
    r->int_cache[slot].used = true;
    return r->int_cache[slot].a.id;
}

/* Whether an answer holds for every row of batch t (of one input). */
static bool holds_for_batch(struct spoor_resolver *r, const struct spoor_table *t, const struct answer *a)
{
    if (!r->range_known) {
        r->lo = UINT64_MAX;
        r->hi = 0;
        for (size_t row = 0; row < t->nrows; row++) {
            r->lo = t->line[row] < r->lo ? t->line[row] : r->lo;
            r->hi = t->line[row] > r->hi ? t->line[row] : r->hi;
        }
        r->range_known = true;
    }
    return a->from <= r->lo && r->hi < a->to;
}

/* A string hash not answered for the whole batch (c: its cache entry). */
static uint32_t hash_text_of(struct spoor_resolver *r, const struct spoor_lookup *l, const struct spoor_view *h,
                             const struct spoor_table *t, size_t row, uint32_t c)
{
    uint32_t src = t->src[row] < t->nsources ? r->srcs[t->src[row]] : 0;
    uint32_t b = h->str[row];
    if (c && answer_holds(&r->answers[c - 1], src, t->line[row]))
        return r->answers[c - 1].id;
    size_t len;
    const char *s = spoor_strpool_get(h->pool, b, &len);
    struct answer a = by_text(r, l, src, t->line[row], s, len);
    if (r->one_input && !c && a.id < WHOLE_BATCH && holds_for_batch(r, t, &a)) {
        r->hash_cache[b] = WHOLE_BATCH | a.id;
        return a.id;
    }
    if (!c) {
        spoor_reserve((void **)&r->answers, &r->answers_cap, r->nanswers + 1, sizeof *r->answers);
        r->hash_cache[b] = (uint32_t)++r->nanswers;
    }
    r->answers[r->hash_cache[b] - 1] = a;
    return a.id;
}

/* Inline, the string case first: it runs for every row. */
static inline uint32_t hash_of(struct spoor_resolver *r, const struct spoor_lookup *l, const struct spoor_view *h,
                               const struct spoor_table *t, size_t row)
{
    if (h->kind == SPOOR_VIEW_STR) {
        if (h->valid ? !((h->valid[row / 64] >> (row % 64)) & 1) : h->str[row] == 0)
            return 0;
        uint32_t c = r->hash_cache[h->str[row]];
        return c & WHOLE_BATCH ? c & ~WHOLE_BATCH : hash_text_of(r, l, h, t, row, c);
    }
    if (h->kind != SPOOR_VIEW_I64 || spoor_view_is_null(h, row))
        return 0;
    return by_int(r, l, t->src[row] < t->nsources ? r->srcs[t->src[row]] : 0, t->line[row], h->i64[row]);
}

static uint32_t name_of(struct spoor_resolver *r, const struct spoor_view *n, size_t row)
{
    if (spoor_view_is_null(n, row))
        return 0;
    if (n->kind == SPOOR_VIEW_STR) {
        uint32_t b = n->str[row];
        if (r->name_cache[b] == UINT32_MAX) {
            size_t len;
            const char *s = spoor_strpool_get(n->pool, b, &len);
            r->name_cache[b] = len ? spoor_strpool_intern(r->pool, s, len) : 0;
        }
        return r->name_cache[b];
    }
    char buf[40];
    int len = n->kind == SPOOR_VIEW_I64 ? snprintf(buf, sizeof buf, "%lld", (long long)n->i64[row])
                                        : snprintf(buf, sizeof buf, "%.17g", n->f64[row]);
    return spoor_strpool_intern(r->pool, buf, (size_t)len);
}

/* Resolves rows[0..n) of t (rows NULL: every row) into out. */
static void resolve_rows(struct spoor_resolver *r, const struct spoor_table *t, const uint32_t *rows, size_t n,
                         const struct source *src, const struct spoor_lookup *l, uint32_t *out)
{
    struct spoor_view h, nm;
    bool have_hash = spoor_view_bind(&h, SPOOR_FIELD_ARG, src->hash_key, strlen(src->hash_key), t, NULL);
    bool have_name = spoor_view_bind(&nm, SPOOR_FIELD_ARG, src->name_key, strlen(src->name_key), t, NULL);
    memset(r->hash_cache, 0, spoor_strpool_count(t->pool) * sizeof *r->hash_cache);
    memset(r->name_cache, 0xff, spoor_strpool_count(t->pool) * sizeof *r->name_cache);
    memset(r->int_cache, 0, sizeof r->int_cache);
    r->nanswers = 0;
    for (size_t i = 0; i < n; i++) {
        size_t row = rows ? rows[i] : i;
        uint32_t id = have_hash ? hash_of(r, l, &h, t, row) : 0;
        if (!id && have_name)
            id = name_of(r, &nm, row);
        out[row] = id;
    }
}

void spoor_resolver_keys(enum spoor_field field, const char *keys[2])
{
    const struct source *src = field == SPOOR_FIELD_HOST ? &host_source : &file_source;
    keys[0] = src->hash_key;
    keys[1] = src->name_key;
}

/* Learns t's lookups and sizes the per-row arrays; zeroed when fresh rows
 * are left unresolved (calloc: untouched pages cost nothing). */
void spoor_resolver_learn(struct spoor_resolver *r, const struct spoor_table *t)
{
    if (t->nsources > r->srcs_cap) {
        r->srcs_cap = t->nsources;
        r->srcs = spoor_xrealloc(r->srcs, r->srcs_cap * sizeof *r->srcs);
    }
    for (size_t i = 0; i < t->nsources; i++)
        r->srcs[i] = spoor_strpool_intern(r->pool, t->sources[i], strlen(t->sources[i]));
    r->nsrcs = t->nsources;
    learn(r, &r->lookups[0], &t->lookups[SPOOR_LOOKUP_FILE], t);
    learn(r, &r->lookups[1], &t->lookups[SPOOR_LOOKUP_HOST], t);
}

uint32_t spoor_resolver_find(const struct spoor_resolver *r, enum spoor_field field, uint32_t input, const char *hash,
                             size_t len, uint64_t line, uint64_t *from, uint64_t *to)
{
    struct answer a = by_text(r, &r->lookups[field == SPOOR_FIELD_HOST], input < r->nsrcs ? r->srcs[input] : 0, line,
                              hash, len);
    *from = a.from;
    *to = a.to;
    return a.id;
}

uint32_t spoor_resolver_intern(struct spoor_resolver *r, const char *s, size_t len)
{
    return spoor_strpool_intern(r->pool, s, len);
}

const struct spoor_strpool *spoor_resolver_pool(const struct spoor_resolver *r) { return r->pool; }

static void prepare(struct spoor_resolver *r, const struct spoor_table *t, bool zeroed)
{
    spoor_resolver_learn(r, t);
    r->one_input = t->nsources <= 1;
    r->range_known = false;
    if (zeroed) {
        free(r->file);
        free(r->host);
        r->rows_cap = t->nrows;
        r->file = spoor_xcalloc(r->rows_cap ? r->rows_cap : 1, sizeof *r->file);
        r->host = spoor_xcalloc(r->rows_cap ? r->rows_cap : 1, sizeof *r->host);
    } else if (t->nrows > r->rows_cap) {
        r->rows_cap = t->nrows;
        r->file = spoor_xrealloc(r->file, r->rows_cap * sizeof *r->file);
        r->host = spoor_xrealloc(r->host, r->rows_cap * sizeof *r->host);
    }
    size_t strings = spoor_strpool_count(t->pool);
    if (strings > r->cache_cap) {
        r->cache_cap = strings;
        r->hash_cache = spoor_xrealloc(r->hash_cache, strings * sizeof *r->hash_cache);
        r->name_cache = spoor_xrealloc(r->name_cache, strings * sizeof *r->name_cache);
    }
    r->out = (struct spoor_resolved){.pool = r->pool, .file = r->file, .host = r->host, .nrows = t->nrows};
}

const struct spoor_resolved *spoor_resolver_resolve(struct spoor_resolver *r, const struct spoor_table *t)
{
    prepare(r, t, false);
    resolve_rows(r, t, NULL, t->nrows, &file_source, &r->lookups[0], r->file);
    resolve_rows(r, t, NULL, t->nrows, &host_source, &r->lookups[1], r->host);
    return &r->out;
}

const struct spoor_resolved *spoor_resolver_resolve_files(struct spoor_resolver *r, const struct spoor_table *t)
{
    prepare(r, t, false);
    resolve_rows(r, t, NULL, t->nrows, &file_source, &r->lookups[0], r->file);
    if (t->nrows) /* no rows: maybe no array yet */
        memset(r->host, 0, t->nrows * sizeof *r->host);
    return &r->out;
}

const struct spoor_resolved *spoor_resolver_resolve_rows(struct spoor_resolver *r, const struct spoor_table *t,
                                                         const uint32_t *rows, size_t n)
{
    prepare(r, t, true);
    resolve_rows(r, t, rows, n, &file_source, &r->lookups[0], r->file);
    resolve_rows(r, t, rows, n, &host_source, &r->lookups[1], r->host);
    return &r->out;
}
