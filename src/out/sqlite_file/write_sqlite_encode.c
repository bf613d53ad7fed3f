/* A row's columns encoded into a record, and its index keys taken from the
 * values as stored. The same code runs on the load's workers (the columns
 * known there) and in input order (the rest, or every column). */
#include "out/sqlite_file/write_sqlite_internal.h"

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

/* The name index key of a row's name text: interned once per batch string
 * (the pool of names is shared by every thread). */
static uint32_t name_key(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, const struct spoor_view *v,
                         size_t row, const char *s, size_t len)
{
    uint32_t *cached = v->kind == SPOOR_VIEW_STR && !v->stable_ids ? &e->name_key_of_id[v->str[row]] : NULL;
    if (cached && *cached)
        return *cached;
    pthread_mutex_lock(&w->mu);
    uint32_t key = spoor_strpool_intern(w->keys.names, s, len) + 1;
    pthread_mutex_unlock(&w->mu);
    if (cached)
        *cached = key;
    return key;
}

/* The default columns' usual plan (a trace's fixed fields): ts, dur, name,
 * cat, pid, tid, ph, line, source (generated or stored: ANY), file, host.
 * A batch planned so is encoded by a straight sequence, without a jump per
 * column on its plan (one that mispredicts): 220 instructions a row fewer. */
enum { ANY = 0xff };
static const uint8_t usual_plan[] = {SQLW_AS_INT, SQLW_AS_INT, SQLW_AS_TEXT,   SQLW_AS_TEXT,
                                     SQLW_AS_INT, SQLW_AS_INT, SQLW_AS_LETTER, SQLW_AS_INT,
                                     ANY,         SQLW_AS_TEXT, SQLW_AS_TEXT};
enum { USUAL = sizeof usual_plan, USUAL_SOURCE = 8 };

static bool planned_usual(const struct spoor_sqlite_writer *w, const struct sqlw_encoder *e)
{
    if (!w->defaults || e->n < USUAL)
        return false;
    for (size_t i = 0; i < USUAL; i++)
        if (usual_plan[i] != ANY && e->ops[i].how != usual_plan[i])
            return false;
    return true;
}

