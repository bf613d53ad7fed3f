/* The indexes events_ts, events_name and events_pid_tid: their keys are
 * kept per row as the rows stream by, sorted natively at the end (NULL
 * first, then by value, ties in rowid order, as SQLite orders index
 * entries) on two threads, and packed into index b-trees one after the other. */
#include "out/sqlite_file/write_sqlite_internal.h"
#include "spoor/table.h"
#include "util/huge_array.h"
#include "util/parallel.h"
#include "util/radix_sort.h"

#include <stdlib.h>

/* Below this many rows a second thread costs more than it saves. */
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
    spoor_huge_free(k->ts_of, k->cap * sizeof *k->ts_of);
    spoor_huge_free(k->pid_of, k->cap * sizeof *k->pid_of);
    spoor_huge_free(k->tid_of, k->cap * sizeof *k->tid_of);
    spoor_huge_free(k->name_of, k->cap * sizeof *k->name_of);
    spoor_strpool_free(k->names);
    memset(k, 0, sizeof *k);
}

/* The key arrays (28 bytes a row) live on huge pages: 4 KiB pages cost a
 * fault each. They start large enough to be mapped so (only what is
 * touched costs), not in malloc'd memory copied out later. */
enum { FIRST_KEYS = 1 << 19 };
void sqlw_keys_grow(struct sqlw_keys *k)
{
    size_t old = k->cap;
    k->cap = k->cap ? k->cap * 2 : FIRST_KEYS;
    if (k->ts)
        k->ts_of = spoor_huge_realloc(k->ts_of, old * sizeof *k->ts_of, k->cap * sizeof *k->ts_of);
    if (k->name)
        k->name_of = spoor_huge_realloc(k->name_of, old * sizeof *k->name_of, k->cap * sizeof *k->name_of);
    if (k->pid_tid) {
        k->pid_of = spoor_huge_realloc(k->pid_of, old * sizeof *k->pid_of, k->cap * sizeof *k->pid_of);
        k->tid_of = spoor_huge_realloc(k->tid_of, old * sizeof *k->tid_of, k->cap * sizeof *k->tid_of);
    }
}

static struct spoor_key_span int_keys(uint64_t *key, const int64_t *v, size_t n)
{
    return spoor_int_keys(key, v, n, SPOOR_NULL).span;
}

/* (pid, tid) as one key, each as its offset from the smallest + 1 with 0 for
 * NULL, when both fit in 63 bits (pids and tids span little): one short sort
 * instead of two. */
static bool pid_tid_keys(const struct sqlw_keys *k, uint64_t *key, struct spoor_key_span *span)
{
    int64_t pid_min, pid_max, tid_min, tid_max;
    spoor_int_span(k->pid_of, k->n, SPOOR_NULL, &pid_min, &pid_max);
    spoor_int_span(k->tid_of, k->n, SPOOR_NULL, &tid_min, &tid_max);
    /* Spans as unsigned differences (a NULL-only column: 0). */
    uint64_t pid_span = pid_min <= pid_max ? (uint64_t)pid_max - (uint64_t)pid_min + 1 : 0;
    uint64_t tid_span = tid_min <= tid_max ? (uint64_t)tid_max - (uint64_t)tid_min + 1 : 0;
    unsigned tid_bits = spoor_bits_of(tid_span);
    if (pid_span >> 62 || tid_span >> 62 || spoor_bits_of(pid_span) + tid_bits > 63)
        return false;
    for (size_t i = 0; i < k->n; i++) {
        int64_t pid = k->pid_of[i], tid = k->tid_of[i];
        uint64_t p = pid == SPOOR_NULL ? 0 : (uint64_t)pid - (uint64_t)pid_min + 1;
        uint64_t t = tid == SPOOR_NULL ? 0 : (uint64_t)tid - (uint64_t)tid_min + 1;
        key[i] = p << tid_bits | t;
        spoor_key_span_add(span, key[i]);
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
static struct spoor_key_span name_keys(const struct sqlw_keys *k, uint64_t *key)
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
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < k->n; i++) {
        key[i] = rank[k->name_of[i]];
        spoor_key_span_add(&span, key[i]);
    }
    free(rank);
    free(order);
    return span;
}

enum which { BY_TS, BY_NAME, BY_PID_TID };

/* A name's part of its index records, made once per name: the record's
 * header size and the text's serial type, then the text. */
struct name_part {
    const char *s;
    size_t len;
    uint8_t head[1 + 9];
    uint8_t head_len;
};

