/* A row's columns encoded into a record, and its index keys taken from the
 * values as stored. The same code runs on the load's workers (the columns
 * known there) and in input order (the rest, or every column). */
#include "out/write_sqlite_internal.h"

#include <stdlib.h>

void sqlw_encoder_free(struct sqlw_encoder *e)
{
    free(e->views);
    free(e->affinity);
    free(e->ops);
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
    e->ops = spoor_xrealloc(e->ops, e->cap * sizeof *e->ops);
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
    e->ops[e->n] = (struct sqlw_op){.how = SQLW_CONVERT, .key = SQLW_NO_KEY};
    e->affinity[e->n++] = aff;
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

void sqlw_encoder_plan(const struct spoor_sqlite_writer *w, struct sqlw_encoder *e)
{
    for (size_t i = 0; i < e->n; i++) {
        const struct spoor_view *v = &e->views[i];
        enum sqlw_affinity aff = e->affinity[i];
        struct sqlw_op *op = &e->ops[i];
        op->how = i == w->generated_col                             ? SQLW_SKIP
                : v->kind == SPOOR_VIEW_I64 && aff == SQLW_INTEGER ? SQLW_AS_INT
                : v->kind == SPOOR_VIEW_STR && aff == SQLW_TEXT    ? SQLW_AS_TEXT
                : v->kind == SPOOR_VIEW_PH && aff == SQLW_TEXT     ? SQLW_AS_LETTER
                                                                   : SQLW_CONVERT;
        op->key = i == w->ts_col && w->keys.ts             ? SQLW_KEY_TS
                : i == w->pid_col && w->keys.pid_tid       ? SQLW_KEY_PID
                : i == w->tid_col && w->keys.pid_tid       ? SQLW_KEY_TID
                : i == w->name_col && w->keys.name         ? SQLW_KEY_NAME
                                                           : SQLW_NO_KEY;
    }
}

/* The value of column i at row as stored. */
static inline void column_value(const struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t i, size_t row,
                                struct sqlw_value *out)
{
    const struct spoor_view *v = &e->views[i];
    if (spoor_view_is_null(v, row)) {
        out->type = SQLW_NULL;
        return;
    }
    switch (e->ops[i].how) {
    case SQLW_AS_INT:
        out->type = SQLW_INT;
        out->i = v->i64[row];
        return;
    case SQLW_AS_TEXT: {
        uint8_t *known = v->stable_ids ? w->resolved_utf8 : e->batch_utf8;
        if (known[v->str[row]] == UTF8_VALID) {
            out->type = SQLW_TEXT_VALUE;
            out->s = spoor_strpool_get(v->pool, v->str[row], &out->len);
            return;
        }
        sqlw_convert(&e->scratch, e->affinity[i], v, row, known, out);
        return;
    }
    case SQLW_AS_LETTER:    /* the phase letter, as one byte of text when ASCII */
        if (v->ph[row] < 0x80) {
            out->type = SQLW_TEXT_VALUE;
            out->s = (const char *)&v->ph[row];
            out->len = 1;
            return;
        }
        /* fall through */
    default:
        sqlw_convert(&e->scratch, e->affinity[i], v, row,
                     v->kind != SPOOR_VIEW_STR ? NULL : v->stable_ids ? w->resolved_utf8 : e->batch_utf8, out);
    }
}

void sqlw_encode(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t from, size_t to, size_t row,
                 const struct sqlw_row_keys *keys)
{
    for (size_t i = from; i < to; i++) {
        struct sqlw_op op = e->ops[i];
        if (op.how == SQLW_SKIP)
            continue;
        struct sqlw_value value;
        column_value(w, e, i, row, &value);
        sqlw_record_value(&e->rec, &value);
        if (op.key == SQLW_NO_KEY)
            continue;
        int64_t as_int = value.type == SQLW_INT ? value.i : SPOOR_NULL;
        if (op.key == SQLW_KEY_TS)
            *keys->ts = as_int;
        else if (op.key == SQLW_KEY_PID)
            *keys->pid = as_int;
        else if (op.key == SQLW_KEY_TID)
            *keys->tid = as_int;
        else
            *keys->name = name_key(w, e, &e->views[i], row, &value);
    }
}
