/* The join of block requests: each issue waits, as a pending request, for
 * the completion of the same device and sector, and the completion's row
 * becomes the request's row (ts = issue time, dur = completion - issue, the
 * issuer's pid, tid, comm, rwbs and bytes, the line of the issue). Runs in
 * input order, one batch at a time, like the B/E pairing of pair.c, so that
 * requests join across batches and the result is the same for any number of
 * threads; memory grows with the requests in flight, not with the trace.
 *
 * Several requests pending on one key (a flush has no sector: it is keyed on
 * its device alone) complete oldest first. The queue depth of a request is
 * the number of its device's requests issued and not yet completed or
 * requeued, itself included, right after its issue. A requeued request is
 * forgotten: it is issued again later. Whatever does not match is counted
 * as skipped, never completed by guesswork. */
#include "read/blk.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pending {
    uint64_t sector;
    uint64_t seq;               /* issue order: the oldest of equal keys goes first */
    uint32_t dev;               /* device index + 1; 0: an empty slot */
    /* The issue's strings: ids in the pool of the batch being joined while
     * `batch` is its number, then (from the batch's end on) in the join's. */
    uint32_t name, rwbs, comm;
    uint64_t batch;
    int64_t ts, pid, tid, bytes, depth;
    uint64_t line;
};

struct blk_join {
    struct pending *slots;      /* open addressing, linear probing */
    size_t nslots, n;
    uint64_t seq;
    uint64_t batch;             /* the number of the batch being joined, from 1 */
    bool times_of_day;          /* times are ns since midnight: a day is added at each midnight */
    int64_t day, last_ts;       /* ns added to each time now; the last time seen (plus day) */
    struct spoor_id_map devs;   /* (major << 32 | minor) -> device index */
    int64_t *in_flight;         /* by device index */
    size_t in_flight_cap;
    struct spoor_strpool *pool;
    uint32_t *keep;
    size_t keep_cap;
};

static struct blk_join *join_new(void)
{
    struct blk_join *j = spoor_xcalloc(1, sizeof *j);
    j->pool = spoor_strpool_new();
    return j;
}

static void join_free(struct blk_join *j)
{
    if (!j)
        return;
    free(j->slots);
    spoor_id_map_free(&j->devs);
    free(j->in_flight);
    free(j->keep);
    spoor_strpool_free(j->pool);
    free(j);
}

static size_t home(const struct blk_join *j, uint32_t dev, uint64_t sector)
{
    uint64_t h = (sector ^ ((uint64_t)dev << 40)) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 32) & (j->nslots - 1);
}

static void put(struct blk_join *j, const struct pending *p)
{
    size_t i = home(j, p->dev, p->sector);
    while (j->slots[i].dev)
        i = (i + 1) & (j->nslots - 1);
    j->slots[i] = *p;
}

static void insert(struct blk_join *j, const struct pending *p)
{
    if ((j->n + 1) * 2 > j->nslots) {
        struct pending *old = j->slots;
        size_t nold = j->nslots;
        j->nslots = nold ? nold * 2 : 64;
        j->slots = spoor_xcalloc(j->nslots, sizeof *j->slots);
        for (size_t i = 0; i < nold; i++)
            if (old[i].dev)
                put(j, &old[i]);
        free(old);
    }
    put(j, p);
    j->n++;
}

/* The slot of the oldest pending request on (dev, sector), or SIZE_MAX. */
static size_t find(const struct blk_join *j, uint32_t dev, uint64_t sector)
{
    if (!j->n)
        return SIZE_MAX;
    size_t best = SIZE_MAX;
    for (size_t i = home(j, dev, sector); j->slots[i].dev; i = (i + 1) & (j->nslots - 1))
        if (j->slots[i].dev == dev && j->slots[i].sector == sector &&
            (best == SIZE_MAX || j->slots[i].seq < j->slots[best].seq))
            best = i;
    return best;
}

/* Empties slot i, shifting back the entries after it whose probe passed it. */
static void take(struct blk_join *j, size_t i)
{
    size_t mask = j->nslots - 1;
    for (size_t k = (i + 1) & mask; j->slots[k].dev; k = (k + 1) & mask) {
        size_t h = home(j, j->slots[k].dev, j->slots[k].sector);
        bool stays = i <= k ? (i < h && h <= k) : (i < h || h <= k);
        if (!stays) {
            j->slots[i] = j->slots[k];
            i = k;
        }
    }
    j->slots[i].dev = 0;
    j->n--;
}

/* The device index + 1 of a "major,minor" text. */
static uint32_t device(struct blk_join *j, const char *text, size_t len)
{
    uint32_t major = 0, minor = 0;
    blk_dev(&text, text + len, &major, &minor);
    uint32_t id = spoor_id_map_id(&j->devs, (uint64_t)major << 32 | minor);
    spoor_grow((void **)&j->in_flight, &j->in_flight_cap, id, sizeof *j->in_flight);
    return id + 1;
}