struct entries {
    const struct sqlw_keys *k;
    const uint32_t *rows;
    size_t n;
    struct name_part *names;    /* by name id (0: NULL); the name index only */
};

/* The row of the i-th entry; the key arrays' values for the entry AHEAD
 * places later are fetched meanwhile: entries come mostly in order, and
 * their rows (in key order) are scattered, a cache miss each. */
enum { AHEAD = 16 };

static inline uint32_t entry_row(const struct entries *e, size_t i, const void *key_of, size_t key_size)
{
    if (i + AHEAD < e->n)
        __builtin_prefetch((const char *)key_of + (size_t)e->rows[i + AHEAD] * key_size);
    return e->rows[i];
}

/* The index records of the i-th entry: the key's values, then the rowid
 * (one function per index, each written out: this runs for every entry). */
static void ts_entry(void *ctx, size_t i, struct sqlf_buf *out)
{
    const struct entries *e = ctx;
    uint32_t row = e->rows[i];
    int64_t ts = e->k->ts_of[row], rowid = (int64_t)row + 1;
    uint8_t t = sqlf_int_or_null_type(ts, SPOOR_NULL), r = sqlf_int_type(rowid);
    out->len = 0;
    sqlf_buf_reserve(out, 3 + 8 + 8 + 8);
    uint8_t *p = out->p;
    p[0] = 3;                   /* the header's size, then the types */
    p[1] = t;
    p[2] = r;
    size_t len = 3 + sqlf_put_int_body(p + 3, ts, t);
    out->len = len + sqlf_put_int_body(p + len, rowid, r);
}

static void pid_tid_entry(void *ctx, size_t i, struct sqlf_buf *out)
{
    const struct entries *e = ctx;
    uint32_t row = entry_row(e, i, e->k->pid_of, sizeof *e->k->pid_of);
    if (i + AHEAD < e->n)
        __builtin_prefetch(&e->k->tid_of[e->rows[i + AHEAD]]);
    int64_t pid = e->k->pid_of[row], tid = e->k->tid_of[row], rowid = (int64_t)row + 1;
    uint8_t tp = sqlf_int_or_null_type(pid, SPOOR_NULL), tt = sqlf_int_or_null_type(tid, SPOOR_NULL);
    uint8_t r = sqlf_int_type(rowid);
    out->len = 0;
    sqlf_buf_reserve(out, 4 + 8 + 8 + 8 + 8);
    uint8_t *p = out->p;
    p[0] = 4;
    p[1] = tp;
    p[2] = tt;
    p[3] = r;
    size_t len = 4 + sqlf_put_int_body(p + 4, pid, tp);
    len += sqlf_put_int_body(p + len, tid, tt);
    out->len = len + sqlf_put_int_body(p + len, rowid, r);
}

/* Each name's part, id 0 (NULL) included. */
static struct name_part *name_parts(const struct sqlw_keys *k)
{
    size_t count = spoor_strpool_count(k->names);
    struct name_part *parts = spoor_xcalloc(count + 1, sizeof *parts);
    for (size_t id = 0; id <= count; id++) {
        struct name_part *n = &parts[id];
        if (id)
            n->s = spoor_strpool_get(k->names, (uint32_t)id - 1, &n->len);
        uint64_t type = id ? 13 + 2 * (uint64_t)n->len : 0;
        size_t head = sqlf_record_header_len(sqlf_varint_len(type) + 1);    /* + the rowid's type */
        n->head_len = (uint8_t)sqlf_varint(n->head, head);
        n->head_len += (uint8_t)sqlf_varint(n->head + n->head_len, type);
    }
    return parts;
}

/* The name as text (or NULL), then the rowid, written directly. */
static void name_entry(void *ctx, size_t i, struct sqlf_buf *out)
{
    const struct entries *e = ctx;
    uint32_t row = entry_row(e, i, e->k->name_of, sizeof *e->k->name_of);
    const struct name_part *n = &e->names[e->k->name_of[row]];
    int64_t rowid = (int64_t)row + 1;
    uint8_t rowid_type = sqlf_int_type(rowid);
    out->len = 0;
    sqlf_buf_reserve(out, sizeof n->head + 1 + n->len + 8);
    uint8_t *p = out->p;
    memcpy(p, n->head, sizeof n->head);     /* what is past head_len is overwritten */
    p += n->head_len;
    *p++ = rowid_type;
    if (n->len)
        memcpy(p, n->s, n->len);
    p += n->len;
    out->len = (size_t)(p - out->p) + sqlf_put_int_body(p, rowid, rowid_type);
}

/* One index: its rows sorted by its keys (on either thread), then its
 * b-tree (written in index order, so the file's pages never depend on which
 * thread finished first). */
