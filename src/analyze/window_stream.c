/* Windows of block requests closed as they come (window_stream.h).
 *
 * Requests wait in arrival order until the watermark passes the end of their
 * issue's window; then the places of those of the windows to finish are
 * sorted by (window, device, issue time, arrival), and the requests go
 * through one accumulator per device (or one for all), window by window. A
 * completion in a later window than its issue's waits in `late`, sorted by
 * window, and is merged in when that window is filled (completions only add
 * latencies: their order within a window does not matter). At the watermark
 * INT64_MAX every request is taken at once: two radix sorts of 4-byte
 * places, the requests themselves never copied, as a batch would do it. */
#include "analyze/window_stream.h"

#include <stdlib.h>
#include <string.h>

#include "spoor/error.h"
#include "util/grow.h"
#include "util/radix_sort.h"

/* A completion waiting for the window of its completion time. */
struct late {
    uint64_t group;
    uint32_t slot;
    uint8_t op;
    uint64_t latency_ns;
};

struct window_stream {
    int64_t every_ns, t0;
    unsigned flags;
    bool started;
    uint64_t next;                      /* the first window not finished */
    struct window_request *reqs;        /* waiting, in arrival order */
    size_t n, cap;
    struct late *late;                  /* by window */
    size_t nlate, late_cap;
    struct spoor_strpool *devs;
    struct spoor_wf_track *tracks;      /* by device, outliving windows */
    struct spoor_wf_window *acc;        /* by slot (device, or 0 for all), the window being filled */
    bool *touched;                      /* by slot: the window has an issue or completion */
    size_t dev_cap;
    uint64_t other;
    uint64_t added;
};

struct window_stream *window_stream_new(int64_t every_ns, int64_t t0, unsigned flags)
{
    struct window_stream *ws = spoor_xcalloc(1, sizeof *ws);
    ws->every_ns = every_ns;
    ws->t0 = t0;
    ws->flags = flags;
    ws->devs = spoor_strpool_new();
    return ws;
}

void window_stream_free(struct window_stream *ws)
{
    if (!ws)
        return;
    free(ws->reqs);
    free(ws->late);
    free(ws->tracks);
    free(ws->acc);
    free(ws->touched);
    spoor_strpool_free(ws->devs);
    free(ws);
}

struct spoor_strpool *window_stream_devices(struct window_stream *ws) { return ws->devs; }
uint64_t window_stream_requests(const struct window_stream *ws) { return ws->added; }
uint64_t window_stream_others(const struct window_stream *ws) { return ws->other; }

void window_stream_add_batch(struct window_stream *ws, const struct spoor_table *b)
{
    size_t before = ws->n;
    window_requests_of_batch(b, ws->devs, &ws->reqs, &ws->n, &ws->cap, &ws->other);
    ws->added += ws->n - before;
}

/* The loader's reduce(): the reads and writes of a batch, in input order. */
static int add_loaded_batch(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    window_stream_add_batch(ctx, b);
    return SPOOR_OK;
}

/* True when the input was read as a block-layer trace: the formats whose
 * rows are requests. */
static bool is_block_trace(const struct spoor_input_report *in)
{
    const char *name = in->dialect.format ? in->dialect.format->name : "";
    return !strcmp(name, "blkparse") || !strcmp(name, "ftrace") || !strcmp(name, "lttng");
}

int window_stream_load(struct window_stream *ws, const char *const *paths, size_t npaths,
                       const struct spoor_load_opts *opts, const char *cmd, struct spoor_load_result *res,
                       struct spoor_error *err)
{
    struct spoor_sink sink = {.ctx = ws, .reduce = add_loaded_batch};
    int st = spoor_load(paths, npaths, opts, &sink, res, err);
    for (size_t i = 0; st == SPOOR_OK && i < res->ninputs; i++)
        if (!is_block_trace(&res->inputs[i]))
            st = spoor_fail(err, SPOOR_EFORMAT, "%s: not a block-layer trace (read as %s); %s blkparse, ftrace or lttng",
                            res->inputs[i].path, res->inputs[i].dialect.name, cmd);
    return st;
}