static int unmatched(struct spoor_skips *skips, const char *path, bool strict, uint64_t line, const char *reason,
                     struct spoor_error *err)
{
    return spoor_skip_or_fail(skips, path, SPOOR_RECORDS_LINES, strict, line, reason, err);
}

/* Why a completion or requeue has no pending issue. A write of no data
 * completed without one is a preflush (an fsync's) that the flush machinery
 * finished itself: the device got the flush request ("FF"), which joins as
 * any request; this one was never issued (real traces hold many). */
static const char *unmatched_reason(const struct spoor_table *b, struct spoor_column *rwbs, size_t i,
                                    uint64_t sector)
{
    if (b->ph[i] == BLK_REQUEUE)
        return "requeue without issue";
    size_t len = 0;
    const char *flags = sector == BLK_NO_SECTOR && spoor_column_valid(rwbs, i)
                            ? spoor_strpool_get(b->pool, rwbs->str[i], &len)
                            : "";
    return len && flags[0] == 'W' ? "empty write finished by a flush" : "completion without issue";
}

static uint32_t pool_copy(struct spoor_strpool *to, const struct spoor_table *b, uint32_t id)
{
    size_t len;
    const char *s = spoor_strpool_get(b->pool, id, &len);
    return spoor_strpool_intern(to, s, len);
}

/* A pending issue's string id, for the batch being joined. */
static uint32_t issue_str(const struct blk_join *j, struct spoor_table *b, const struct pending *p, uint32_t id)
{
    if (p->batch == j->batch || !id)
        return id;
    size_t len;
    const char *s = spoor_strpool_get(j->pool, id, &len);
    return spoor_table_intern(b, s, len);
}

/* Issues still pending at the end of their batch keep their strings in the
 * join's pool, since the batch's is then reused. */
static void keep_strings(struct blk_join *j, const struct spoor_table *b)
{
    for (size_t i = 0; i < j->nslots; i++) {
        struct pending *p = &j->slots[i];
        if (!p->dev || p->batch != j->batch)
            continue;
        p->name = pool_copy(j->pool, b, p->name);
        p->rwbs = pool_copy(j->pool, b, p->rwbs);
        p->comm = p->comm ? pool_copy(j->pool, b, p->comm) : 0;
        p->batch = 0;
    }
}

static void set(struct spoor_column *c, size_t row, int64_t v)
{
    c->i64[row] = v;
    c->valid[row / 64] |= 1ULL << (row % 64);
}

static void set_text(struct spoor_column *c, size_t row, uint32_t id)
{
    c->str[row] = id;
    if (id)
        c->valid[row / 64] |= 1ULL << (row % 64);
    else
        c->valid[row / 64] &= ~(1ULL << (row % 64));
}

/* Completion row e of b becomes the request issued as p. */
static void complete(const struct blk_join *j, struct spoor_table *b, struct spoor_column **col, size_t e,
                     const struct pending *p)
{
    b->dur[e] = b->ts[e] - p->ts;
    b->ts[e] = p->ts;
    b->pid[e] = p->pid;
    b->tid[e] = p->tid;
    b->line[e] = p->line;
    b->ph[e] = 'X';
    b->name[e] = issue_str(j, b, p, p->name);
    set_text(col[BLK_COL_RWBS], e, issue_str(j, b, p, p->rwbs));
    set_text(col[BLK_COL_COMM], e, issue_str(j, b, p, p->comm));
    set(col[BLK_COL_BYTES], e, p->bytes);
    set(col[BLK_COL_QUEUE_DEPTH], e, p->depth);
}

/* The columns of a batch, typed: every one made first (making one may move
 * the others), then queue_depth, which only the join fills, and comm, which
 * a batch of completions alone lacks, given their types. */
static void columns_of(struct spoor_table *b, struct spoor_column **col)
{
    for (int c = 0; c < BLK_COLS; c++)
        spoor_table_column(b, spoor_table_intern(b, blk_column_names[c], strlen(blk_column_names[c])));
    for (int c = 0; c < BLK_COLS; c++) {
        col[c] = spoor_table_find_column(b, blk_column_names[c]);
        if (!col[c]->typed && b->nrows) {
            struct spoor_value v = {.type = c == BLK_COL_COMM || c == BLK_COL_RWBS || c == BLK_COL_DEV ? SPOOR_STR
                                                                                                      : SPOOR_I64,
                                    .text = "0", .text_len = 1};
            spoor_table_set(b, col[c], 0, &v);  /* types it; row 0 is set again or cleared below */
            col[c]->valid[0] &= ~1ULL;
        }
    }
}

/* A time of day on the trace's time line: a day later than it reads from
 * each midnight on (input order is time order). */
static void past_midnight(struct blk_join *j, int64_t *ts)
{
    const int64_t day = 86400 * 1000000000LL;
    if (*ts + j->day < j->last_ts - day / 2 && j->day <= INT64_MAX - 2 * day)
        j->day += day;
    *ts += j->day;
    j->last_ts = *ts;
}

