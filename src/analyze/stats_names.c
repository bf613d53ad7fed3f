/* The distinct files (or hosts) of `spoor stats`, counted in input order.
 *
 * A row's file is the name its hash has in its own input at its line
 * (formats.md, "Metadata events and lookups"), else its own fname; a hash
 * left without either counts as one file per (input, hash). Rather than
 * resolving every row, a batch is first reduced to its distinct hashes
 * (batch string ids): each is looked up once at the batch's first line, and
 * when the answer holds to its last line (no definition of that hash inside
 * the batch: nearly always) every row with it has that name. Only rows whose
 * hash is redefined inside the batch, or has no name, are looked at again. */
#include "stats_names.h"
#include "spoor/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the rows with one hash (a batch string id) get. */
enum { H_UNSEEN, H_SEEN, H_NAMED, H_NONE, H_SPLIT };
/* Added already in this batch: as a row's own name, as a hash without one. */
enum { DONE_NAME = 1, DONE_HASH = 2 };

struct stats_names {
    enum spoor_field field;
    uint8_t *seen;                  /* per resolver pool id */
    size_t seen_cap;
    uint64_t n;
    struct spoor_strpool *unresolved; /* input path "\0" hash */
    uint8_t *state, *done;          /* per batch string id: H_*, DONE_* */
    size_t batch_cap;
};

struct stats_names *stats_names_new(enum spoor_field field)
{
    struct stats_names *n = spoor_xcalloc(1, sizeof *n);
    n->field = field;
    n->unresolved = spoor_strpool_new();
    return n;
}

void stats_names_free(struct stats_names *n)
{
    if (!n)
        return;
    free(n->seen);
    free(n->state);
    free(n->done);
    spoor_strpool_free(n->unresolved);
    free(n);
}

uint64_t stats_names_count(const struct stats_names *n)
{
    return n->n + spoor_strpool_count(n->unresolved) - 1;
}

/* Whether the row holds a hash (an empty one is none). */
static bool has_hash(const struct spoor_column *hash, size_t row)
{
    return hash && spoor_column_valid(hash, row) && (hash->type != SPOOR_STR || hash->str[row]);
}

static void add_id(struct stats_names *n, const struct spoor_resolver *r, uint32_t id)
{
    if (id >= n->seen_cap) {
        size_t cap = n->seen_cap ? n->seen_cap : 256;
        while (cap <= id || cap < spoor_strpool_count(spoor_resolver_pool(r)))
            cap *= 2;
        n->seen = spoor_xrealloc(n->seen, cap);
        memset(n->seen + n->seen_cap, 0, cap - n->seen_cap);
        n->seen_cap = cap;
    }
    n->n += !n->seen[id];
    n->seen[id] = 1;
}

/* The text of a row's value in col (string, integer or real). */
static const char *cell_text(const struct spoor_table *b, const struct spoor_column *col, size_t row, char buf[40],
                             size_t *len)
{
    if (col->type == SPOOR_STR)
        return spoor_strpool_get(b->pool, col->str[row], len);
    int k = col->type == SPOOR_I64 ? snprintf(buf, 40, "%lld", (long long)col->i64[row])
                                   : snprintf(buf, 40, "%.17g", col->f64[row]);
    *len = k > 0 ? (size_t)k : 0;
    return buf;
}

static uint32_t find(const struct spoor_resolver *r, enum spoor_field field, const struct spoor_table *b,
                     const struct spoor_column *hash, size_t row, uint64_t line, uint64_t *from, uint64_t *to)
{
    char buf[40];
    size_t len;
    const char *text = cell_text(b, hash, row, buf, &len);
    return spoor_resolver_find(r, field, b->src[row], text, len, line, from, to);
}

/* Distinct hashes of the batch, each settled for the whole batch when it can
 * be; returns whether any needs its rows looked at again. */