void sqlw_encoder_plan(const struct spoor_sqlite_writer *w, struct sqlw_encoder *e)
{
    for (size_t i = 0; i < e->n; i++) {
        const struct spoor_view *v = &e->views[i];
        enum sqlw_affinity aff = e->affinity[i];
        struct sqlw_op *op = &e->ops[i];
        op->how = i == w->generated_col                             ? SQLW_SKIP
                : v->kind == SPOOR_VIEW_NULL                       ? SQLW_ABSENT
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
    e->usual = planned_usual(w, e);
}

static inline bool invalid(const struct spoor_view *v, size_t row)
{
    return !((v->valid[row / 64] >> (row % 64)) & 1);
}

/* Stores a column's index key (int: its integer value or SPOOR_NULL; text:
 * NULL when not text). */
static void put_key(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t i, size_t row,
                    const struct sqlw_row_keys *keys, int64_t as_int, const char *text, size_t len)
{
    switch (e->ops[i].key) {
    case SQLW_KEY_TS: *keys->ts = as_int; break;
    case SQLW_KEY_PID: *keys->pid = as_int; break;
    case SQLW_KEY_TID: *keys->tid = as_int; break;
    case SQLW_KEY_NAME: *keys->name = text ? name_key(w, e, &e->views[i], row, text, len) : 0; break;
    }
}

/* A value through the affinity conversion (the unusual cases). */
static void encode_converted(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t i, size_t row,
                             const struct sqlw_row_keys *keys)
{
    const struct spoor_view *v = &e->views[i];
    uint8_t *known = v->kind != SPOOR_VIEW_STR ? NULL : v->stable_ids ? w->resolved_utf8 : e->batch_utf8;
    struct sqlw_value value;
    sqlw_convert(&e->scratch, e->affinity[i], v, row, known, &value);
    sqlw_record_value(&e->rec, &value);
    if (e->ops[i].key != SQLW_NO_KEY)
        put_key(w, e, i, row, keys, value.type == SQLW_INT ? value.i : SPOOR_NULL,
                value.type == SQLW_TEXT_VALUE ? value.s : NULL, value.len);
}

/* Where a row's serial types and body go, held in locals while the row is
 * encoded: stored through the record's own fields, each byte written
 * (a char store may alias them) would make the compiler load them again.
 * Room for every column's type and fixed-size body is made once. */
struct out {
    uint8_t *types, *types_used, *body, *body_end;
};

static inline __attribute__((always_inline)) void out_load(struct sqlf_record *rec, struct out *o, size_t columns)
{
    sqlf_buf_reserve(&rec->types, 9 * columns + 1);    /* + 1: a buffer even for no column */
    sqlf_buf_reserve(&rec->body, 8 * columns + 8);
    o->types = rec->types.p + rec->types.len;
    o->types_used = rec->types.p + rec->types_used;
    o->body = rec->body.p + rec->body.len;
    o->body_end = rec->body.p + rec->body.cap;
}

static inline __attribute__((always_inline)) void out_store(struct sqlf_record *rec, const struct out *o)
{
    rec->types.len = (size_t)(o->types - rec->types.p);
    rec->types_used = (size_t)(o->types_used - rec->types.p);
    rec->body.len = (size_t)(o->body - rec->body.p);
}

static inline __attribute__((always_inline)) void out_type(struct out *o, uint64_t type)
{
    if (type < 0x80)
        *o->types++ = (uint8_t)type;
    else
        o->types += sqlf_varint(o->types, type);
    if (type)
        o->types_used = o->types;
}

/* An integer: its width is worked out beside its serial type, not looked
 * up from it (5 bytes are stored as 6, 7 as 8): where the next body goes
 * then waits on no table load, and every value of the row is on that chain. */
static inline __attribute__((always_inline)) void out_int(struct out *o, int64_t v)
{
    *o->types++ = sqlf_int_type(v);     /* one byte, never NULL's 0 */
    o->types_used = o->types;
    if ((uint64_t)v <= 1)               /* 0 and 1: no body */
        return;
    uint64_t m = (uint64_t)(v ^ (v >> 63));
    size_t bytes = m ? (size_t)(64 - __builtin_clzll(m) + 8) / 8 : 1;  /* with the sign bit */
    size_t w = bytes + ((bytes > 4) & bytes & 1);
    uint64_t be = __builtin_bswap64((uint64_t)v << (8 * (8 - w)));
    memcpy(o->body, &be, 8);
    o->body += w;
}

/* Text; columns: how many may follow it (their room is kept). */
static inline __attribute__((always_inline)) void out_text(struct sqlf_record *rec, struct out *o, const char *s,
                                                           size_t len, size_t columns)
{
    out_type(o, 13 + 2 * (uint64_t)len);
    if ((size_t)(o->body_end - o->body) < len + 8 * columns + 8) {
        out_store(rec, o);
        sqlf_buf_grow(&rec->body, len + 8 * columns + 8);
        out_load(rec, o, columns);
    }
    memcpy(o->body, s, len);
    o->body += len;
}

/* Column i of row, encoded the way planned (`how`: a constant where the
 * caller knows it, so the switch folds away), its index key stored; left
 * is the number of columns after it. */
static inline __attribute__((always_inline)) void encode_one(struct spoor_sqlite_writer *w,
                                                              struct sqlw_encoder *e, struct out *o, size_t i,
                                                              size_t left, size_t row,
                                                              const struct sqlw_row_keys *keys, enum sqlw_how how)
{
    const struct spoor_view *v = &e->views[i];
    int64_t as_int = SPOOR_NULL;
    const char *text = NULL;
    size_t len = 0;
    switch (how) {
    case SQLW_SKIP:
        return;
    case SQLW_ABSENT:       /* a column this batch does not have */
        out_type(o, 0);
        break;
    case SQLW_AS_INT:
        if (v->valid ? invalid(v, row) : v->i64[row] == SPOOR_NULL) {
            out_type(o, 0);
        } else {
            as_int = v->i64[row];
            out_int(o, as_int);
        }
        break;
    case SQLW_AS_TEXT: {
        uint32_t id = v->str[row];
        if (v->valid ? invalid(v, row) : id == 0) {
            out_type(o, 0);
            break;
        }
        const uint8_t *known = v->stable_ids ? w->resolved_utf8 : e->batch_utf8;
        if (known[id] != UTF8_VALID)
            goto converted;
        text = spoor_strpool_get(v->pool, id, &len);
        out_text(&e->rec, o, text, len, left);
        break;
    }
    case SQLW_AS_LETTER:    /* the phase letter, as one byte of text when ASCII */
        if (!v->ph[row]) {
            out_type(o, 0);
            break;
        }
        if (v->ph[row] >= 0x80)
            goto converted;
        text = (const char *)&v->ph[row];
        len = 1;
        out_text(&e->rec, o, text, len, left);
        break;
    default:
        goto converted;
    }
    if (e->ops[i].key != SQLW_NO_KEY)
        put_key(w, e, i, row, keys, as_int, text, len);
    return;
converted:
    out_store(&e->rec, o);
    encode_converted(w, e, i, row, keys);
    out_load(&e->rec, o, left);
}

void sqlw_encode(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t from, size_t to, size_t row,
                 const struct sqlw_row_keys *keys)
{
    struct out o;
    out_load(&e->rec, &o, to - from);
    size_t i = from;
    if (e->usual && from == 0 && to >= USUAL) {
        encode_one(w, e, &o, 0, to - 1, row, keys, SQLW_AS_INT);
        encode_one(w, e, &o, 1, to - 2, row, keys, SQLW_AS_INT);
        encode_one(w, e, &o, 2, to - 3, row, keys, SQLW_AS_TEXT);
        encode_one(w, e, &o, 3, to - 4, row, keys, SQLW_AS_TEXT);
        encode_one(w, e, &o, 4, to - 5, row, keys, SQLW_AS_INT);
        encode_one(w, e, &o, 5, to - 6, row, keys, SQLW_AS_INT);
        encode_one(w, e, &o, 6, to - 7, row, keys, SQLW_AS_LETTER);
        encode_one(w, e, &o, 7, to - 8, row, keys, SQLW_AS_INT);
        encode_one(w, e, &o, USUAL_SOURCE, to - 9, row, keys, e->ops[USUAL_SOURCE].how);
        encode_one(w, e, &o, 9, to - 10, row, keys, SQLW_AS_TEXT);
        encode_one(w, e, &o, 10, to - 11, row, keys, SQLW_AS_TEXT);
        i = USUAL;
    }
    for (; i < to; i++)
        encode_one(w, e, &o, i, to - 1 - i, row, keys, e->ops[i].how);
    out_store(&e->rec, &o);
}
