/* Event rows of the block readers: one issue, completion or requeue of a
 * request, as a row the join (blk_join.c) reads back in input order. The row
 * already has the columns of the joined request, so a completion row becomes
 * the request's row in place. A completion or requeue row holds only what the
 * join reads of it (time, line, device, sector, rwbs, error): the join gives the
 * request the issue's pid, tid, name, bytes, rwbs and comm. */
#include "read/blk.h"

#include <stdio.h>
#include <string.h>

const char *const blk_column_names[BLK_COLS] = {"dev", "sector", "bytes", "rwbs", "comm", "error", "queue_depth"};

void blk_rows_init(struct blk_rows *r, struct spoor_table *t, uint32_t src)
{
    r->t = t;
    r->src = src;
    for (int c = 0; c < BLK_COLS; c++)
        r->col[c] = -1;
    r->cat = spoor_table_intern(t, "block", 5);
    r->dev_id = 0;
    r->rwbs_len = SIZE_MAX;
    memset(&r->comm_memo, 0, sizeof r->comm_memo);
    memset(&r->short_memo, 0, sizeof r->short_memo);
}

static inline struct spoor_column *column(struct blk_rows *r, enum blk_column c)
{
    if (__builtin_expect(r->col[c] < 0, 0)) {
        const char *name = blk_column_names[c];
        struct spoor_column *col = spoor_table_column(r->t, spoor_table_intern(r->t, name, strlen(name)));
        r->col[c] = (int)(col - r->t->cols);
    }
    return &r->t->cols[r->col[c]];
}

/* The first value of a column: through spoor_table_set, which types it. */
static __attribute__((noinline)) void set_first_i64(struct blk_rows *r, struct spoor_column *col, size_t row,
                                                    int64_t v)
{
    char text[24];
    int n = snprintf(text, sizeof text, "%lld", (long long)v);
    struct spoor_value val = {.type = SPOOR_I64, .i64 = v, .text = text, .text_len = (size_t)n};
    spoor_table_set(r->t, col, row, &val);
}

/* Straight into the arrays when the column already holds integers (every
 * row but its first); through spoor_table_set otherwise. */
static inline void set_i64(struct blk_rows *r, enum blk_column c, size_t row, int64_t v)
{
    struct spoor_column *col = column(r, c);
    if (col->typed && col->type == SPOOR_I64) {
        col->i64[row] = v;
        col->valid[row / 64] |= 1ULL << (row % 64);
        return;
    }
    set_first_i64(r, col, row, v);
}

static __attribute__((noinline)) void set_first_str(struct blk_rows *r, struct spoor_column *col, size_t row,
                                                    uint32_t id)
{
    struct spoor_value val = {.type = SPOOR_STR, .str = id, .text = spoor_table_str(r->t, id)};
    val.text_len = strlen(val.text);
    spoor_table_set(r->t, col, row, &val);
}

static inline void set_str(struct blk_rows *r, enum blk_column c, size_t row, uint32_t id)
{
    struct spoor_column *col = column(r, c);
    if (col->typed && col->type == SPOOR_STR) {
        col->str[row] = id;
        col->valid[row / 64] |= 1ULL << (row % 64);
        return;
    }
    set_first_str(r, col, row, id);
}

/* The id of a device's "major,minor", the last one remembered (a trace
 * mostly names one or two devices). */
static uint32_t dev_id(struct blk_rows *r, uint32_t major, uint32_t minor)
{
    uint64_t key = (uint64_t)major << 32 | minor;
    if (r->dev_id && r->dev_key == key)
        return r->dev_id;
    char dev[24];
    int n = snprintf(dev, sizeof dev, "%u,%u", major, minor);
    r->dev_key = key;
    return r->dev_id = spoor_table_intern(r->t, dev, (size_t)n);
}

/* Short strings (rwbs flags, operation names) through a memo, which never
 * reads back strings of 8 bytes or less: they may live in a scratch buffer. */
static uint32_t short_id(struct spoor_string_memo *memo, struct spoor_table *t, const char *s, size_t n)
{
    return n <= 8 ? spoor_memo_intern(memo, t, s, n) : spoor_table_intern(t, s, n);
}