/* The window of time ts on the grid, from 0. */
static uint64_t window_of(const struct window_stream *ws, int64_t ts)
{
    return ts <= ws->t0 ? 0 : (uint64_t)((ts - ws->t0) / ws->every_ns);
}

/* The window ts counts in: a time before the first window still open counts
 * in it (a late arrival, live). */
static uint64_t group_of(const struct window_stream *ws, int64_t ts)
{
    uint64_t g = window_of(ws, ts);
    return g < ws->next ? ws->next : g;
}

static bool all_devices(const struct window_stream *ws) { return ws->flags & WINDOW_STREAM_ALL_DEVICES; }

/* The accumulator of a device's requests. */
static uint32_t slot_of(const struct window_stream *ws, uint32_t dev) { return all_devices(ws) ? 0 : dev; }

/* Room for every device named so far (and one slot at least). */
static void fit_devices(struct window_stream *ws)
{
    size_t ndevs = spoor_strpool_count(ws->devs) + 1, old = ws->dev_cap;
    if (ndevs <= old)
        return;
    ws->dev_cap = ndevs * 2;
    ws->tracks = spoor_xrealloc(ws->tracks, ws->dev_cap * sizeof *ws->tracks);
    ws->acc = spoor_xrealloc(ws->acc, ws->dev_cap * sizeof *ws->acc);
    ws->touched = spoor_xrealloc(ws->touched, ws->dev_cap * sizeof *ws->touched);
    memset(ws->tracks + old, 0, (ws->dev_cap - old) * sizeof *ws->tracks);
    memset(ws->touched + old, 0, (ws->dev_cap - old) * sizeof *ws->touched);
    for (size_t d = old; d < ws->dev_cap; d++)
        spoor_wf_clear(&ws->acc[d]);
}

/* The end of window k: the first time past it. */
static int64_t end_of(const struct window_stream *ws, uint64_t k)
{
    return ws->t0 + (int64_t)(k + 1) * ws->every_ns;
}

/* The first issue and the last issue or completion of the waiting
 * requests, in one pass (INT64_MAX and INT64_MIN for none). */
static void waiting_span(const struct window_stream *ws, int64_t *first, int64_t *last)
{
    *first = INT64_MAX;
    *last = INT64_MIN;
    for (size_t i = 0; i < ws->n; i++) {
        const struct window_request *q = &ws->reqs[i];
        int64_t t = q->dur > 0 ? q->ts + q->dur : q->ts;
        *first = q->ts < *first ? q->ts : *first;
        *last = t > *last ? t : *last;
    }
}

/* The number of windows the watermark finishes: those ending at or before
 * it; at INT64_MAX, every window a waiting request (the last event at
 * `last`) or completion falls in. */
static uint64_t windows_before(const struct window_stream *ws, int64_t watermark, int64_t last)
{
    if (watermark != INT64_MAX)
        return window_of(ws, watermark);
    uint64_t end = ws->n ? group_of(ws, last) + 1 : ws->next;
    return ws->nlate && ws->late[ws->nlate - 1].group + 1 > end ? ws->late[ws->nlate - 1].group + 1 : end;
}

/* rows reordered by key_of_row, ties kept, unless in that order already
 * (one device, or one window for all: the issue order is the window's). */
static void sort_again(uint32_t *rows, size_t n, const uint64_t *key_of_row)
{
    size_t i = 1;
    while (i < n && key_of_row[rows[i - 1]] <= key_of_row[rows[i]])
        i++;
    if (i < n)
        spoor_radix_sort_rows_again(rows, n, key_of_row);
}

