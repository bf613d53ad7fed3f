/* Counter tracks of a Perfetto export (see perfetto_counters.h): sums per
 * (series, bucket) in one bucket_sums, a series being (process, layer, kind),
 * written as samples in series and time order at the end. */
#include "out/perfetto_counters.h"

#include "ops/event_bytes.h"
#include "spoor/error.h"
#include "spoor/report.h"
#include "spoor/write.h"
#include "util/bucket_sums.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <stdlib.h>

/* What a series sums: bytes of reads, writes, other calls; busy ns. */
enum series_kind { KIND_READ, KIND_WRITE, KIND_OTHER, KIND_BUSY, KINDS };
static const char *const kind_key[KINDS] = {"read", "write", "other", "threads"};

struct perfetto_counters {
    int64_t every;                  /* fixed width in ns; 0: powers of two */
    struct bucket_sums sums;        /* row: series id */
    struct spoor_id_map pids;       /* pid: index */
    struct spoor_id_map series;     /* pid index << 32 | cat << 2 | kind: series id */
    struct spoor_strpool *cats;
    /* Per series, its last cell: calls of a series come mostly in time
     * order, so most adds skip the cells' hash (forgotten when the buckets
     * widen, which renumbers the cells). */
    struct last_cell { int64_t bucket; uint32_t id; } *last;
    size_t last_cap;
    struct last_pid { bool known; int64_t pid; uint64_t index; } last_pid;
    /* per batch */
    uint32_t *cat_of;               /* batch cat id: id in cats, UINT32_MAX: not yet */
    uint8_t *kind_of;               /* batch name id: kind + 1, 0: not yet */
    size_t cat_cap, kind_cap;
    char *name;                     /* a sample's name, being written */
    size_t name_cap;
};

struct perfetto_counters *perfetto_counters_new(int64_t every)
{
    struct perfetto_counters *c = spoor_xcalloc(1, sizeof *c);
    c->every = every;
    bucket_sums_init(&c->sums, every ? 0 : 10); /* a fixed width never coarsens: its shift is unused */
    c->cats = spoor_strpool_new();
    return c;
}

void perfetto_counters_free(struct perfetto_counters *c)
{
    if (!c)
        return;
    bucket_sums_free(&c->sums);
    spoor_id_map_free(&c->pids);
    spoor_id_map_free(&c->series);
    spoor_strpool_free(c->cats);
    free(c->cat_of);
    free(c->kind_of);
    free(c->name);
    free(c->last);
    free(c);
}

int64_t perfetto_counters_width(const struct perfetto_counters *c)
{
    return c->every ? c->every : (int64_t)1 << c->sums.shift;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return q - (a % b != 0 && (a < 0) != (b < 0));
}

static int64_t bucket_of(const struct perfetto_counters *c, int64_t t)
{
    return c->every ? floor_div(t, c->every) : t >> c->sums.shift;
}

/* Adds total over the buckets [start, end) overlaps, each its share of the
 * overlap rounded so that the shares so far add up to the share of the
 * overlap so far: the last bucket completes total exactly. make_room has
 * kept every bucket within reach of the sums' base. */
static void spread(struct perfetto_counters *c, uint32_t series, int64_t start, int64_t end, int64_t total)
{
    int64_t width = perfetto_counters_width(c), dur = end - start, given = 0;
    int64_t first = bucket_of(c, start), last = dur > 0 ? bucket_of(c, end - 1) : first;
    for (int64_t k = first; k <= last; k++) {
        int64_t done = (k == last ? end : (k + 1) * width) - start;
        int64_t upto = k == last ? total : total == dur ? done : (int64_t)((__int128)total * done / dur);
        struct last_cell *l = &c->last[series];
        if (l->bucket != k) {
            *l = (struct last_cell){k, bucket_sums_cell(&c->sums, series, k)};
        }
        c->sums.sum[l->id] += upto - given;
        given = upto;
    }
}

/* Room for [start, end): wider buckets, or with a fixed width, an error when
 * the run would need too many. */
static int make_room(struct perfetto_counters *c, int64_t start, int64_t end, struct spoor_error *err)
{
    struct bucket_sums *s = &c->sums;
    if (!c->every) {
        int shift = s->shift;
        bucket_sums_fit(s, start, end, PERFETTO_COUNTER_BUCKETS);
        while (s->cells.n > PERFETTO_COUNTER_CELLS && bucket_sums_range(s) > 1)
            bucket_sums_coarsen(s, s->shift + 1);
        for (size_t i = 0; i < c->series.n && s->shift != shift; i++)
            c->last[i].bucket = INT64_MIN;
        return SPOOR_OK;
    }
    int64_t first = bucket_of(c, start), last = end > start ? bucket_of(c, end - 1) : first;
    int64_t lo = s->cells.n && s->lo < first ? s->lo : first, hi = s->cells.n && s->hi > last ? s->hi : last;
    bool too_long = hi - lo >= PERFETTO_COUNTER_CELLS / 2;
    if (!too_long && s->cells.n <= PERFETTO_COUNTER_CELLS)
        return SPOOR_OK;
    char width[32];
    spoor_fmt_duration(width, sizeof width, (double)c->every);
    return spoor_fail(err, SPOOR_EUSAGE, "counter buckets of %s: %s %d; choose a wider --counter-every", width,
                      too_long ? "the run spans more buckets than" : "(process, layer, bucket) cells number more than",
                      too_long ? PERFETTO_COUNTER_CELLS / 2 : PERFETTO_COUNTER_CELLS);
}

