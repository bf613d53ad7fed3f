/* A row's columns encoded into a record, and its index keys taken from the
 * values as stored. The same code runs on the load's workers (the columns
 * known there) and in input order (the rest, or every column). */
#include "out/write_sqlite_internal.h"

#include <stdlib.h>

void sqlw_encoder_free(struct sqlw_encoder *e)
{
    free(e->views);
    free(e->affinity);
    free(e->batch_utf8);
    free(e->name_key_of_id);
    wbuf_release(&e->scratch);
    sqlf_record_free(&e->rec);
    memset(e, 0, sizeof *e);
}

static void reserve(struct sqlw_encoder *e, size_t n)
{
    if (n <= e->cap)
        return;
    e->cap = n * 2;
    e->views = spoor_xrealloc(e->views, e->cap * sizeof *e->views);
    e->affinity = spoor_xrealloc(e->affinity, e->cap * sizeof *e->affinity);
}

void sqlw_encoder_start(struct sqlw_encoder *e, const struct spoor_table *t, const enum sqlw_affinity *affinity,
                        size_t n, bool name_keys)
{
    if (!e->scratch.data)
        wbuf_init(&e->scratch, NULL, 4096);
    reserve(e, n);
    e->n = n;
    for (size_t i = 0; i < n; i++)
        e->views[i] = (struct spoor_view){.kind = SPOOR_VIEW_NULL};
    memcpy(e->affinity, affinity, n * sizeof *affinity);
    size_t ids = spoor_strpool_count(t->pool);
    e->batch_utf8 = plain_flags(e->batch_utf8, &e->batch_utf8_cap, 0, ids);
    if (name_keys) {
        if (ids > e->name_key_cap) {
            e->name_key_cap = ids;
            e->name_key_of_id = spoor_xrealloc(e->name_key_of_id, ids * sizeof *e->name_key_of_id);
        }
        memset(e->name_key_of_id, 0, ids * sizeof *e->name_key_of_id);
    }
}

void sqlw_encoder_add(struct sqlw_encoder *e, enum sqlw_affinity aff)
{
    reserve(e, e->n + 1);
    e->views[e->n] = (struct spoor_view){.kind = SPOOR_VIEW_NULL};
    e->affinity[e->n++] = aff;
}

static int64_t int_key(const struct sqlw_value *v)
{
    return v->type == SQLW_INT ? v->i : SPOOR_NULL;
}

/* The name index key of a row's name value: interned once per batch string
 * (the pool of names is shared by every thread). */
static uint32_t name_key(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, const struct spoor_view *v,
                         size_t row, const struct sqlw_value *value)
{
    if (value->type != SQLW_TEXT_VALUE)
        return 0;
    uint32_t *cached = v->kind == SPOOR_VIEW_STR && !v->stable_ids ? &e->name_key_of_id[v->str[row]] : NULL;
    if (cached && *cached)
        return *cached;
    pthread_mutex_lock(&w->mu);
    uint32_t key = spoor_strpool_intern(w->keys.names, value->s, value->len) + 1;
    pthread_mutex_unlock(&w->mu);
    if (cached)
        *cached = key;
    return key;
}

/* The usual cases, stored as they are: an integer in an INTEGER column, a
 * string known to be valid UTF-8 in a TEXT one, a NULL. */
static inline bool stored_as_is(const struct spoor_view *v, enum sqlw_affinity aff, size_t row,
                                const uint8_t *known, struct sqlw_value *out)
{
    if (spoor_view_is_null(v, row)) {
        out->type = SQLW_NULL;
        return true;
    }
    if (v->kind == SPOOR_VIEW_I64 && aff == SQLW_INTEGER) {
        out->type = SQLW_INT;
        out->i = v->i64[row];
        return true;
    }
    if (v->kind == SPOOR_VIEW_STR && aff == SQLW_TEXT && known[v->str[row]] == UTF8_VALID) {
        out->type = SQLW_TEXT_VALUE;
        out->s = spoor_strpool_get(v->pool, v->str[row], &out->len);
        return true;
    }
    return false;
}

void sqlw_encode(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t from, size_t to, size_t row,
                 const struct sqlw_row_keys *keys)
{
    for (size_t i = from; i < to; i++) {
        if (i == w->generated_col)
            continue;
        const struct spoor_view *v = &e->views[i];
        uint8_t *known = v->kind != SPOOR_VIEW_STR ? NULL : v->stable_ids ? w->resolved_utf8 : e->batch_utf8;
        struct sqlw_value value;
        if (!stored_as_is(v, e->affinity[i], row, known, &value))
            sqlw_convert(&e->scratch, e->affinity[i], v, row, known, &value);
        sqlw_record_value(&e->rec, &value);
        if (i == w->ts_col && keys->ts)
            *keys->ts = int_key(&value);
        if (i == w->pid_col && keys->pid)
            *keys->pid = int_key(&value);
        if (i == w->tid_col && keys->tid)
            *keys->tid = int_key(&value);
        if (i == w->name_col && keys->name)
            *keys->name = name_key(w, e, v, row, &value);
    }
}
