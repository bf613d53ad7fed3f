/* Records encoded on the load's workers (map), in parallel, leaving to input
 * order (reduce) only what it alone knows: the deferred columns (line, file,
 * host and any between them) and the rowids. A worker encodes a batch when
 * every args key it holds already has its column (columns are added in
 * input order); otherwise the batch is encoded in reduce, as a whole.
 *
 * Per row the worker keeps the serial types and the body of the columns
 * before the deferred ones (pre) and after them (post); reduce encodes the
 * deferred columns and splices: header size, pre types, deferred types,
 * post types, then the bodies in the same order. Trailing NULLs are dropped
 * as a record drops them. */
#include "out/sqlite_file/write_sqlite_internal.h"
#include "spoor/write.h"
#include "util/grow.h"

#include <stdlib.h>

/* Per row: pre types (all), pre types up to its last non-NULL value, post
 * types (up to its last non-NULL), pre body, post body. */
enum { PRE_TYPES, PRE_USED, POST_TYPES, PRE_BODY, POST_BODY, NLENS };

struct sqlw_prepared {
    char apart[64];                     /* filled by one worker: no cache line shared with another's */
    const struct spoor_table *batch;    /* NULL when free */
    size_t n, cap;
    uint32_t *rows;                     /* the batch rows encoded */
    uint32_t (*len)[NLENS];
    struct sqlf_buf types, body;        /* every row's, back to back */
    int64_t *ts, *pid, *tid;            /* index keys (of the columns encoded here) */
    uint32_t *name;
    char apart_end[64];
};

void sqlw_prepared_free(struct spoor_sqlite_writer *w)
{
    for (size_t i = 0; i < w->nprepared; i++) {
        struct sqlw_prepared *p = w->prepared[i];
        free(p->rows);
        free(p->len);
        sqlf_buf_free(&p->types);
        sqlf_buf_free(&p->body);
        free(p->ts);
        free(p->pid);
        free(p->tid);
        free(p->name);
        free(p);
    }
    free(w->prepared);
}

/* A free slot for batch t (w->mu held). */
static struct sqlw_prepared *claim(struct spoor_sqlite_writer *w, const struct spoor_table *t)
{
    for (size_t i = 0; i < w->nprepared; i++)
        if (!w->prepared[i]->batch) {
            w->prepared[i]->batch = t;
            return w->prepared[i];
        }
    w->prepared = spoor_xrealloc(w->prepared, (w->nprepared + 1) * sizeof *w->prepared);
    struct sqlw_prepared *p = w->prepared[w->nprepared++] = spoor_xcalloc(1, sizeof *p);
    p->batch = t;
    return p;
}

static void reserve_rows(struct sqlw_prepared *p, const struct sqlw_keys *k, size_t n)
{
    p->n = n;
    p->types.len = p->body.len = 0;
    struct spoor_lane lanes[6] = {SPOOR_LANE(p->rows), SPOOR_LANE(p->len)};
    size_t nlanes = 2;
    if (k->ts)
        lanes[nlanes++] = SPOOR_LANE(p->ts);
    if (k->pid_tid) {
        lanes[nlanes++] = SPOOR_LANE(p->pid);
        lanes[nlanes++] = SPOOR_LANE(p->tid);
    }
    if (k->name)
        lanes[nlanes++] = SPOOR_LANE(p->name);
    spoor_reserve_lanes(&p->cap, n, lanes, nlanes);
}

/* The worker's encoder bound to t's columns, or NULL when t has a typed
 * args key without a column yet (w->mu held). */
static struct sqlw_encoder *bind_worker(struct spoor_sqlite_writer *w, int worker, const struct spoor_table *t)
{
    if ((size_t)worker >= w->nworkers) {
        w->workers = spoor_xrealloc(w->workers, ((size_t)worker + 1) * sizeof *w->workers);
        memset(w->workers + w->nworkers, 0, ((size_t)worker + 1 - w->nworkers) * sizeof *w->workers);
        w->nworkers = (size_t)worker + 1;
    }
    if (!w->workers[worker])
        w->workers[worker] = spoor_xcalloc(1, sizeof *w->workers[worker]);
    struct sqlw_encoder *e = w->workers[worker];
    sqlw_encoder_start(e, t, w->affinity, w->ncolumns, w->name_col != SIZE_MAX);
    for (size_t i = 0; w->defaults && i < t->ncols; i++) {
        const struct spoor_column *c = &t->cols[i];
        size_t len;
        const char *key = spoor_strpool_get(t->pool, c->name, &len);
        uint32_t id = spoor_strpool_find(w->keys_seen, key, len);
        uint32_t column = id < w->column_of_key_cap ? w->column_of_key[id] : 0;
        if (!column && c->typed)
            return NULL;
        if (column)
            spoor_view_bind(&e->views[column - 1], SPOOR_FIELD_ARG, key, len, t, NULL);
    }
    for (size_t i = 0; i < w->ncols; i++)
        if (i < w->deferred_from || i >= w->deferred_to)
            spoor_view_bind(&e->views[i], w->cols[i].field, w->cols[i].key, w->cols[i].key_len, t, NULL);
    sqlw_encoder_plan(w, e);
    return e;
}