/* A completion after the end of its issue's window g, into ws->late. */
static void wait_late(struct window_stream *ws, const struct window_request *q, uint64_t g)
{
    if (q->ts + q->dur < end_of(ws, g))
        return;
    spoor_reserve((void **)&ws->late, &ws->late_cap, ws->nlate + 1, sizeof *ws->late);
    ws->late[ws->nlate++] = (struct late){group_of(ws, q->ts + q->dur), slot_of(ws, q->dev), q->op, (uint64_t)q->dur};
}

/* order[0..n): the places in ws->reqs of the waiting requests issued before
 * window `limit` (all of them: every one), by (window, device, issue time),
 * ties in arrival order: by issue time, then again (stable) by window and
 * device, since the window follows from the time. Their completions of a
 * later window go to ws->late. order has room for ws->n. Returns n. */
static size_t take_closing(struct window_stream *ws, uint64_t limit, bool every_one, uint32_t *order)
{
    size_t n = every_one ? ws->n : 0;
    for (size_t i = 0; !every_one && i < ws->n; i++)
        n += group_of(ws, ws->reqs[i].ts) < limit;
    uint32_t *at = n < ws->n ? spoor_xmalloc((n ? n : 1) * sizeof *at) : NULL; /* NULL: all of them */
    uint64_t *key = spoor_xmalloc((n ? n : 1) * sizeof *key), *spare = spoor_xmalloc((n ? n : 1) * sizeof *spare);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0, j = 0; i < ws->n; i++)
        if (!at || group_of(ws, ws->reqs[i].ts) < limit) {
            if (at)
                at[j] = (uint32_t)i;
            key[j] = spoor_radix_signed_key(ws->reqs[i].ts);
            spoor_key_span_add(&span, key[j++]);
        }
    spoor_radix_sort_rows(order, NULL, n, key, spare, &span);
    free(spare);
    uint64_t per = all_devices(ws) ? 1 : spoor_strpool_count(ws->devs);
    for (size_t j = 0; j < n; j++) {
        const struct window_request *q = &ws->reqs[at ? at[j] : j];
        uint64_t g = group_of(ws, q->ts);
        key[j] = (g - ws->next) * per + (all_devices(ws) ? 0 : q->dev);
        wait_late(ws, q, g);
    }
    sort_again(order, n, key);
    free(key);
    for (size_t j = 0; at && j < n; j++)
        order[j] = at[order[j]];
    free(at);
    return n;
}

/* ws->late sorted by window again, when new ones came after the first before. */
static void sort_late(struct window_stream *ws, size_t before)
{
    if (ws->nlate == before)
        return;
    size_t m = ws->nlate;
    uint32_t *rows = spoor_xmalloc(m * sizeof *rows);
    uint64_t *key = spoor_xmalloc(m * sizeof *key);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < m; i++) {
        key[i] = ws->late[i].group;
        spoor_key_span_add(&span, key[i]);
    }
    spoor_radix_sort_rows(rows, NULL, m, key, NULL, &span);
    free(key);
    struct late *sorted = spoor_xmalloc(m * sizeof *sorted);
    for (size_t i = 0; i < m; i++)
        sorted[i] = ws->late[rows[i]];
    free(rows);
    free(ws->late);
    ws->late = sorted;
    ws->late_cap = m;
}

/* The closing requests and waiting completions of windows k and after. */
struct cursor {
    const uint32_t *c, *end;    /* places in ws->reqs */
    size_t late;                /* the first in ws->late */
};

/* The next window with something in it, from k on (and before limit). */
static uint64_t next_busy(const struct window_stream *ws, uint64_t k, const struct cursor *at, uint64_t limit)
{
    uint64_t busy = at->c < at->end ? group_of(ws, ws->reqs[*at->c].ts) : limit;
    if (at->late < ws->nlate && ws->late[at->late].group < busy)
        busy = ws->late[at->late].group;
    return busy > k ? busy : k;
}

/* Window k: its issues, and the completions waiting for it. The cursor's
 * requests are of window k or later: of k when issued before its end. */
