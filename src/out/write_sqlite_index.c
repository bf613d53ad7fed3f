/* The indexes events_ts, events_name and events_pid_tid: their keys are
 * kept per row as the rows stream by, sorted natively at the end (NULL
 * first, then by value, ties in rowid order, as SQLite orders index
 * entries) and packed into index b-trees. */
#include "out/write_sqlite_internal.h"
#include "spoor/strpool.h"

#include <pthread.h>
#include <stdlib.h>

/* Below this many rows a second sorting thread costs more than it saves. */
enum { PARALLEL_ROWS = 1 << 16 };

void sqlw_keys_init(struct sqlw_keys *k, bool ts, bool name, bool pid_tid)
{
    memset(k, 0, sizeof *k);
    k->ts = ts;
    k->name = name;
    k->pid_tid = pid_tid;
    if (name)
        k->names = spoor_strpool_new();
}

void sqlw_keys_free(struct sqlw_keys *k)
{
    free(k->ts_of);
    free(k->pid_of);
    free(k->tid_of);
    free(k->name_of);
    spoor_strpool_free(k->names);
    memset(k, 0, sizeof *k);
}

void sqlw_keys_grow(struct sqlw_keys *k)
{
    if (k->n < k->cap)
        return;
    k->cap = k->cap * 2 + 4096;
    if (k->ts)
        k->ts_of = spoor_xrealloc(k->ts_of, k->cap * sizeof *k->ts_of);
    if (k->name)
        k->name_of = spoor_xrealloc(k->name_of, k->cap * sizeof *k->name_of);
    if (k->pid_tid) {
        k->pid_of = spoor_xrealloc(k->pid_of, k->cap * sizeof *k->pid_of);
        k->tid_of = spoor_xrealloc(k->tid_of, k->cap * sizeof *k->tid_of);
    }
}

/* Integers (SPOOR_NULL = NULL) as unsigned keys in the same order, NULL first. */
static void int_keys(uint64_t *key, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        key[i] = (uint64_t)v[i] ^ (UINT64_C(1) << 63);
}

/* (pid, tid) as one key, each as value + 1 with 0 for NULL, when both fit
 * in 32 bits (pids and tids do): one sort instead of two. */
static bool pid_tid_keys(const struct sqlw_keys *k, uint64_t *key)
{
    for (size_t i = 0; i < k->n; i++) {
        int64_t pid = k->pid_of[i], tid = k->tid_of[i];
        if ((pid != SPOOR_NULL && (pid < 0 || pid >= INT32_MAX)) || (tid != SPOOR_NULL && (tid < 0 || tid >= INT32_MAX)))
            return false;
        key[i] = (pid == SPOOR_NULL ? 0 : (uint64_t)pid + 1) << 32 | (tid == SPOOR_NULL ? 0 : (uint64_t)tid + 1);
    }
    return true;
}

struct name_rank {
    const char *s;
    size_t len;
    uint32_t id;
};