int spoor_sqlite_writer_prepare(struct spoor_sqlite_writer *w, int worker, const struct spoor_table *t,
                                const uint32_t *sel, size_t n)
{
    if (!sel)
        n = t->nrows;
    if (!n || w->via)   /* through SQLite: every row in input order */
        return SPOOR_OK;
    pthread_mutex_lock(&w->mu);
    struct sqlw_encoder *e = bind_worker(w, worker, t);
    struct sqlw_prepared *p = e ? claim(w, t) : NULL;
    pthread_mutex_unlock(&w->mu);
    if (!p)
        return SPOOR_OK;
    /* What is read every row is copied first: the writer's fields share
     * cache lines with what input order writes every row (keys.n). */
    const struct sqlw_keys *k = &w->keys;
    const bool ts = k->ts, pid_tid = k->pid_tid, name = k->name;
    const size_t from = w->deferred_from, to = w->deferred_to, ncolumns = e->n;
    reserve_rows(p, k, n);
    /* The rows' types and bodies are encoded straight into p's buffers, back
     * to back: the encoder's record borrows them for the batch. */
    struct sqlf_record *rec = &e->rec;
    struct sqlf_buf own_types = rec->types, own_body = rec->body;
    rec->types = p->types;
    rec->body = p->body;
    for (size_t i = 0; i < n; i++) {
        size_t row = sel ? sel[i] : i;
        p->rows[i] = (uint32_t)row;
        struct sqlw_row_keys keys = {
            .ts = ts ? &p->ts[i] : NULL,
            .pid = pid_tid ? &p->pid[i] : NULL,
            .tid = pid_tid ? &p->tid[i] : NULL,
            .name = name ? &p->name[i] : NULL,
        };
        uint32_t *len = p->len[i];
        size_t types_from = rec->types.len, body_from = rec->body.len;
        rec->types_used = types_from;
        sqlw_encode(w, e, 0, from, row, &keys);
        size_t post_from = rec->types.len;
        len[PRE_TYPES] = (uint32_t)(post_from - types_from);
        len[PRE_USED] = (uint32_t)(rec->types_used - types_from);
        len[PRE_BODY] = (uint32_t)(rec->body.len - body_from);
        sqlw_encode(w, e, to, ncolumns, row, &keys);
        len[POST_TYPES] = (uint32_t)(rec->types_used > post_from ? rec->types_used - post_from : 0);
        len[POST_BODY] = (uint32_t)(rec->body.len - body_from - len[PRE_BODY]);
        rec->types.len = post_from + len[POST_TYPES];     /* without the trailing NULLs */
    }
    p->types = rec->types;
    p->body = rec->body;
    rec->types = own_types;
    rec->body = own_body;
    return SPOOR_OK;
}

/* How prepared row i and the deferred columns in rec make one record. */
struct splice {
    size_t pre, mid, post;      /* serial types taken from each part */
    size_t head, len;           /* header and record sizes */
};

static struct splice splice_plan(const uint32_t *len, const struct sqlf_record *rec)
{
    struct splice s = {.post = len[POST_TYPES]};
    s.mid = s.post ? rec->types.len : rec->types_used;
    s.pre = s.post || s.mid ? len[PRE_TYPES] : len[PRE_USED];
    s.head = sqlf_record_header_len(s.pre + s.mid + s.post);
    s.len = s.head + len[PRE_BODY] + rec->body.len + len[POST_BODY];
    return s;
}

static uint8_t *put(uint8_t *at, const uint8_t *p, size_t n)
{
    if (n)
        memcpy(at, p, n);
    return at + n;
}

/* Writes the record at out: header size, pre, deferred and post types, then
 * the bodies in the same order. */
static void splice(const struct splice *s, const uint32_t *len, const uint8_t *types, const uint8_t *body,
                   const struct sqlf_record *rec, uint8_t *out)
{
    out += sqlf_varint(out, s->head);
    out = put(out, types, s->pre);
    out = put(out, rec->types.p, s->mid);
    out = put(out, types + len[PRE_TYPES], s->post);
    out = put(out, body, len[PRE_BODY]);
    out = put(out, rec->body.p, rec->body.len);
    put(out, body + len[PRE_BODY], len[POST_BODY]);
}

bool sqlw_prepared_write(struct spoor_sqlite_writer *w, const struct spoor_table *t)
{
    struct sqlw_prepared *p = NULL;
    pthread_mutex_lock(&w->mu);
    for (size_t i = 0; i < w->nprepared && !p; i++)
        if (w->prepared[i]->batch == t)
            p = w->prepared[i];
    pthread_mutex_unlock(&w->mu);
    if (!p)
        return false;
    struct sqlw_keys *k = &w->keys;
    const uint8_t *types = p->types.p, *body = p->body.p;
    for (size_t i = 0; i < p->n; i++) {
        struct sqlw_row_keys keys = sqlw_keys_next(k);
        if (keys.ts)
            *keys.ts = p->ts[i];
        if (keys.pid) {
            *keys.pid = p->pid[i];
            *keys.tid = p->tid[i];
        }
        if (keys.name)
            *keys.name = p->name[i];
        sqlf_record_clear(&w->main.rec);
        sqlw_encode(w, &w->main, w->deferred_from, w->deferred_to, p->rows[i], &keys);
        struct splice s = splice_plan(p->len[i], &w->main.rec);
        uint8_t *at = sqlf_table_place(&w->events, ++w->rowid, s.len);
        if (at) {
            splice(&s, p->len[i], types, body, &w->main.rec, at);
        } else {    /* it spills to overflow pages */
            w->bytes.len = 0;
            sqlf_buf_reserve(&w->bytes, s.len);
            splice(&s, p->len[i], types, body, &w->main.rec, w->bytes.p);
            sqlf_table_add(&w->events, w->rowid, w->bytes.p, s.len);
        }
        types += p->len[i][PRE_TYPES] + p->len[i][POST_TYPES];
        body += p->len[i][PRE_BODY] + p->len[i][POST_BODY];
    }
    pthread_mutex_lock(&w->mu);
    p->batch = NULL;
    pthread_mutex_unlock(&w->mu);
    return true;
}