static bool settle_hashes(struct stats_names *n, const struct spoor_table *b, const struct spoor_column *hash,
                          uint64_t lo, uint64_t hi, struct spoor_resolver *r)
{
    size_t first = SIZE_MAX;
    for (size_t row = 0; row < b->nrows; row++) {
        if (!has_hash(hash, row))
            continue;
        n->state[hash->str[row]] = H_SEEN;
        first = first == SIZE_MAX ? row : first;
    }
    bool again = false;
    for (uint32_t id = 1; first != SIZE_MAX && id < spoor_strpool_count(b->pool); id++) {
        if (n->state[id] != H_SEEN)
            continue;
        size_t len;
        const char *text = spoor_strpool_get(b->pool, id, &len);
        uint64_t from, to;
        uint32_t name = spoor_resolver_find(r, n->field, b->src[first], text, len, lo, &from, &to);
        n->state[id] = to <= hi ? H_SPLIT : name ? H_NAMED : H_NONE;
        if (name && to > hi)
            add_id(n, r, name);
        again |= n->state[id] != H_NAMED;
    }
    return again;
}

/* A row without a name from its hash: its own name, else (input, hash). */
static void add_fallback(struct stats_names *n, const struct spoor_table *b, const struct spoor_column *hash,
                         const struct spoor_column *name, size_t row, struct spoor_resolver *r)
{
    char buf[4096];
    size_t len;
    if (name && spoor_column_valid(name, row)) {
        if (name->type == SPOOR_STR && (n->done[name->str[row]] & DONE_NAME))
            return;
        const char *s = cell_text(b, name, row, buf, &len);
        if (len) { /* an empty name is none, as the resolver has it */
            add_id(n, r, spoor_resolver_intern(r, s, len));
            if (name->type == SPOOR_STR)
                n->done[name->str[row]] |= DONE_NAME;
            return;
        }
    }
    /* (a hash text is one key per batch only when the batch is one input) */
    bool once = hash && hash->type == SPOOR_STR && b->nsources <= 1;
    if (!has_hash(hash, row) || (once && (n->done[hash->str[row]] & DONE_HASH)))
        return;
    const char *src = b->src[row] < b->nsources ? b->sources[b->src[row]] : "";
    size_t slen = strlen(src) < 2048 ? strlen(src) : 2048;
    memcpy(buf, src, slen);
    buf[slen] = '\0';
    char num[40];
    const char *h = cell_text(b, hash, row, num, &len);
    len = len < sizeof buf - slen - 1 ? len : sizeof buf - slen - 1;
    memcpy(buf + slen + 1, h, len);
    spoor_strpool_intern(n->unresolved, buf, slen + 1 + len);
    if (once)
        n->done[hash->str[row]] |= DONE_HASH;
}

void stats_names_lines(const struct spoor_table *b, uint64_t *lo, uint64_t *hi)
{
    uint64_t l = UINT64_MAX, h = 0;
    for (size_t row = 0; row < b->nrows; row++) {
        l = b->line[row] < l ? b->line[row] : l;
        h = b->line[row] > h ? b->line[row] : h;
    }
    *lo = l;
    *hi = h;
}

void stats_names_add(struct stats_names *n, const struct spoor_table *b, uint64_t lo, uint64_t hi,
                     struct spoor_resolver *r)
{
    const char *keys[2];
    spoor_resolver_keys(n->field, keys);
    const struct spoor_column *hash = spoor_table_find_column(b, keys[0]);
    const struct spoor_column *name = spoor_table_find_column(b, keys[1]);
    if ((!hash && !name) || !b->nrows)
        return;
    size_t nstrings = spoor_strpool_count(b->pool);
    if (nstrings > n->batch_cap) {
        n->batch_cap = nstrings;
        n->state = spoor_xrealloc(n->state, nstrings);
        n->done = spoor_xrealloc(n->done, nstrings);
    }
    memset(n->state, H_UNSEEN, nstrings);
    memset(n->done, 0, nstrings);
    /* Settling by string id needs one input per batch (the loader's are). */
    bool by_id = hash && hash->type == SPOOR_STR && b->nsources <= 1;
    bool again = by_id ? settle_hashes(n, b, hash, lo, hi, r) : hash != NULL;
    if (!again && !name)
        return;
    for (size_t row = 0; row < b->nrows; row++) {
        if (has_hash(hash, row)) {
            uint8_t st = by_id ? n->state[hash->str[row]] : H_SPLIT;
            if (st == H_NAMED)
                continue;
            uint64_t from, to;
            uint32_t id = st == H_SPLIT ? find(r, n->field, b, hash, row, b->line[row], &from, &to) : 0;
            if (id) {
                add_id(n, r, id);
                continue;
            }
        }
        add_fallback(n, b, hash, name, row, r);
    }
}