void blk_rows_add(struct blk_rows *r, uint64_t line, const struct blk_event *e)
{
    struct spoor_table *t = r->t;
    size_t row = spoor_table_add_row(t);
    t->src[row] = r->src;
    t->line[row] = line;
    t->ts[row] = e->ts;
    t->ph[row] = (uint8_t)e->kind;
    t->cat[row] = r->cat;
    set_str(r, BLK_COL_DEV, row, dev_id(r, e->major, e->minor));
    if (e->sector != BLK_NO_SECTOR && e->sector <= INT64_MAX)
        set_i64(r, BLK_COL_SECTOR, row, (int64_t)e->sector);
    /* the rwbs flags of a trace take a few values, mostly repeated from line
     * to line: the last one's ids are kept */
    if (e->rwbs_len != r->rwbs_len || memcmp(e->rwbs, r->rwbs, e->rwbs_len) != 0) {
        size_t op_len;
        const char *op = blk_rwbs_op(e->rwbs, e->rwbs_len, &op_len);
        r->op_id = short_id(&r->short_memo, t, op, op_len);
        r->rwbs_id = short_id(&r->short_memo, t, e->rwbs, e->rwbs_len);
        r->rwbs_len = e->rwbs_len <= sizeof r->rwbs ? e->rwbs_len : SIZE_MAX;
        memcpy(r->rwbs, e->rwbs, r->rwbs_len <= sizeof r->rwbs ? r->rwbs_len : 0);
    }
    if (e->kind != BLK_ISSUE) {
        /* the columns an issue's values would make, in the same order: the
         * order of a table's columns shows (spoor sql's select *); rwbs tells
         * the join why a completion has no issue */
        column(r, BLK_COL_BYTES);
        set_str(r, BLK_COL_RWBS, row, r->rwbs_id);
        if (e->comm)
            column(r, BLK_COL_COMM);
        if (e->error != SPOOR_NULL)
            set_i64(r, BLK_COL_ERROR, row, e->error);
        return;
    }
    t->pid[row] = e->pid;
    t->tid[row] = e->tid;
    t->name[row] = r->op_id;
    set_i64(r, BLK_COL_BYTES, row, e->bytes);
    set_str(r, BLK_COL_RWBS, row, r->rwbs_id);
    if (e->comm)
        set_str(r, BLK_COL_COMM, row, spoor_memo_intern(&r->comm_memo, t, e->comm, e->comm_len));
    if (e->error != SPOOR_NULL)
        set_i64(r, BLK_COL_ERROR, row, e->error);
}

const char *blk_rwbs_op(const char *rwbs, size_t len, size_t *op_len)
{
    static const struct {
        char letter;
        const char *op;
    } ops[] = {{'R', "read"}, {'W', "write"}, {'D', "discard"}, {'F', "flush"}};
    char letter = len == 0 ? 'N' : rwbs[0];
    if (len > 1 && rwbs[0] == 'F' && strchr("RWDFN", rwbs[1]))
        letter = rwbs[1];
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].letter == letter) {
            *op_len = strlen(ops[i].op);
            return ops[i].op;
        }
    *op_len = 4;
    return "none";
}

/* LTTng's bits (lttng-modules' block events). */
enum {
    RWBS_WRITE = 1 << 0, RWBS_DISCARD = 1 << 1, RWBS_READ = 1 << 2, RWBS_RAHEAD = 1 << 3,
    RWBS_SYNC = 1 << 5, RWBS_META = 1 << 6, RWBS_SECURE = 1 << 7, RWBS_FLUSH = 1 << 8, RWBS_FUA = 1 << 9,
    RWBS_PREFLUSH = 1 << 10,
};

size_t blk_rwbs_from_bits(uint64_t bits, char *buf)
{
    size_t n = 0;
    if (bits & RWBS_PREFLUSH)
        buf[n++] = 'F';
    if (bits & RWBS_WRITE)
        buf[n++] = 'W';
    else if (bits & RWBS_DISCARD) {
        buf[n++] = 'D';
        if (bits & RWBS_SECURE)
            buf[n++] = 'E';
    } else if (bits & RWBS_FLUSH)
        buf[n++] = 'F';
    else if (bits & RWBS_READ)
        buf[n++] = 'R';
    else
        buf[n++] = 'N';
    if (bits & RWBS_FUA)
        buf[n++] = 'F';
    if (bits & RWBS_RAHEAD)
        buf[n++] = 'A';
    if (bits & RWBS_SYNC)
        buf[n++] = 'S';
    if (bits & RWBS_META)
        buf[n++] = 'M';
    buf[n] = '\0';
    return n;
}