static uint32_t cat_id(struct perfetto_counters *c, const struct spoor_table *t, uint32_t cat)
{
    if (c->cat_of[cat] == UINT32_MAX) {
        size_t len;
        const char *s = spoor_strpool_get(t->pool, cat, &len);
        c->cat_of[cat] = spoor_strpool_intern(c->cats, s, len);
    }
    return c->cat_of[cat];
}

static enum series_kind kind_of(struct perfetto_counters *c, const struct spoor_table *t, uint32_t name)
{
    if (!c->kind_of[name]) {
        enum event_op op = event_op_class(spoor_strpool_get(t->pool, name, NULL));
        c->kind_of[name] = (uint8_t)(1 + (op == EVENT_OP_READ ? KIND_READ : op == EVENT_OP_WRITE ? KIND_WRITE : KIND_OTHER));
    }
    return (enum series_kind)(c->kind_of[name] - 1);
}

static uint32_t series_of(struct perfetto_counters *c, uint64_t pid_index, uint32_t cat, enum series_kind kind)
{
    size_t n = c->series.n;
    uint32_t id = spoor_id_map_id(&c->series, pid_index << 32 | (uint64_t)cat << 2 | (uint64_t)kind);
    if (id == n) {
        spoor_grow((void **)&c->last, &c->last_cap, id, sizeof *c->last);
        c->last[id].bucket = INT64_MIN;
    }
    return id;
}

/* A row's ts and dur (0 when absent or negative); false for metadata, a row
 * without ts, or one ending past the int64 ns. */
static bool call_span(const struct spoor_table *t, size_t r, int64_t *ts, int64_t *dur)
{
    *ts = t->ts[r];
    *dur = t->dur[r] != SPOOR_NULL && t->dur[r] > 0 ? t->dur[r] : 0;
    return t->ph[r] != 'M' && *ts != SPOOR_NULL && *ts <= INT64_MAX - *dur;
}

/* The width that holds the first batch's calls, before any cell: the run
 * then widens it a few times, not from 1 us up, each widening a pass over the
 * cells. */
static void fit_first(struct perfetto_counters *c, const struct spoor_table *t, const uint32_t *sel, size_t n)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        size_t r = sel ? sel[i] : i;
        int64_t ts, dur;
        if (!call_span(t, r, &ts, &dur))
            continue;
        lo = ts < lo ? ts : lo;
        hi = ts + dur > hi ? ts + dur : hi;
    }
    if (lo <= hi)
        bucket_sums_fit(&c->sums, lo, hi, PERFETTO_COUNTER_BUCKETS);
}

int perfetto_counters_add(struct perfetto_counters *c, const struct spoor_table *t, const uint32_t *sel, size_t n,
                          struct spoor_error *err)
{
    if (!sel)
        n = t->nrows;
    size_t nstrings = spoor_strpool_count(t->pool);
    spoor_grow((void **)&c->cat_of, &c->cat_cap, nstrings, sizeof *c->cat_of);
    memset(c->cat_of, 0xff, nstrings * sizeof *c->cat_of);
    spoor_grow((void **)&c->kind_of, &c->kind_cap, nstrings, sizeof *c->kind_of);
    memset(c->kind_of, 0, nstrings * sizeof *c->kind_of);
    struct event_bytes eb;
    event_bytes_bind(&eb, t);
    if (!c->every && !c->sums.cells.n)
        fit_first(c, t, sel, n);
    for (size_t i = 0; i < n; i++) {
        size_t r = sel ? sel[i] : i;
        int64_t ts, dur;
        if (!call_span(t, r, &ts, &dur))
            continue;
        int64_t bytes = event_bytes_of(&eb, t, r);
        if (bytes == SPOOR_NULL && !dur)
            continue;
        int st = make_room(c, ts, ts + dur, err);
        if (st != SPOOR_OK)
            return st;
        if (!c->last_pid.known || c->last_pid.pid != t->pid[r])
            c->last_pid = (struct last_pid){true, t->pid[r], spoor_id_map_id(&c->pids, (uint64_t)t->pid[r])};
        uint64_t pid = c->last_pid.index;
        uint32_t cat = cat_id(c, t, t->cat[r]);
        uint32_t moved = bytes != SPOOR_NULL ? series_of(c, pid, cat, kind_of(c, t, t->name[r])) : UINT32_MAX;
        uint32_t busy = dur ? series_of(c, pid, cat, KIND_BUSY) : UINT32_MAX;
        if (c->series.n > BUCKET_ROWS_MAX)
            return spoor_fail(err, SPOOR_EUSAGE, "counter tracks: more than %u (process, layer) series; "
                              "use --no-counters", BUCKET_ROWS_MAX);
        if (moved != UINT32_MAX)
            spread(c, moved, ts, ts + dur, bytes);
        if (busy != UINT32_MAX)
            spread(c, busy, ts, ts + dur, dur);
    }
    return SPOOR_OK;
}