static void fill_window(struct window_stream *ws, uint64_t k, struct cursor *at)
{
    int64_t end = end_of(ws, k);
    for (; at->c < at->end && ws->reqs[*at->c].ts < end; at->c++) {
        const struct window_request *q = &ws->reqs[*at->c];
        uint32_t s = slot_of(ws, q->dev);
        spoor_wf_issue(&ws->acc[s], &ws->tracks[q->dev], q->op, q->sector, q->bytes, q->queue_depth);
        ws->touched[s] = true;
        if (q->ts + q->dur < end) /* else in late */
            spoor_wf_complete(&ws->acc[s], q->op, (uint64_t)q->dur);
    }
    for (; at->late < ws->nlate && ws->late[at->late].group == k; at->late++) {
        const struct late *l = &ws->late[at->late];
        spoor_wf_complete(&ws->acc[l->slot], l->op, l->latency_ns);
        ws->touched[l->slot] = true;
    }
}

/* Finishes windows next..limit-1 from the requests at order (nclosing) and
 * the late completions, those with something in them (or every one); stops
 * at done's first nonzero return. */
static int finish_windows(struct window_stream *ws, uint64_t limit, const uint32_t *order, size_t nclosing,
                          window_done_fn done, void *ctx)
{
    struct cursor at = {order, order + nclosing, 0};
    size_t slots = all_devices(ws) ? 1 : spoor_strpool_count(ws->devs);
    bool every = ws->flags & WINDOW_STREAM_EMPTY_TOO;
    int st = 0;
    for (uint64_t k = ws->next; k < limit && !st; k++) {
        if (!every && (k = next_busy(ws, k, &at, limit)) >= limit)
            break;
        fill_window(ws, k, &at);
        for (uint32_t d = 0; d < slots && !st; d++) {
            if (!ws->touched[d] && !every)
                continue;
            ws->touched[d] = false;
            struct window_done w = {.index = k, .start_ns = ws->t0 + (int64_t)k * ws->every_ns, .dev = d};
            spoor_wf_finish(&ws->acc[d], (uint64_t)ws->every_ns, w.f);
            st = done(ctx, &w);
        }
    }
    while (at.late < ws->nlate && ws->late[at.late].group < limit) /* after an error: dropped with their windows */
        at.late++;
    if (at.late) {
        memmove(ws->late, ws->late + at.late, (ws->nlate - at.late) * sizeof *ws->late);
        ws->nlate -= at.late;
    }
    return st;
}

int window_stream_advance(struct window_stream *ws, int64_t watermark, window_done_fn done, void *ctx)
{
    int64_t first = INT64_MAX, last = INT64_MIN;
    if ((!ws->started && ws->t0 == INT64_MIN) || watermark == INT64_MAX)
        waiting_span(ws, &first, &last);
    if (!ws->started) {
        if (ws->t0 == INT64_MIN) {
            /* the first issue: known once the watermark is past the earliest
             * one waiting (no request issued before the watermark is to come) */
            if (!ws->n || (first >= watermark && watermark != INT64_MAX))
                return 0;
            ws->t0 = first;
        }
        ws->started = true;
    }
    uint64_t limit = windows_before(ws, watermark, last);
    if (limit <= ws->next)
        return 0;
    fit_devices(ws);
    uint32_t *order = spoor_xmalloc((ws->n ? ws->n : 1) * sizeof *order);
    size_t nlate = ws->nlate, nclosing = take_closing(ws, limit, watermark == INT64_MAX, order);
    sort_late(ws, nlate);
    int st = finish_windows(ws, limit, order, nclosing, done, ctx);
    free(order);
    size_t kept = 0;    /* the requests of later windows wait, in arrival order */
    for (size_t i = 0; nclosing < ws->n && i < ws->n; i++)
        if (window_of(ws, ws->reqs[i].ts) >= limit)
            ws->reqs[kept++] = ws->reqs[i];
    ws->n = kept;
    ws->next = limit;
    return st;
}