/* BINARY collation: bytes compared, then the shorter first. */
static int by_bytes(const void *a, const void *b)
{
    const struct name_rank *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Names as their rank in BINARY order (NULL, id 0, ranks first). */
static void name_keys(const struct sqlw_keys *k, uint64_t *key)
{
    size_t count = spoor_strpool_count(k->names);
    struct name_rank *order = spoor_xmalloc((count + 1) * sizeof *order);
    for (uint32_t id = 0; id < count; id++) {
        order[id].s = spoor_strpool_get(k->names, id, &order[id].len);
        order[id].id = id;
    }
    qsort(order, count, sizeof *order, by_bytes);
    uint64_t *rank = spoor_xmalloc((count + 1) * sizeof *rank);
    rank[0] = 0;
    for (size_t r = 0; r < count; r++)
        rank[order[r].id + 1] = r + 1;
    for (size_t i = 0; i < k->n; i++)
        key[i] = rank[k->name_of[i]];
    free(rank);
    free(order);
}

enum which { BY_TS, BY_NAME, BY_PID_TID };

struct entries {
    const struct sqlw_keys *k;
    const uint32_t *rows;
    enum which which;
    struct sqlf_record rec;
};

static void put_int(struct sqlf_record *rec, int64_t v)
{
    if (v == SPOOR_NULL)
        sqlf_record_null(rec);
    else
        sqlf_record_int(rec, v);
}

/* The index record of the i-th entry: the key's values, then the rowid. */
static void entry_record(void *ctx, size_t i, struct sqlf_buf *out)
{
    struct entries *e = ctx;
    const struct sqlw_keys *k = e->k;
    uint32_t row = e->rows[i];
    sqlf_record_clear(&e->rec);
    if (e->which == BY_TS) {
        put_int(&e->rec, k->ts_of[row]);
    } else if (e->which == BY_NAME) {
        if (!k->name_of[row]) {
            sqlf_record_null(&e->rec);
        } else {
            size_t len;
            const char *s = spoor_strpool_get(k->names, k->name_of[row] - 1, &len);
            sqlf_record_text(&e->rec, s, len);
        }
    } else {
        put_int(&e->rec, k->pid_of[row]);
        put_int(&e->rec, k->tid_of[row]);
    }
    sqlf_record_int(&e->rec, (int64_t)row + 1);
    sqlf_record_finish(&e->rec, out);
}

/* One index's order: its rows sorted by its keys. */
struct sorting {
    const struct sqlw_keys *k;
    enum which which;
    uint32_t *rows;
};

static void *sort_index(void *arg)
{
    struct sorting *s = arg;
    const struct sqlw_keys *k = s->k;
    uint64_t *key = spoor_xmalloc((k->n + 1) * sizeof *key);
    s->rows = spoor_xmalloc((k->n + 1) * sizeof *s->rows);
    for (size_t i = 0; i < k->n; i++)
        s->rows[i] = (uint32_t)i;
    if (s->which == BY_TS) {
        int_keys(key, k->ts_of, k->n);
    } else if (s->which == BY_NAME) {
        name_keys(k, key);
    } else if (!pid_tid_keys(k, key)) {
        int_keys(key, k->tid_of, k->n);
        sqlf_sort_rows(s->rows, k->n, key);
        int_keys(key, k->pid_of, k->n);
    }
    sqlf_sort_rows(s->rows, k->n, key);
    free(key);
    return NULL;
}

size_t sqlw_keys_write(struct sqlw_keys *k, struct sqlf_file *f, struct sqlf_object *objects)
{
    static const struct {
        const char *name, *sql;
    } indexes[] = {
        {"events_ts", "CREATE INDEX events_ts ON events(ts)"},
        {"events_name", "CREATE INDEX events_name ON events(name)"},
        {"events_pid_tid", "CREATE INDEX events_pid_tid ON events(pid, tid)"},
    };
    const bool wanted[] = {k->ts, k->name, k->pid_tid};
    struct sorting sorts[3];
    size_t n = 0;
    for (int which = BY_TS; which <= BY_PID_TID; which++)
        if (wanted[which])
            sorts[n++] = (struct sorting){.k = k, .which = (enum which)which};
    /* The first sort on a second thread while this one does the others. */
    pthread_t helper;
    bool two = n > 1 && k->n >= PARALLEL_ROWS && pthread_create(&helper, NULL, sort_index, &sorts[0]) == 0;
    for (size_t i = two ? 1 : 0; i < n; i++)
        sort_index(&sorts[i]);
    if (two)
        pthread_join(helper, NULL);
    for (size_t i = 0; i < n; i++) {
        struct entries e = {.k = k, .rows = sorts[i].rows, .which = sorts[i].which};
        objects[i] = (struct sqlf_object){.type = "index", .name = indexes[e.which].name, .table = "events",
                                          .sql = indexes[e.which].sql,
                                          .root = sqlf_index_write(f, k->n, entry_record, &e)};
        sqlf_record_free(&e.rec);
        free(sorts[i].rows);
    }
    return n;
}