struct cell {
    uint64_t key; /* series << BUCKET_REL_BITS | relative bucket, as the sums' */
    int64_t sum;
};

static int cell_order(const void *a, const void *b)
{
    uint64_t x = ((const struct cell *)a)->key, y = ((const struct cell *)b)->key;
    return x < y ? -1 : x > y;
}

/* sum x scale / width as a decimal with just enough digits that the value
 * times width / scale rounds back to sum: d decimals with 10^d > width /
 * scale (so 1.5 threads, 750000 bytes/s), in integers, trailing zeros cut. */
static void put_ratio(struct wbuf *out, int64_t sum, int64_t scale, int64_t width)
{
    int d = 0;
    unsigned __int128 pow = 1;
    while (pow * (unsigned __int128)scale <= (unsigned __int128)width)
        pow *= 10, d++;
    unsigned __int128 den = (unsigned __int128)width, q = ((unsigned __int128)sum * scale * pow + den / 2) / den;
    char digits[48];
    int n = 0;
    for (; q || n <= d; q /= 10)
        digits[n++] = (char)('0' + (int)(q % 10));
    int cut = 0;
    while (cut < d && digits[cut] == '0')
        cut++;
    for (int i = n - 1; i >= cut; i--) {
        if (i == d - 1)
            wbuf_byte(out, '.');
        wbuf_byte(out, digits[i]);
    }
}

static void put_sample(struct perfetto_counters *c, struct wbuf *out, uint32_t series, int64_t bucket, int64_t sum)
{
    uint64_t key = c->series.keys[series];
    enum series_kind kind = (enum series_kind)(key & 3);
    int64_t pid = (int64_t)c->pids.keys[key >> 32];
    size_t len;
    const char *cat = spoor_strpool_get(c->cats, (uint32_t)(key >> 2 & 0x3fffffff), &len);
    const char *what = kind == KIND_BUSY ? "busy" : "bytes/s";
    size_t wlen = strlen(what);
    spoor_reserve((void **)&c->name, &c->name_cap, len + wlen + 1, 1);
    memcpy(c->name, cat, len);
    c->name[len] = ' ';
    memcpy(c->name + len + 1, what, wlen);
    wbuf_put(out, "\"ph\":\"C\",\"name\":", 16);
    if (len) /* "POSIX bytes/s"; without a cat, "bytes/s" */
        json_text(out, c->name, len + 1 + wlen);
    else
        json_text(out, what, wlen);
    wbuf_put(out, ",\"cat\":\"" SPOOR_PERFETTO_COUNTER_CAT "\"", 8 + sizeof SPOOR_PERFETTO_COUNTER_CAT);
    if (pid != SPOOR_NULL) {
        wbuf_put(out, ",\"pid\":", 7);
        wbuf_i64(out, pid);
    }
    wbuf_put(out, ",\"ts\":", 6);
    wbuf_us(out, bucket * perfetto_counters_width(c));
    wbuf_put(out, ",\"args\":{\"", 10);
    wbuf_put(out, kind_key[kind], strlen(kind_key[kind]));
    wbuf_put(out, "\":", 2);
    put_ratio(out, sum, kind == KIND_BUSY ? 1 : 1000000000, perfetto_counters_width(c));
    wbuf_put(out, "}}", 2);
}

void perfetto_counters_write(struct perfetto_counters *c, struct wbuf *out, void (*begin)(void *ctx), void *ctx)
{
    const struct bucket_sums *s = &c->sums;
    size_t n = s->cells.n;
    struct cell *cells = spoor_xmalloc((n ? n : 1) * sizeof *cells);
    for (size_t i = 0; i < n; i++)
        cells[i] = (struct cell){s->cells.keys[i], s->sum[i]};
    qsort(cells, n, sizeof *cells, cell_order);
    for (size_t i = 0; i < n; i++) {
        uint32_t series = (uint32_t)(cells[i].key >> BUCKET_REL_BITS);
        int64_t bucket = s->base + (int64_t)(cells[i].key & BUCKET_REL_MASK);
        begin(ctx);
        put_sample(c, out, series, bucket, cells[i].sum);
        /* The track holds a value until the next sample: back to 0 after the
         * series' last bucket or before a gap. */
        bool next_adjacent = i + 1 < n && cells[i + 1].key == cells[i].key + 1 &&
                             cells[i + 1].key >> BUCKET_REL_BITS == series;
        if (!next_adjacent) {
            begin(ctx);
            put_sample(c, out, series, bucket + 1, 0);
        }
    }
    free(cells);
}