struct build {
    const struct sqlw_keys *k;
    enum which which;
    uint32_t *rows;             /* n + 1, in the index's order */
    uint32_t root;
};

/* A thread's key arrays, n + 1 each, kept from one index to the next: fresh
 * memory costs a page fault every 4 KiB. */
struct scratch {
    uint64_t *key, *spare;
    uint32_t *rows;
};

/* The rows in the index's order, into s->rows. */
static void sort_rows(const struct sqlw_keys *k, enum which which, struct scratch *s)
{
    struct spoor_key_span span = spoor_key_span_start();
    if (which == BY_TS) {
        span = int_keys(s->key, k->ts_of, k->n);
    } else if (which == BY_NAME) {
        span = name_keys(k, s->key);
    } else if (!pid_tid_keys(k, s->key, &span)) {
        span = int_keys(s->key, k->tid_of, k->n);
        spoor_radix_sort_rows(s->rows, NULL, k->n, s->key, s->spare, &span);
        int_keys(s->key, k->pid_of, k->n);
        spoor_radix_sort_rows_again(s->rows, k->n, s->key);
        return;
    }
    spoor_radix_sort_rows(s->rows, NULL, k->n, s->key, s->spare, &span);
}

static void write_index(struct build *b, struct sqlf_file *f)
{
    static const sqlf_entry_fn entry_of[] = {[BY_TS] = ts_entry, [BY_NAME] = name_entry, [BY_PID_TID] = pid_tid_entry};
    struct entries e = {.k = b->k, .rows = b->rows, .n = b->k->n,
                        .names = b->which == BY_NAME ? name_parts(b->k) : NULL};
    b->root = sqlf_index_write(f, b->k->n, entry_of[b->which], &e);
    free(e.names);
}

/* The indexes to sort, taken in turn by up to two threads, each with its
 * scratch, made on its first index. */
struct builds {
    struct build list[3];
    size_t n;
    struct scratch scratch[2];
};

static void build_one(void *ctx, size_t task, int worker)
{
    struct builds *b = ctx;
    struct build *one = &b->list[task];
    struct scratch *s = &b->scratch[worker];
    size_t n = one->k->n + 1;
    if (!s->key) {
        s->key = spoor_huge_alloc(n * sizeof *s->key);
        s->spare = spoor_huge_alloc(n * sizeof *s->spare);
    }
    s->rows = one->rows;
    sort_rows(one->k, one->which, s);
}

static const struct {
    const char *name, *sql;
} indexes[] = {
    {"events_ts", "CREATE INDEX events_ts ON events(ts)"},
    {"events_name", "CREATE INDEX events_name ON events(name)"},
    {"events_pid_tid", "CREATE INDEX events_pid_tid ON events(pid, tid)"},
};

size_t sqlw_keys_statements(const struct sqlw_keys *k, const char **sql)
{
    const bool wanted[] = {k->ts, k->name, k->pid_tid};
    size_t n = 0;
    for (int which = BY_TS; which <= BY_PID_TID; which++)
        if (wanted[which])
            sql[n++] = indexes[which].sql;
    return n;
}

size_t sqlw_keys_write(struct sqlw_keys *k, struct sqlf_file *f, struct sqlf_object *objects)
{
    const bool wanted[] = {k->ts, k->name, k->pid_tid};
    struct builds b = {.n = 0};
    for (int which = BY_TS; which <= BY_PID_TID; which++)
        if (wanted[which])
            b.list[b.n++] = (struct build){.k = k, .which = (enum which)which,
                                           .rows = spoor_huge_alloc((k->n + 1) * sizeof(uint32_t))};
    spoor_parallel_for(b.n, k->n >= PARALLEL_ROWS ? 2 : 1, build_one, &b);
    for (int w = 0; w < 2; w++) {
        spoor_huge_free(b.scratch[w].key, (k->n + 1) * sizeof *b.scratch[w].key);
        spoor_huge_free(b.scratch[w].spare, (k->n + 1) * sizeof *b.scratch[w].spare);
    }
    for (size_t i = 0; i < b.n; i++) {
        write_index(&b.list[i], f);
        spoor_huge_free(b.list[i].rows, (k->n + 1) * sizeof(uint32_t));
    }
    for (size_t i = 0; i < b.n; i++)
        objects[i] = (struct sqlf_object){.type = "index", .name = indexes[b.list[i].which].name, .table = "events",
                                          .sql = indexes[b.list[i].which].sql, .root = b.list[i].root};
    return b.n;
}
