/* The ordered merge: batches parsed by different threads become one table.
 * Strings are re-interned into the destination pool in row order, so ids (and
 * everything printed from them) are the same for any thread count. */
#include "spoor/error.h"
#include "spoor/table.h"
#include "table/internal.h"

#include <stdlib.h>
#include <string.h>

/* Maps every id of src's pool to dst's pool, interning lazily. */
struct remap {
    uint32_t *ids; /* UINT32_MAX = not yet mapped */
    size_t n;
};

static uint32_t map_id(struct remap *m, struct spoor_table *dst, const struct spoor_table *src, uint32_t id)
{
    if (m->ids[id] == UINT32_MAX) {
        size_t len;
        const char *s = spoor_strpool_get(src->pool, id, &len);
        m->ids[id] = spoor_table_intern(dst, s, len);
    }
    return m->ids[id];
}

static void append_column(struct spoor_table *dst, const struct spoor_table *src,
                          const struct spoor_column *sc, size_t base, struct remap *m)
{
    struct spoor_column *dc = spoor_table_column(dst, map_id(m, dst, src, sc->name));
    for (size_t r = 0; r < src->nrows; r++) {
        if (!spoor_column_valid(sc, r))
            continue;
        struct spoor_value v = {.type = sc->type};
        switch (sc->type) {
        case SPOOR_I64: v.i64 = sc->i64[r]; break;
        case SPOOR_F64: v.f64 = sc->f64[r]; break;
        case SPOOR_STR: v.str = map_id(m, dst, src, sc->str[r]); break;
        }
        spoor_table_set(dst, dc, base + r, &v);
    }
}

/* The fixed columns of src's rows, strings and sources mapped into dst. */
static void copy_rows(struct spoor_table *dst, const struct spoor_table *src, size_t base,
                      struct remap *m, const uint32_t *src_map)
{
    spoor_table_reserve(dst, base + src->nrows);
    memcpy(dst->ts + base, src->ts, src->nrows * sizeof *src->ts);
    memcpy(dst->dur + base, src->dur, src->nrows * sizeof *src->dur);
    memcpy(dst->pid + base, src->pid, src->nrows * sizeof *src->pid);
    memcpy(dst->tid + base, src->tid, src->nrows * sizeof *src->tid);
    memcpy(dst->ph + base, src->ph, src->nrows * sizeof *src->ph);
    memcpy(dst->line + base, src->line, src->nrows * sizeof *src->line);
    for (size_t r = 0; r < src->nrows; r++) {
        dst->name[base + r] = map_id(m, dst, src, src->name[r]);
        dst->cat[base + r] = map_id(m, dst, src, src->cat[r]);
        dst->src[base + r] = src->nsources ? src_map[src->src[r]] : 0;
    }
    for (size_t i = 0; i < dst->ncols; i++)
        for (size_t r = base; r < base + src->nrows; r++)
            spoor_column_unset(&dst->cols[i], r);
    dst->nrows = base + src->nrows;
}

/* Every definition of src, with its input mapped and its line kept. */
static void append_lookups(struct spoor_table *dst, const struct spoor_table *src, struct remap *m,
                           const uint32_t *src_map)
{
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        const struct spoor_lookup *l = &src->lookups[k];
        for (size_t i = 0; i < l->n; i++)
            spoor_lookup_put(&dst->lookups[k], l->srcs[i] < src->nsources ? src_map[l->srcs[i]] : 0,
                             map_id(m, dst, src, l->keys[i]), map_id(m, dst, src, l->values[i]), l->lines[i]);
    }
}

/* An empty string map from src's pool to dst's, and src's sources added to
 * dst (the map of their indexes, which the caller frees). */
static uint32_t *start_remap(struct spoor_table *dst, const struct spoor_table *src, struct remap *m)
{
    m->n = spoor_strpool_count(src->pool);
    m->ids = spoor_xmalloc((m->n ? m->n : 1) * sizeof *m->ids);
    memset(m->ids, 0xff, m->n * sizeof *m->ids);
    uint32_t *src_map = spoor_xmalloc((src->nsources ? src->nsources : 1) * sizeof *src_map);
    for (size_t i = 0; i < src->nsources; i++)
        src_map[i] = spoor_table_add_source(dst, src->sources[i]);
    return src_map;
}

void spoor_table_append(struct spoor_table *dst, const struct spoor_table *src)
{
    struct remap m;
    uint32_t *src_map = start_remap(dst, src, &m);

    size_t base = dst->nrows;
    if (src->nrows)
        copy_rows(dst, src, base, &m, src_map);

    for (size_t c = 0; c < src->ncols; c++)
        append_column(dst, src, &src->cols[c], base, &m);
    append_lookups(dst, src, &m, src_map);
    free(src_map);
    free(m.ids);
}

void spoor_table_append_lookups(struct spoor_table *dst, const struct spoor_table *src)
{
    struct remap m;
    uint32_t *src_map = start_remap(dst, src, &m);
    append_lookups(dst, src, &m, src_map);
    free(src_map);
    free(m.ids);
}