static int join_batch(struct blk_join *j, struct spoor_table *b, struct spoor_skips *skips, const char *path,
                      bool strict, struct spoor_table **view, struct spoor_error *err)
{
    *view = b;
    j->batch++;
    struct spoor_column *col[BLK_COLS];
    columns_of(b, col);
    spoor_reserve((void **)&j->keep, &j->keep_cap, b->nrows, sizeof *j->keep);
    size_t nkeep = 0;
    uint32_t last_dev_str = UINT32_MAX, dev = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        if (j->times_of_day)
            past_midnight(j, &b->ts[i]);
        uint32_t dev_str = col[BLK_COL_DEV]->str[i];
        if (dev_str != last_dev_str) {
            size_t len;
            const char *text = spoor_strpool_get(b->pool, dev_str, &len);
            dev = device(j, text, len);
            last_dev_str = dev_str;
        }
        uint64_t sector = spoor_column_valid(col[BLK_COL_SECTOR], i) ? (uint64_t)col[BLK_COL_SECTOR]->i64[i]
                                                                     : BLK_NO_SECTOR;
        int64_t *in_flight = &j->in_flight[dev - 1];
        if (b->ph[i] == BLK_ISSUE) {
            struct pending p = {
                .sector = sector, .seq = j->seq++, .dev = dev, .ts = b->ts[i], .pid = b->pid[i], .tid = b->tid[i],
                .bytes = col[BLK_COL_BYTES]->i64[i], .depth = ++*in_flight, .line = b->line[i],
                .name = b->name[i], .rwbs = col[BLK_COL_RWBS]->str[i],
                .comm = spoor_column_valid(col[BLK_COL_COMM], i) ? col[BLK_COL_COMM]->str[i] : 0, .batch = j->batch,
            };
            insert(j, &p);
            continue;
        }
        size_t at = find(j, dev, sector);
        int st = SPOOR_OK;
        if (at == SIZE_MAX) {
            st = unmatched(skips, path, strict, b->line[i], unmatched_reason(b, col[BLK_COL_RWBS], i, sector), err);
        } else {
            struct pending p = j->slots[at];
            take(j, at);
            --*in_flight;
            if (b->ph[i] == BLK_REQUEUE)
                continue;
            if (b->ts[i] < p.ts) {  /* both go: which of them is wrong cannot be told */
                st = unmatched(skips, path, strict, p.line, "completion before its issue", err);
                if (st == SPOOR_OK)
                    st = unmatched(skips, path, strict, b->line[i], "completion before its issue", err);
            } else {
                complete(j, b, col, i, &p);
                j->keep[nkeep++] = (uint32_t)i;
            }
        }
        if (st != SPOOR_OK)
            return st;
    }
    keep_strings(j, b);
    if (nkeep < b->nrows)   /* in place: the batch is the loader's own until it parses the next chunk */
        spoor_table_keep_rows(b, j->keep, nkeep);
    return SPOOR_OK;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* At the end: every request still pending was issued and never completed. */
static int join_finish(struct blk_join *j, struct spoor_skips *skips, const char *path, bool strict,
                       struct spoor_error *err)
{
    if (j->n == 0)
        return SPOOR_OK;
    uint64_t *lines = spoor_xmalloc(j->n * sizeof *lines);
    size_t n = 0;
    for (size_t i = 0; i < j->nslots; i++)
        if (j->slots[i].dev)
            lines[n++] = j->slots[i].line;
    qsort(lines, n, sizeof *lines, by_value);
    int st = SPOOR_OK;
    for (size_t i = 0; i < n && st == SPOOR_OK; i++)
        st = unmatched(skips, path, strict, lines[i], "issue without completion", err);
    free(lines);
    return st;
}

int blk_format_join(struct spoor_dialect *d, struct spoor_table *batch, struct spoor_skips *skips, const char *path,
                    bool strict, struct spoor_table **view, struct spoor_error *err)
{
    if (!batch)
        return join_finish(d->state, skips, path, strict, err);
    return join_batch(d->state, batch, skips, path, strict, view, err);
}

int64_t blk_format_oldest_pending(const struct spoor_dialect *d, int64_t since)
{
    const struct blk_join *j = d->state;
    int64_t oldest = INT64_MAX;
    for (size_t i = 0; j->n && i < j->nslots; i++)
        if (j->slots[i].dev && j->slots[i].ts >= since && j->slots[i].ts < oldest)
            oldest = j->slots[i].ts;
    return oldest;
}

void blk_format_release(struct spoor_dialect *d)
{
    join_free(d->state);
    d->state = NULL;
}

void blk_format_begin(struct spoor_dialect *d, const struct spoor_format *f, const char *assumed)
{
    d->format = f;
    snprintf(d->name, sizeof d->name, "%s", f->name);
    snprintf(d->assumed, sizeof d->assumed, "%s", assumed);
    d->ts_unit = d->dur_unit = SPOOR_UNIT_NS;
    d->records = SPOOR_RECORDS_LINES;
    d->state = join_new();
}

void blk_format_times_of_day(struct spoor_dialect *d)
{
    struct blk_join *j = d->state;
    j->times_of_day = true;
    j->last_ts = INT64_MIN / 2;
}
